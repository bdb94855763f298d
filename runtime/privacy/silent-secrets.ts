/**
 * The silent-secret rules (docs/privacy.md "A twelfth held-out set"): secrets that no word beside
 * them names, told by their position: a call's, a row's or a command's fields (silent-fields.ts),
 * a URL's path (silent-paths.ts), the line before or a table's column (silent-lines.ts), or
 * characters read out one by one (silent-spoken.ts). Each rule is a scan (`find`); the
 * pre-filter's witness (`silentScans`, called beside the tenth-set pass's scans) runs the same
 * scans behind a gate that an ordinary text fails at once: a run of ten token characters holding
 * a digit and a letter, which every value these rules take has (a read-out value's characters
 * are gated by a digit beside a separator). Before the argument, line and path scans, one read of
 * the text's long runs (silentFacts) tells whether any run has the shape every value of theirs has.
 *
 * Example: `silentScans("ok")` -> []; `silentScans("$ openssl rand -base64 48\n<a random key>")` ->
 * ["own:silent-line"].
 */
import type { OwnRule } from "./own-rules.js";
import { findSilentFields } from "./silent-fields.js";
import { findSilentLines } from "./silent-lines.js";
import { findSilentPaths } from "./silent-paths.js";
import { findSpoken } from "./silent-spoken.js";

const RUN = /[A-Za-z0-9_+/=.~-]{10,}/g;

/** Whether `text` holds a run of ten token characters with a digit and a letter (the gate). */
function valueRun(text: string): boolean {
  RUN.lastIndex = 0;
  for (let m = RUN.exec(text); m !== null; m = RUN.exec(text)) if (/\d/.test(m[0]) && /[A-Za-z]/.test(m[0])) return true;
  return false;
}

/** A digit beside a separator and a letter or digit (`9 u`, `3, q`, `1-7`, `6.\u0020u`): the read-out gate. */
const SPOKEN_GATE = /[A-Za-z0-9][ ,.\n-]{1,2}\d[ ,.\n-]{1,2}[A-Za-z0-9]|\d{1,3} (?:slash|dash|dot)|\b[0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2} [0-9a-fA-F]{2}\b|(?<![\w-])(?=[A-Za-z]{0,4}\d)[A-Za-z0-9]{3,5} (?=[A-Za-z]{0,4}\d)[A-Za-z0-9]{3,5} /;

const rule = (kind: string, find: (text: string) => Array<[number, number]>): OwnRule => ({ kind, re: /[^\s]{8,300}/g, find });

export const SILENT_RULES: readonly OwnRule[] = [
  rule("silent-argument", (t) => (silentFacts(t).fields ? findSilentFields(t) : [])), // then its own gate: the runs of a value's shape, found first
  rule("silent-path", (t) => (silentFacts(t).paths ? findSilentPaths(t) : [])),
  rule("silent-line", (t) => (t.includes("\n") && silentFacts(t).lines && valueRun(t) ? findSilentLines(t) : [])),
  rule("spoken-secret", (t) => (SPOKEN_GATE.test(t) ? findSpoken(t) : [])),
];

/**
 * What the argument, line and path scans need of a text, read in one pass over its runs of ten
 * non-blank characters or more (a native search; only those runs are read character by
 * character), before either scan compiles a pattern of its own: in a fresh hook process each
 * pattern costs its compiling, and the value tests' thirty-odd patterns were most of a cleared
 * capture's silent scans (docs/privacy.md "Cost"). Each answer is "no" only where its scan
 * finds nothing, because every value the scans take has one of three shapes, all seen here:
 * - a typed password or a token body (silent-shapes.ts typedPassword, own-shapes.ts
 *   strongRandom): an upper-case letter, a lower-case one and a digit;
 * - hex (hexRun, a cipher's `0x` key): 24 hex digits in a row or more, or twelve or more as a
 *   part, next to "_", "~", "." or "-" (hexRun of a part, a UUID's last part);
 * - a run of one case (oneCaseToken, oneCaseRandom), whole or as a part: sixteen letters and
 *   digits or more, three of them digits and three letters beyond hex, with no character but
 *   "+", "/" and "=" among them.
 * `fields` (silent-fields.ts): a whole run of ten token characters (its `candidate` runs) with a
 * digit and a letter and one of the shapes inside it; `lines` (silent-lines.ts, whose values
 * stand alone between blanks): a run of non-blank characters with one of them; `paths`
 * (silent-paths.ts, which reads only the lines of such a run): a "/" and sixteen or more of
 * [A-Za-z0-9_~-] holding a digit.
 * test/privacy/silent-secrets.test.ts checks the three shapes against the value tests.
 */
