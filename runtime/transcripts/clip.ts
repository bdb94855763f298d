/**
 * Clips that never cut a token in two (issue 34's tenth-set pass, a door bug): a preview, a
 * reply's end or a tool call's summary was a slice of the raw text, redacted after. A slice that
 * cuts through a key keeps part of it without the context the redactor reads (the name before a
 * signed URL's signature, a value's end, the line a key file's comment opens), so the part went
 * through in clear where the whole text's redaction took it. A clip here stops at whitespace: the
 * token the cut would split is left out whole.
 *
 * Example: `clipHead("echo https://h/x?sig=abcdef", 20, "…")` → `"echo…"`;
 * `clipTail("done: https://h/x?sig=abcdef ok", 12, "…")` → `"… ok"`.
 */

const space = (c: string | undefined): boolean => c === undefined || /\s/.test(c);

/** The head of `text` in at most `max` characters with `mark` after it, cut at whitespace. */
export function clipHead(text: string, max: number, mark = ""): string {
  if (text.length <= max) return text;
  let cut = Math.max(0, max - mark.length);
  if (!space(text[cut]) && !space(text[cut - 1])) {
    while (cut > 0 && !space(text[cut - 1])) cut--;
  }
  return `${text.slice(0, cut).trimEnd()}${mark}`;
}

/** The tail of `text` in at most `max` characters with `mark` before it, cut at whitespace. */
export function clipTail(text: string, max: number, mark = ""): string {
  if (text.length <= max) return text;
  let start = text.length - Math.max(0, max - mark.length);
  if (!space(text[start]) && !space(text[start - 1])) {
    while (start < text.length && !space(text[start])) start++;
  }
  return `${mark}${text.slice(start).trimStart()}`;
}
