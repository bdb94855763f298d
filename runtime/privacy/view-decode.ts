/**
 * The views' decoding steps (text-views.ts): JSON string escapes, CR before LF, ANSI CSI
 * sequences, HTML entities of quoting, percent-escapes of printable ASCII. Each looks for its
 * trigger first (`includes`, `indexOf`) and is null when the text has none.
 *
 * Example: `ansiStep("a\x1b[32mb\x1b[0m")!.out` -> `"ab"`.
 */
import { Builder, copy, type Step } from "./view-build.js";

const JSON_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f" };
const HEX4 = /^[0-9a-fA-F]{4}$/;

/** How many times `needle` stands in `text`, counted up to `max`. */
function count(text: string, needle: string, max: number): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0 && n < max; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * One level of JSON string escapes decoded, where the text shows it is JSON-escaped: an escaped
 * newline, tab or quote (a Tcl `"\r"` or a Windows share `\\fs01\x` alone is not), and no more
 * lines than escaped newlines (a source file whose string literals hold `\n` has its own lines:
 * decoding it would only cost a second reading) unless it holds an escaped object's marks. A
 * backslash before anything else is kept.
 */
export const jsonStep: Step = (text) => {
  if (!text.includes("\\n") && !text.includes("\\t") && !text.includes('\\"')) return null;
  const lines = count(text, "\n", 1 << 30);
  // An escaped JSON object's own marks (`{\"` or `\":`) tell it apart from a source file's string
  // literals even with lines of its own around it (a writer's words before a logged event).
  if (lines > 0 && count(text, "\\n", lines) < lines && !text.includes('{\\"') && !text.includes('\\":')) return null;
  const b = new Builder();
  let at = 0;
  let changed = false;
  for (let i = 0; i < text.length - 1; i++) {
    if (text[i] !== "\\") continue;
    const c = text[i + 1]!;
    const simple = JSON_ESCAPES[c];
    let decoded: string | undefined;
    let len = 2;
    if (simple !== undefined) decoded = simple;
    else if (c === "u" && HEX4.test(text.slice(i + 2, i + 6))) {
      decoded = String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
      len = 6;
    }
    if (decoded === undefined) {
      i += 1;
      continue;
    }
    copy(b, text, at, i);
    b.push(decoded, i, i + len);
    at = i + len;
    i += len - 1;
    changed = true;
  }
  if (!changed) return null;
  copy(b, text, at, text.length);
  return b;
};

/** Drops each character of a run `drop(text, i)` says to drop ([i, end) of it), or null when there is none. */
function dropRuns(text: string, first: number, next: (text: string, from: number) => number, runEnd: (text: string, i: number) => number): Builder | null {
  if (first < 0) return null;
  const b = new Builder();
  let at = 0;
  for (let i = first; i >= 0; i = next(text, at)) {
    const e = runEnd(text, i);
    if (e <= i) {
      copy(b, text, at, i + 1);
      at = i + 1;
      continue;
    }
    copy(b, text, at, i);
    at = e;
  }
  copy(b, text, at, text.length);
  return b.out === text ? null : b;
}

/** CR before LF dropped. */
export const crStep: Step = (text) =>
  dropRuns(text, text.indexOf("\r\n"), (t, from) => t.indexOf("\r\n", from), (_t, i) => i + 1);

/** ANSI CSI sequences (`ESC [ params letter`: colours, cursor moves) dropped. */
export const ansiStep: Step = (text) =>
  dropRuns(
    text,
    text.indexOf("\x1b["),
    (t, from) => t.indexOf("\x1b[", from),
    (t, i) => {
      let j = i + 2;
      while (j < t.length && /[0-9;?]/.test(t[j]!)) j++;
      return j < t.length && /[A-Za-z]/.test(t[j]!) ? j + 1 : i;
    },
  );

const ENTITIES: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'", "#39": "'", "#x27": "'", "#34": '"', "#x22": '"' };

/** A numeric character reference's printable ASCII character, newline or tab (`#43` or `#x2F` -> `+`, `/`: a wiki's export of a key); undefined otherwise. */
function numericEntity(name: string): string | undefined {
  if (name.charCodeAt(0) !== 0x23 || name.length < 2) return undefined;
  const hex = name[1] === "x" || name[1] === "X";
  const digits = name.slice(hex ? 2 : 1);
  if (digits.length === 0 || !(hex ? /^[0-9A-Fa-f]+$/ : /^[0-9]+$/).test(digits)) return undefined;
  const code = parseInt(digits, hex ? 16 : 10);
  return (code >= 0x20 && code <= 0x7e) || code === 0x0a || code === 0x09 ? String.fromCharCode(code) : undefined;
}

/** The HTML entities of quoting (`&quot;`, `&amp;`, `&lt;`, `&gt;`, the apostrophe's) and numeric references of printable ASCII decoded. */
export const htmlStep: Step = (text) => {
  let i = text.indexOf("&");
  if (i < 0 || !text.includes(";", i)) return null;
  const b = new Builder();
  let at = 0;
  for (; i >= 0; i = text.indexOf("&", i + 1)) {
    const semi = text.indexOf(";", i);
    if (semi < 0 || semi - i > 6) continue;
    const name = text.slice(i + 1, semi);
    const decoded = ENTITIES[name] ?? numericEntity(name);
    if (decoded === undefined) continue;
    copy(b, text, at, i);
    b.push(decoded, i, semi + 1);
    at = semi + 1;
  }
  if (at === 0) return null;
  copy(b, text, at, text.length);
  return b;
};

const HEX2 = /^[0-9A-Fa-f]{2}$/;

/** Percent-escapes of printable ASCII decoded (a value URL-encoded into a query or a form). */
export const percentStep: Step = (text) => {
  let i = text.indexOf("%");
  if (i < 0) return null;
  const b = new Builder();
  let at = 0;
  for (; i >= 0 && i < text.length - 2; i = text.indexOf("%", i + 1)) {
    const hex = text.slice(i + 1, i + 3);
    if (!HEX2.test(hex)) continue;
    const code = parseInt(hex, 16);
    if (code < 0x20 || code > 0x7e) continue;
    copy(b, text, at, i);
    b.push(String.fromCharCode(code), i, i + 3);
    at = i + 3;
  }
  if (at === 0) return null;
  copy(b, text, at, text.length);
  return b;
};

/**
 * A value's token between `&quot;` entities: eight characters or more, none a space, an entity's
 * `&` or a quote, a letter and a digit among them (a value, not a word or a JSON key), not followed
 * by a key's `:`.
 */
const QUOTED_TOKEN = /&quot;((?=[^\s&"';<>]*\d)(?=[^\s&"';<>]*[A-Za-z])[^\s&"';<>]{8,})&quot;(?!\s*:)/g;

/**
 * The `&quot;` entities around a token dropped (`key=&quot;ab12…&quot;` -> `key=ab12…`): a value
 * an HTML export put between quotes where it stood bare, which the rules read only in the quoted
 * places they know. A view of its own, beside the decoded one (text-views.ts), so the quotes a
 * rule needs stay there.
 */
export const unquoteStep: Step = (text) => {
  if (!text.includes("&quot;")) return null;
  const b = new Builder();
  let at = 0;
  QUOTED_TOKEN.lastIndex = 0;
  for (let m = QUOTED_TOKEN.exec(text); m !== null; m = QUOTED_TOKEN.exec(text)) {
    copy(b, text, at, m.index);
    copy(b, text, m.index + 6, m.index + 6 + m[1]!.length);
    at = m.index + m[0].length;
  }
  if (at === 0) return null;
  copy(b, text, at, text.length);
  return b;
};