export function silentFacts(text: string): SilentFacts {
  if (text === lastText && lastFacts !== undefined) return lastFacts;
  const out = { fields: false, lines: false, paths: false };
  LONG.lastIndex = 0;
  for (let m = LONG.exec(text); m !== null && !(out.fields && out.lines && out.paths); m = LONG.exec(text)) readLong(m[0], out);
  lastText = text;
  lastFacts = out;
  return out;
}

/** Runs of ten non-blank characters or more (every value of the two scans lies in one). */
const LONG = /\S{10,}/g;
/** The last text read (the pre-filter and the redactor ask both scans of the same text). */
let lastText: string | undefined;
let lastFacts: SilentFacts | undefined;
type SilentFacts = { fields: boolean; lines: boolean; paths: boolean };

/** Reads one long run into `out` (see silentFacts); one read past its end closes its inner runs. */
function readLong(s: string, out: SilentFacts): void {
  let sUpper = false, sLower = false, sDigit = false, sShape = false;
  let kLen = 0, kUpper = false, kLower = false, kDigit = false, kShape = false; // a run of token characters, [A-Za-z0-9_+/=.~-]
  let hex = 0, hexAfterPart = false; // hex digits in a row, and whether a part's separator stands before them
  let plainAlnum = 0, plainDigits = 0, plainBeyondHex = 0; // of a run of [A-Za-z0-9+/=]
  let path = -1, pathDigit = false; // [A-Za-z0-9_~-] since a "/" (-1: none)
  for (let i = 0; i <= s.length; i++) {
    const c = s.charCodeAt(i); // NaN past the end: in no class
    const upper = c >= 65 && c <= 90;
    const lower = c >= 97 && c <= 122;
    const digit = c >= 48 && c <= 57;
    const alnum = upper || lower || digit;
    const plain = alnum || c === 43 || c === 47 || c === 61;
    const part = c === 95 || c === 46 || c === 126 || c === 45; // "_", ".", "~", "-": what splits a value into parts
    if (upper) sUpper = true;
    else if (lower) sLower = true;
    else if (digit) sDigit = true;
    if (c === 47) {
      path = 0;
      pathDigit = false;
    } else if (path >= 0 && (alnum || c === 95 || c === 126 || c === 45)) {
      path++;
      if (digit) pathDigit = true;
      if (path >= 16 && pathDigit) out.paths = true;
    } else path = -1;
    if (digit || (c >= 65 && c <= 70) || (c >= 97 && c <= 102)) hex++;
    else {
      if (hex >= 24 || (hex >= 12 && (hexAfterPart || part))) kShape = sShape = true;
      hex = 0;
      hexAfterPart = part;
    }
    if (plain) {
      if (alnum) plainAlnum++;
      if (digit) plainDigits++;
      else if ((upper && c > 70) || (lower && c > 102)) plainBeyondHex++;
      if (plainAlnum >= 16 && plainDigits >= 3 && plainBeyondHex >= 3) kShape = sShape = true;
    } else plainAlnum = plainDigits = plainBeyondHex = 0;
    if (plain || part) {
      kLen++;
      if (upper) kUpper = true;
      else if (lower) kLower = true;
      else if (digit) kDigit = true;
      continue;
    }
    if (kLen >= 10 && kDigit && (kUpper || kLower) && ((kUpper && kLower) || kShape)) out.fields = true;
    kLen = 0;
    kUpper = kLower = kDigit = kShape = false;
  }
  if ((sUpper && sLower && sDigit) || sShape) out.lines = true;
}

/** The silent rules that may take something in `text` ("own:<kind>"), by running their gated scans. */
export function silentScans(text: string): string[] {
  return SILENT_RULES.filter((r) => r.find!(text).length > 0).map((r) => `own:${r.kind}`);
}

export const SILENT_KINDS = SILENT_RULES.map((r) => `own:${r.kind}`).join(" ");
