/**
 * A text as a rule would read it before a coding session changed it (issue 34, metamorphic):
 * the same text with one level or two of JSON string escapes decoded (a tool result inside a
 * transcript line), CR before LF dropped, ANSI escape sequences (a terminal's colours) dropped,
 * HTML entities and percent-escapes decoded, a gutter every line shares (diff's `+`/`-`/` `,
 * markdown's `> `, a timestamp and level) dropped, and lines a terminal wrapped (or a shell's
 * `\` continuation split) joined. Each character of the view knows the span of the original it
 * came from, so a secret found in the view is replaced in the original (through-views.ts).
 *
 * Cheap when no trigger is there: each step first looks for its trigger with `includes` or one
 * pass over the lines, and no step compiles a regex on a text that does not need it (the
 * gutter's patterns are literals, compiled once at load). `viewsOf` is empty when no step changes
 * the text, which is the case for most texts.
 *
 * Example: `viewsOf("KEY=\x1b[32mab12\x1b[0m")[0]!.text` -> `"KEY=ab12"`, and the view's `start`
 * maps its index 4 to the original's 9.
 */

export interface TextView {
  text: string;
  /** Per character of `text`: where it starts in the original. */
  start: Int32Array;
  /** Per character of `text`: where it ends in the original (exclusive). */
  end: Int32Array;
}

/** One step's output: the new text and, per character, its [from, to) in the step's input. */
class Builder {
  out = "";
  from: number[] = [];
  to: number[] = [];
  push(s: string, a: number, b: number): void {
    for (let i = 0; i < s.length; i++) {
      this.from.push(a);
      this.to.push(b);
    }
    this.out += s;
  }
}

/** The input copied from `a` to `b`, each character mapped to itself. */
function copy(b: Builder, text: string, a: number, z: number): void {
  for (let i = a; i < z; i++) {
    b.from.push(i);
    b.to.push(i + 1);
  }
  b.out += text.slice(a, z);
}

type Step = (text: string) => Builder | null;

const JSON_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f" };
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * One level of JSON string escapes decoded, where the text shows it is JSON-escaped (an escaped
 * newline, tab or quote: a Tcl `"\r"` or a Windows share `\\fs01\x` alone is not); a backslash
 * before anything else is kept.
 */
const jsonStep: Step = (text) => {
  if (!text.includes("\\n") && !text.includes("\\t") && !text.includes('\\"')) return null;
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

const VALUE_OPEN = /:\s*"/g;
const VALUE_END = /\s*(?:[}\]]|,\s*"[^"\n]{0,80}"\s*:)/y;

/**
 * A JSON text's string values that hold a space or a newline (a tool's output, a message: not
 * an id or a key) each on lines of their own: a newline after the opening quote and before the
 * closing one, so a rule reading a line's start (`kinit … <<EOF`) or a sentence's end reads the
 * value as the tool printed it, not after `{"content":"`.
 */
