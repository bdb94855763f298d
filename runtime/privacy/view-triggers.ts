/**
 * What one pass over a text's characters tells the views (text-views.ts) before any step runs:
 * which of the steps' trigger characters the text holds, as bit flags, so a text that holds none
 * (most texts: prose, paths, code without escapes) gets no view for the price of one loop, and a
 * step whose trigger is absent is not called (its function and patterns are never compiled in a
 * hook's fresh process).
 *
 * Example: `triggers("KEY=\x1b[32mab\x1b[0m") & T_ESC` -> non-zero; `triggers("run the tests")` -> 0.
 */

/** A backslash (a JSON or Markdown escape, a shell continuation). */
export const T_BACKSLASH = 1;
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

/** A terminal's narrowest plausible width: a shorter row is no wrap (view-lines.ts joinStep). */
export const WRAP_MIN = 60;

/**
 * The triggers `text` holds (the T_ flags or-ed). Native searches (`includes`, `indexOf`), not
 * a loop over the characters: a hook's fresh process runs this in V8's interpreter, where a
 * search costs a few instructions a character and a loop's step a hundred or more; the rows are
 * walked newline to newline.
 */
export function triggers(text: string): number {
  let t = 0;
  if (text.includes("\\")) t |= T_BACKSLASH;
  if (text.includes("\r")) t |= T_CR;
  if (text.includes("\x1b")) t |= T_ESC;
  if (text.includes("&")) t |= T_AMP;
  if (text.includes("%")) t |= T_PCT;
  if (text.includes("\b")) t |= T_BS;
  if (text.includes("[-") || text.includes("{+")) t |= T_WORDDIFF;
  if (text.startsWith("data:") || text.includes("\ndata:")) t |= T_EVENT;
  if (text.includes('{"')) t |= T_OBJECT;
  let row = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    t |= T_NL;
    if (i - row >= WRAP_MIN || text.charCodeAt(i - 1) === 0x5c) {
      t |= T_JOIN;
      break;
    }
    row = i + 1;
  }
  return t;
}
