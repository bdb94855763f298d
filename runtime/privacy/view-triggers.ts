/**
 * What one pass over a text's characters tells the views (text-views.ts) before any step runs:
 * which of the steps' trigger characters the text holds, as bit flags, so a text that holds none
 * (most texts: prose, paths, code without escapes) gets no view for the price of one loop, and a
 * step whose trigger is absent is not called (its function and patterns are never compiled in a
 * hook's fresh process).
 *
 * Example: `triggers("KEY=\x1b[32mab\x1b[0m") & T_ESC` -> non-zero; `triggers("run the tests")` -> 0.
 */

/** A JSON string escape the JSON step reads as its trigger: `\n`, `\t` or `\"`. */
export const T_JSON_ESCAPE = 1;
/** A carriage return. */
export const T_CR = 2;
/** An escape character (a terminal's CSI sequence). */
export const T_ESC = 4;
/** An ampersand (an HTML entity). */
export const T_AMP = 8;
/** A percent sign (a percent-escape). */
export const T_PCT = 16;
/** A newline. */
export const T_NL = 32;
/** A row of WRAP_MIN columns or more (a terminal's wrap) or ending in a backslash (a continuation). */
export const T_JOIN = 64;
/** A backspace (a terminal capture's erased characters). */
export const T_BS = 128;
/** Word-diff marks: `[-` or `{+`. */
export const T_WORDDIFF = 256;
/** A line starting `data:` (a server-sent event). */
export const T_EVENT = 512;

/** A JSON object's opening `{"` (a JSON text's values are put on lines of their own). */
export const T_OBJECT = 1024;

/** A gutter every line after the first can share (its first character a digit, `>`, `+`, `-`, `*`, a bullet or a space). */
export const T_GUTTER = 2048;

/** Markdown's escape of an emphasis mark: `\_` or `\*`. */
export const T_MD_ESCAPE = 4096;

/** A terminal's narrowest plausible width: a shorter row is no wrap (view-lines.ts joinStep). */
export const WRAP_MIN = 60;

/** `\s` of a pattern for one code unit. */
export function isSpace(c: number): boolean {
  return (c >= 9 && c <= 13) || c === 32 || c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff;
}

/** Whether `c` can start a line's gutter (view-lines.ts GUTTERS: a stamp's digit, `>`, a bullet, a diff's column, an indent). */
const gutterChar = (c: number): boolean => (c >= 0x30 && c <= 0x39) || c === 0x3e || c === 0x2b || c === 0x2d || c === 0x2a || c === 0x2022 || isSpace(c);

/** Whether `c` can end a piece of a token a wrap cut (view-lines.ts CUT_TOKEN_END: a letter, a digit, `+/=_.~-`). */
const tokenChar = (c: number): boolean =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x2b || c === 0x2f || c === 0x3d || c === 0x5f || c === 0x2e || c === 0x7e || c === 0x2d;

/** Whether `c` is an editor's wrap mark (view-lines.ts WRAP_MARK). */
const wrapMark = (c: number): boolean => c === 0x21aa || c === 0x21b3 || c === 0x2937;

/**
 * The triggers `text` holds (the T_ flags or-ed). Native searches (`includes`, `indexOf`), not
 * a loop over the characters: a hook's fresh process runs this in V8's interpreter, where a
 * search costs a few instructions a character and a loop's step a hundred or more. The rows are
 * walked once, newline to newline from the end, for the line steps' traces: a row a terminal may
 * have wrapped (WRAP_MIN or more, as long as every row after it, ending in a token's character,
 * the next not empty and not starting with a space), a
 * continuation's backslash or an editor's wrap mark (T_JOIN); a gutter every row after the first
 * can share (T_GUTTER).
 */
export function triggers(text: string): number {
  let t = 0;
  if (text.includes("\\")) {
    if (text.includes("\\n") || text.includes("\\t") || text.includes('\\"')) t |= T_JSON_ESCAPE;
    if (text.includes("\\_") || text.includes("\\*")) t |= T_MD_ESCAPE;
  }
  if (text.includes("\r")) t |= T_CR;
  if (text.includes("\x1b")) t |= T_ESC;
  if (text.includes("&")) t |= T_AMP;
  if (text.includes("%")) t |= T_PCT;
  if (text.includes("\b")) t |= T_BS;
  if (text.includes("[-") || text.includes("{+")) t |= T_WORDDIFF;
  if (text.startsWith("data:") || text.includes("\ndata:")) t |= T_EVENT;
  if (text.includes('{"') || opensJson(text)) t |= T_OBJECT;
  return t | rowTriggers(text);
}

/** Whether `text`'s first character past whitespace opens a JSON object or array. */
function opensJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (!isSpace(c)) return false;
  }
  return false;
}

/** T_NL, T_JOIN and T_GUTTER, from one walk over the rows from the last. */
function rowTriggers(text: string): number {
  let nl = text.lastIndexOf("\n");
  if (nl < 0) return gutterChar(text.charCodeAt(0)) ? T_GUTTER : 0;
  let t = T_NL;
  let gutter = true;
  let end = text.length;
  // The longest row after the one read (-1: it is the last), whether the row after it is empty.
  let later = -1;
  let nextEmpty = true;
  const lastMayLack = text.lastIndexOf("\n", nl - 1) >= 0;
  for (;;) {
    const start = nl + 1;
    const len = end - start;
    if (later >= 0 && len > 0 && ((len >= WRAP_MIN && len >= later && !nextEmpty && tokenChar(text.charCodeAt(end - 1)) && !isSpace(text.charCodeAt(end + 1))) || text.charCodeAt(end - 1) === 0x5c)) t |= T_JOIN;
    if (nl >= 0 && len > 0) {
      let c = text.charCodeAt(start);
      // An editor's wrap mark after the number column's indent starts the rest of a wrapped row.
      if (c === 0x20 || c === 0x09) for (let i = start + 1; i < end && (c === 0x20 || c === 0x09); i++) c = text.charCodeAt(i);
      if (wrapMark(c)) t |= T_JOIN;
      // Every row after the first must start a gutter but the last of three or more.
      if (gutter && !gutterChar(text.charCodeAt(start)) && !(later < 0 && lastMayLack)) gutter = false;
    }
    if (nl < 0) break;
    later = Math.max(later, len);
    nextEmpty = len === 0;
    end = nl;
    nl = nl === 0 ? -1 : text.lastIndexOf("\n", nl - 1);
  }
  return gutter ? t | T_GUTTER : t;
}
