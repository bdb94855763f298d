/**
 * The runs of token characters the pre-filter (prefilter.ts) reads for the own prefixed-token,
 * url-token and named-in-prose rules: one simple class regex finds the runs, and only runs
 * that hold a digit are read character by character. Why not two regexes as before: in a
 * fresh hook process each regex costs its compiling, and reading every run character by character is slow in
 * V8's interpreter.
 *
 * Example: `tokenRuns("see ghp_Ab12Cd34Ef56Gh78Ij90Kl")` -> `{ narrow: true, wide: true, oneCase: false, longest: 26 }`;
 * `tokenRuns("see runtime/privacy/redact.ts")` -> `{ narrow: false, wide: false, oneCase: false, longest: 25 }`.
 */

/** What tokenRuns found: a narrow run for the own prefixed-token and url-token rules, a wide one for named-in-prose. */
export interface TokenRuns {
  /** A whole run of 23 or more [A-Za-z0-9_-] with an upper-case letter, a lower-case one and a digit. */
  narrow: boolean;
  /** A whole run of 16 or more [A-Za-z0-9_.~+/=-] with a letter and two digits. */
  wide: boolean;
  /**
   * A whole run of 35 or more [A-Za-z0-9_-] with four digits and four letters beyond hex (a
   * one-case body after a prefix); read only until a narrow and a wide run are both found.
   */
  oneCase: boolean;
  /** The length of the longest run of [A-Za-z0-9_.~+/=-] if 16 or more, else 0 (fixed-prefix tokens need one that long). */
  longest: number;
}

/** Runs of token characters: the named-in-prose rule's [A-Za-z0-9_.~+/=-], which holds the prefixed and URL tokens' [A-Za-z0-9_-]. */
const WIDE_RUN = /[A-Za-z0-9_.~+/=-]{16,}/g;
const DIGIT = /[0-9]/;

/**
 * The runs of token characters the own prefixed-token, url-token and named-in-prose rules
 * need: the same answer as reading every whole run of `/[A-Za-z0-9_-]{23,}/g` and of
 * `/[A-Za-z0-9_.~+/=-]{16,}/g`, with one regex: each narrow run of 23 lies inside a wide run
 * of 16 or more, so only the wide runs are read (one simple class regex costs about half of
 * two in a fresh process).
 */
export function tokenRuns(text: string): TokenRuns {
  const out: TokenRuns = { narrow: false, wide: false, oneCase: false, longest: 0 };
  WIDE_RUN.lastIndex = 0;
  for (let m = WIDE_RUN.exec(text); m !== null; m = WIDE_RUN.exec(text)) {
    if (m[0].length > out.longest) out.longest = m[0].length;
    // Both conditions need a digit; most runs (paths, names) have none, and reading a run
    // character by character is slow in a cold process.
    // Once a narrow and a wide run are found, `oneCase` is not needed: a narrow run already
    // names the rule it stands for (the own prefixed-token rule).
    if (!(out.narrow && out.wide) && DIGIT.test(m[0])) readRuns(m[0], out);
  }
  return out;
}

/** Reads one wide run into `out`: its narrow runs (split by ".", "~", "+", "/", "=") and its counts. */
function readRuns(run: string, out: TokenRuns): void {
  let nLen = 0, nUpper = 0, nLower = 0, nDigits = 0, nBeyondHex = 0;
  let letters = 0, digits = 0;
  // One read past the run closes the last narrow run (NaN is in no class).
  for (let i = 0; i <= run.length; i++) {
    const c = run.charCodeAt(i);
    const upper = c >= 65 && c <= 90;
    const lowerCase = c >= 97 && c <= 122;
    const digit = c >= 48 && c <= 57;
    if (upper || lowerCase) letters++;
    else if (digit) digits++;
    if (upper || lowerCase || digit || c === 95 || c === 45) {
      nLen++;
      if (upper) nUpper++;
      else if (lowerCase) nLower++;
      else if (digit) nDigits++;
      if ((c >= 71 && c <= 90) || (c >= 103 && c <= 122)) nBeyondHex++;
    } else {
      if (nLen >= 23 && nUpper > 0 && nLower > 0 && nDigits > 0) out.narrow = true;
      if (nLen >= 35 && nDigits >= 4 && nBeyondHex >= 4) out.oneCase = true;
      nLen = nUpper = nLower = nDigits = nBeyondHex = 0;
    }
  }
  if (letters > 0 && digits >= 2) out.wide = true;
}
