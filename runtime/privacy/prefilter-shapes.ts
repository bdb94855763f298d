/**
 * The pre-filter's (prefilter.ts) hand-written witnesses: relaxations of three rule shapes,
 * read with `indexOf` and a few character reads instead of a regex. Why by hand: in a fresh
 * hook process each regex is compiled on first use, and these three would be compiled for
 * most replies ("key", "api", "token", "access" and "auth" are common words, and most replies
 * hold a run of 16 token characters: a path, a command); compiling them cost more than the
 * hook's whole budget for redaction, the reads cost a small part of it.
 *
 * Each is a superset of the pattern it stands for (written out above it):
 * test/privacy/prefilter.test.ts checks that with fast-check against those patterns.
 *
 * Example: `genericShape("api_key = abcdefghijkl0")` -> true; `genericShape("the key was lost")` -> false.
 */

/** JavaScript's \s (the regexes' class), so that no text these functions clear is one a pattern with \s takes. */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 160) return false;
  return c === 160 || c === 5760 || (c >= 8192 && c <= 8202) || c === 8232 || c === 8233 || c === 8239 || c === 8287 || c === 12288 || c === 65279;
}

/**
 * The secret words of gitleaks' generic rule, each with how many more word characters its
 * longer forms take ("cred" -> "credential", "passw" -> "password"): those count against
 * the rule's 20 name characters that may follow. Flat ([word, more, word, more, ...]): in V8's
 * interpreter a destructuring loop costs several times an indexed one.
 */
const GENERIC_WORDS: readonly (string | number)[] = ["access", 0, "auth", 0, "api", 0, "cred", 6, "key", 0, "passw", 3, "secret", 0, "token", 0];
/** The first characters of the generic rule's operators (`=`, `>`, `:{1,3}=`, `||`, `:`, `=>`, `?=`, `,`). */
const OPERATOR_STARTS = ["=", ">", ":", "|", "?", ","];

/**
 * gitleaks' generic rule without its entropy check, on the lower-cased text:
 * `(?:access|auth|api|credential|creds|key|passw(?:or)?d|secret|token)[ \t\w.-]{0,20}[\s'"]{0,3}
 * (?:=|>|:{1,3}=|\|\||:|=>|\?=|,)[`'"\s=]{0,5}[\w.=+/-]{12}` (12 value characters: the rule
 * keeps only values above 3.5 bits of entropy a character, so 12 distinct ones). No operator
 * character is a name character, so the operator can only be the first one after the word:
 * it is found by `indexOf` (native), and only the few characters up to it are read. Relaxed
 * where the word has longer forms (the name part is allowed their extra characters too) and
 * after the operator (see valueAfter).
 */
export function genericShape(lower: string): boolean {
  for (let w = 0; w < GENERIC_WORDS.length; w += 2) {
    const word = GENERIC_WORDS[w] as string;
    const names = 20 + (GENERIC_WORDS[w + 1] as number);
    for (let at = lower.indexOf(word); at >= 0; at = lower.indexOf(word, at + 1)) {
      const from = at + word.length;
      let o = -1;
      for (let k = 0; k < OPERATOR_STARTS.length; k++) {
        const p = lower.indexOf(OPERATOR_STARTS[k]!, from);
        if (p >= 0 && (o < 0 || p < o)) o = p;
      }
      if (o < 0 || o > from + names + 3) continue;
      // "|" and "?" start an operator only as "||" and "?=" (a table's "|" is not one).
      const op = lower.charCodeAt(o);
      if ((op === 124 || op === 63) && lower.charCodeAt(o + 1) !== (op === 124 ? 124 : 61)) continue;
      // [ \t\w.-]{0,20} then [\s'"]{0,3} up to the operator (greedy is exact: the second class
      // takes no character the first one could leave to it but space and tab, and it is the shorter).
      let i = from;
      while (i < o && i - from < names) {
        const c = lower.charCodeAt(i);
        if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90) || c === 32 || c === 9 || c === 46 || c === 45)) break;
        i++;
      }
      const named = i;
      while (i < o && i - named < 3) {
        const c = lower.charCodeAt(i);
        if (!(c === 39 || c === 34 || isSpace(c))) break;
        i++;
      }
      if (i === o && valueAfter(lower, o)) return true;
    }
  }
  return false;
}

/** Whether 12 value characters start within 9 of the operator at `o`, after only operator, quote, space or "=" characters. */
function valueAfter(lower: string, o: number): boolean {
  for (let v = o + 1; v <= o + 9 && v + 12 <= lower.length; v++) {
    let k = 0;
    while (k < 12) {
      const c = lower.charCodeAt(v + k);
      // [\w.=+/-]
      if (!((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90) || c === 46 || c === 61 || c === 43 || c === 47 || c === 45)) break;
      k++;
    }
    if (k === 12) return true;
    const c = lower.charCodeAt(v);
    // [`'"\s=] after the operator, and the operator's own later characters (":", "=", "|", ">").
    if (!(c === 61 || c === 62 || c === 58 || c === 124 || c === 96 || c === 39 || c === 34 || isSpace(c))) return false;
  }
  return false;
}

/** What tokenRuns found: a narrow run for the own prefixed-token and url-token rules, a wide one for named-in-prose. */
export interface TokenRuns {
  /** A whole run of 23 or more [A-Za-z0-9_-] with an upper-case letter, a lower-case one and a digit. */
  narrow: boolean;
  /** A whole run of 16 or more [A-Za-z0-9_.~+/=-] with a letter and two digits. */
  wide: boolean;
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
  const out: TokenRuns = { narrow: false, wide: false };
  WIDE_RUN.lastIndex = 0;
  for (let m = WIDE_RUN.exec(text); m !== null && !(out.narrow && out.wide); m = WIDE_RUN.exec(text)) {
    // Both conditions need a digit; most runs (paths, names) have none, and reading a run
    // character by character costs thousands of instructions a character in a cold process.
    if (DIGIT.test(m[0])) readRuns(m[0], out);
  }
  return out;
}

/** Reads one wide run into `out`: its narrow runs (split by ".", "~", "+", "/", "=") and its counts. */
function readRuns(run: string, out: TokenRuns): void {
  let nLen = 0, nUpper = 0, nLower = 0, nDigits = 0;
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
    } else {
      if (nLen >= 23 && nUpper > 0 && nLower > 0 && nDigits > 0) out.narrow = true;
      nLen = nUpper = nLower = nDigits = 0;
    }
  }
  if (letters > 0 && digits >= 2) out.wide = true;
}