const jsonLinesStep: Step = (text) => {
  if (!/^\s*[{[]/.test(text)) return null;
  const b = new Builder();
  let at = 0;
  VALUE_OPEN.lastIndex = 0;
  for (let m = VALUE_OPEN.exec(text); m !== null; m = VALUE_OPEN.exec(text)) {
    const open = m.index + m[0].length - 1;
    // Its closing quote: one that a JSON value's end follows (`}`, `]`, or `,` and the next key),
    // not one of the quotes a decoded value holds (`New("8f9a…", "0DFC…")`).
    let close = open + 1;
    for (; close < text.length; close++) {
      if (text[close] !== '"' || text[close - 1] === "\\") continue;
      VALUE_END.lastIndex = close + 1;
      if (close + 1 === text.length || VALUE_END.test(text)) break;
    }
    if (close >= text.length) break;
    const value = text.slice(open + 1, close);
    if (value.includes(" ") || value.includes("\n")) {
      copy(b, text, at, open + 1);
      b.push("\n", open, open + 1);
      copy(b, text, open + 1, close);
      b.push("\n", close, close + 1);
      at = close;
    }
    VALUE_OPEN.lastIndex = close + 1;
  }
  if (at === 0) return null;
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
const crStep: Step = (text) =>
  dropRuns(text, text.indexOf("\r\n"), (t, from) => t.indexOf("\r\n", from), (_t, i) => i + 1);

/** ANSI CSI sequences (`ESC [ params letter`: colours, cursor moves) dropped. */
const ansiStep: Step = (text) =>
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

/** The HTML entities of quoting (`&quot;`, `&amp;`, `&lt;`, `&gt;`, the apostrophe's) decoded. */
const htmlStep: Step = (text) => {
  let i = text.indexOf("&");
  if (i < 0 || !text.includes(";", i)) return null;
  const b = new Builder();
  let at = 0;
  for (; i >= 0; i = text.indexOf("&", i + 1)) {
    const semi = text.indexOf(";", i);
    if (semi < 0 || semi - i > 6) continue;
    const decoded = ENTITIES[text.slice(i + 1, semi)];
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
const percentStep: Step = (text) => {
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
 * Gutters a whole text's lines can share, each tried in order: a log line's timestamp and level,
 * a markdown quote, a list's bullet, a diff's column (at least one line `+` or `-`), an indent
 * (the whitespace every line starts with: a diff's context lines, a tab). A gutter is dropped
 * only when every non-empty line but the first has one; a diff's or a bullet's only when there
 * are two such lines or more ("-p secret" alone is a flag, not a removed line), but for a diff
 * of added lines alone.
 */
const INDENT = /^[ \t]+/;
const GUTTERS: ReadonlyArray<{ re: RegExp; need?: RegExp; lines: number }> = [
  { re: /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d(?:[.,]\d+)?)?(?:Z|[+-]\d\d:?\d\d)?\s+(?:\[?[A-Za-z]{3,8}\]?:?\s+)?/, lines: 1 },
  { re: /^(?:> ?)+/, lines: 1 },
  { re: /^\s*(?:[-*•]|\d{1,3}[.)])\s+/, lines: 2 },
  { re: /^[+\- ]/, need: /^[+-]/m, lines: 2 },
  { re: /^\+/, lines: 1 },
  { re: INDENT, lines: 1 },
];

/** The characters a gutter can start with (a stamp's digit, `>`, `+`, `-`, a space, a bullet, a tab): any other first character, no gutter. */
const GUTTER_FIRST = /^\n*[0-9>+\- *•\t]/;

const gutterStep: Step = (text) => {
  const nl = text.indexOf("\n");
  if (!GUTTER_FIRST.test(text) && (nl < 0 || !GUTTER_FIRST.test(text.slice(nl + 1, nl + 3)))) return null;
  const lines = text.split("\n");
  for (const g of GUTTERS) {
    const cut: number[] = [];
    let having = 0;
    let ok = true;
    for (let k = 0; k < lines.length && ok; k++) {
      const m = lines[k] === "" ? null : g.re.exec(lines[k]!);
      // The first line may lack it: a writer puts its own words before the text ("please deploy it: ").
      if (m === null && lines[k] !== "" && k > 0) ok = false;
      cut.push(m === null ? 0 : m[0].length);
      if (m !== null && m[0].length > 0) having++;
    }
    if (!ok || having < g.lines || (g.need !== undefined && !g.need.test(text))) continue;
    // An indent: only what every indented line has (a block's own indentation below it is kept).
    if (g.re === INDENT) {
      const least = Math.min(...cut.filter((c) => c > 0));
      for (let k = 0; k < cut.length; k++) if (cut[k]! > 0) cut[k] = least;
    }
    const b = new Builder();
    let at = 0;
    lines.forEach((l, k) => {
      if (k > 0) copy(b, text, at - 1, at);
      copy(b, text, at + cut[k]!, at + l.length);
      at += l.length + 1;
    });
    return b;
  }
  return null;
};

/**
 * A markdown table's rows (every non-empty line `| … |`) read by column: each column's cells top
 * to bottom, one a line, a blank line between columns, the pipes and one space either side of a
 * cell dropped. A code block shown in a table's column (a line number, then the line) is read
 * as the block it was.
 */
const tableStep: Step = (text) => {
  if (!text.startsWith("|")) return null;
  const lines = text.split("\n");
  if (!lines.every((l) => l === "" || /^\|.*\|\s*$/.test(l))) return null;
  // Per row, per cell: [start, end) in the text.
  const rows: Array<Array<[number, number]>> = [];
  let at = 0;
  for (const l of lines) {
    const cells: Array<[number, number]> = [];
    const body = l.replace(/\s*$/, "");
    let p = at + 1;
    for (const cell of body.split("|").slice(1, -1)) {
      const a = cell.startsWith(" ") ? 1 : 0;
      const z = cell.endsWith(" ") && cell.length > a ? 1 : 0;
      cells.push([p + a, p + cell.length - z]);
      p += cell.length + 1;
    }
    if (cells.length > 0) rows.push(cells);
    at += l.length + 1;
  }
  const width = Math.max(0, ...rows.map((r) => r.length));
  if (width === 0) return null;
  const b = new Builder();
  for (let c = 0; c < width; c++) {
    if (c > 0) b.push("\n\n", 0, 0);
    let first = true;
    for (const r of rows) {
      const cell = r[c];
      if (cell === undefined) continue;
      if (!first) b.push("\n", cell[0], cell[0]);
      copy(b, text, cell[0], cell[1]);
      first = false;
    }
  }
  return b;
};

/** A terminal's narrowest plausible width: a shorter line is no wrap. */
const MIN_WRAP_WIDTH = 60;

/**
 * A line's end, or a line's start, that is a word of prose, a table's heading or a CamelCase
 * name (`import ProjectTracker`), not a piece of a cut token (whose letters change case at random).
 */
const WORD_AT_END = /(?:^|\s)(?:[A-Za-z][a-z]*|[A-Z]+|(?:[A-Z][a-z]+)+)$/;
const WORD_AT_START = /^(?:[A-Za-z][a-z]*|[A-Z]+|(?:[A-Z][a-z]+)+)(?:[\s:,;.!?)]|$)/;
/** A row that ends in another character than a token's is no cut token (a marker's `]`, a closing quote); the next row may start with any (a list's `, 133]`). */
const CUT_TOKEN_END = /[A-Za-z0-9+/=_.~-]$/;
const CUT_TOKEN_START = /^\S/;

/**
 * Lines joined where a shell continuation (`\` then a newline) or a terminal's wrap split them.
 * A wrap is read from its trace: a terminal cuts every line at its width, so a wrapped row is
 * at least MIN_WRAP_WIDTH long and as long as any row after it (no later line is longer than
 * the width), and rows of one length to the end are a table's; the row ends in a token's
 * character and the next starts with no space, and neither side of it is a word (a word ending a row of prose or a heading, one starting the
 * next row, is no token cut in two).
 */
const joinStep: Step = (text) => {
  const nl = text.indexOf("\n");
  if (nl < 0 || (text.length < MIN_WRAP_WIDTH + 2 && !text.includes("\\\n"))) return null;
  const lines = text.split("\n");
  const drop: Array<[number, number]> = [];
  // Whether row k is a wrapped row: at least as long as every row after it, and not one of rows
  // of one length to the end (a table's). The first row may be longer than the width: a writer
  // puts its own words before the text.
  const after = new Int32Array(lines.length + 1);
  for (let k = lines.length - 1; k >= 0; k--) after[k] = Math.max(after[k + 1]!, lines[k]!.length);
  const wrapped = (k: number): boolean => {
    const len = lines[k]!.length;
    if (len < MIN_WRAP_WIDTH || after[k + 1]! > len || lines[k + 1]!.length === 0) return false;
    let j = k + 1;
    while (j < lines.length && lines[j]!.length === len) j++;
    return j < lines.length;
  };
  let at = 0;
  for (let k = 0; k < lines.length - 1; k++) {
    const l = lines[k]!;
    const next = lines[k + 1]!;
    const end = at + l.length;
    if (l.endsWith("\\")) drop.push([end - 1, end + 1]);
    else if (wrapped(k) && CUT_TOKEN_END.test(l) && CUT_TOKEN_START.test(next) && !WORD_AT_END.test(l) && !WORD_AT_START.test(next)) drop.push([end, end + 1]);
    at = end + 1;
  }
  if (drop.length === 0) return null;
  const b = new Builder();
  at = 0;
  for (const [s, e] of drop) {
    copy(b, text, at, s);
    at = e;
  }
  copy(b, text, at, text.length);
  return b;
};

/** The steps in order; JSON twice (a tool result escaped inside a transcript line escaped again). */
const STEPS: readonly Step[] = [jsonStep, jsonStep, crStep, ansiStep, htmlStep, percentStep, tableStep, gutterStep];

/** `v` (null: the text itself) with `step` applied, or null when the step changes nothing. */
function apply(text: string, v: TextView | null, step: Step): TextView | null {
  const b = step(v === null ? text : v.text);
  if (b === null) return null;
  const n = b.out.length;
  const s = new Int32Array(n);
  const e = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const f = b.from[i]!;
    const t = b.to[i]!;
    s[i] = v === null ? f : v.start[f]!;
    e[i] = v === null ? t : t > 0 ? v.end[t - 1]! : 0;
  }
  return { text: b.out, start: s, end: e };
}

/**
 * The views of `text`: the steps' view, and the same with wrapped lines joined when a wrap is
 * there (two views, not one: a join read wrongly, a heredoc's lines glued, must not hide what
 * the lines alone show). None when no step changes the text.
 */
export function viewsOf(text: string): TextView[] {
  let v: TextView | null = null;
  for (const step of STEPS) v = apply(text, v, step) ?? v;
  const joined = apply(text, v, joinStep);
  const out: TextView[] = [];
  for (const w of joined === null ? [v] : [v, joined]) {
    const x = apply(text, w, jsonLinesStep) ?? w;
    if (x !== null && x.text !== text) out.push(x);
  }
  return out;
}
