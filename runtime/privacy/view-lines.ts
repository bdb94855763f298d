/**
 * The views' line steps (text-views.ts): a shared gutter dropped, a markdown table read by
 * column, lines a terminal wrapped or a shell continuation split joined, a JSON text's prose
 * values on lines of their own. Each looks at a text only when its first characters or its
 * length allow it.
 *
 * Example: `gutterStep("+a=1\n+b=2")!.out` -> `"a=1\nb=2"`.
 */
import { Builder, copy, type Step } from "./view-build.js";
import { isSpace, WRAP_MIN } from "./view-triggers.js";

const VALUE_OPEN = /:\s*"/g;
const VALUE_END = /\s*(?:[}\]]|,\s*"[^"\n]{0,80}"\s*:)/y;

/**
 * A JSON text's string values that hold a space, a newline or an `=` (a tool's output, a
 * message, an assignment: not an id or a key) each on lines of their own: a newline after the opening quote and before the
 * closing one, so a rule reading a line's start (`kinit … <<EOF`) or a sentence's end reads the
 * value as the tool printed it, not after `{"content":"`.
 */
export const jsonLinesStep: Step = (text) => {
  if (!startsJson(text)) return null;
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
    if (value.includes(" ") || value.includes("\n") || value.includes("=")) {
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

/**
 * Whether `text` is a JSON text: its first character past whitespace opens an object or an array
 * (`/^\s*[{[]/`, told without a pattern), or an object opens after a writer's own words on the
 * first line ("please deploy it: {"type":…") or at the start of the second ("notes\n{"type":…").
 */
function startsJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x5b) return true;
    if (!isSpace(c)) break;
  }
  const brace = text.indexOf('{"');
  if (brace <= 0) return false;
  const first = lineEnd(text, 0);
  // On the first line after words, or opening the second (a writer's line of its own before it).
  return brace < first || (brace === first + 1 + leadingSpace(text, first + 1) && brace < lineEnd(text, first + 1));
}

function leadingSpace(text: string, from: number): number {
  let n = 0;
  while (from + n < text.length && (text.charCodeAt(from + n) === 0x20 || text.charCodeAt(from + n) === 0x09)) n++;
  return n;
}

function lineEnd(text: string, from: number): number {
  const nl = text.indexOf("\n", from);
  return nl < 0 ? text.length : nl;
}

/**
 * Gutters a whole text's lines can share, each tried in order: a log line's timestamp and level,
 * a markdown quote, a list's bullet, a diff's column (at least one line `+` or `-`), an indent
 * (the whitespace every line starts with: a diff's context lines, a tab). A gutter is dropped
 * only when every non-empty line but the first (and the last of three or more) has one; a
 * diff's or a bullet's only when there are two such lines or more ("-p secret" alone is a flag,
 * not a removed line), but for a diff of added lines alone.
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

export const gutterStep: Step = (text) => {
  const nl = text.indexOf("\n");
  if (!GUTTER_FIRST.test(text) && (nl < 0 || !GUTTER_FIRST.test(text.slice(nl + 1, nl + 3)))) return null;
  const lines = text.split("\n");
  for (const g of GUTTERS) {
    const cut: number[] = [];
    let having = 0;
    let ok = true;
    for (let k = 0; k < lines.length && ok; k++) {
      const m = lines[k] === "" ? null : g.re.exec(lines[k]!);
      // The first line may lack it (a writer puts its own words before the text, "please deploy
      // it: "), and so may the last of three or more (a JSON value's closing `"}`).
      if (m === null && lines[k] !== "" && k > 0 && !(k === lines.length - 1 && k >= 2)) ok = false;
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
export const tableStep: Step = (text) => {
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

const GUTTER_MARK = /^[>+\-|*#•]+ ?/;

/**
 * Whether two rows start alike, with the same gutter (`> `, `+`, `| `) or the same first four
 * characters (a log's timestamp): a quoted, diffed or logged block's lines, not a row and its
 * wrapped rest (whose start is the middle of a token).
 */
function sameGutter(a: string, b: string): boolean {
  const m = GUTTER_MARK.exec(a);
  return (m !== null && b.startsWith(m[0])) || (a.length >= 4 && b.startsWith(a.slice(0, 4)));
}

/** A terminal's narrowest plausible width: a shorter line is no wrap. */
const MIN_WRAP_WIDTH = WRAP_MIN;

/**
 * A line's end, or a line's start, that is a word of prose, a table's heading or a CamelCase
 * name (`import ProjectTracker`), not a piece of a cut token (whose letters change case at random).
 */
const WORD_AT_END = /(?:^|\s)(?:[A-Za-z][a-z]*|[A-Z]+|(?:[A-Z][a-z]+)+)$/;
const WORD_AT_START = /^(?:[A-Za-z][a-z]*|[A-Z]+|(?:[A-Z][a-z]+)+)(?:[\s:,;.!?)]|$)/;
/** A row that ends in another character than a token's is no cut token (a marker's `]`, a closing quote); the next row may start with any (a list's `, 133]`). */
const CUT_TOKEN_END = /[A-Za-z0-9+/=_.~-]$/;
const CUT_TOKEN_START = /^\S/;
/** An editor's mark at the start of a wrapped row's rest (vim's `showbreak`, an arrow, after the number column's indent). */
const WRAP_MARK = /^[ \t]*[\u21aa\u21b3\u2937] ?/;

/**
 * Lines joined where a shell continuation (`\` then a newline) or a terminal's wrap split them.
 * A wrap is read from its trace: a terminal cuts every line at its width, so a wrapped row is
 * at least MIN_WRAP_WIDTH long and as long as any row after it (no later line is longer than
 * the width), and rows of one length to the end are a table's; the row ends in a token's
 * character and the next starts with no space, and neither side of it is a word (a word ending a row of prose or a heading, one starting the
 * next row, is no token cut in two). A row whose rest starts with an editor's wrap mark (vim's
 * `showbreak`, `↪ ` after the number column's indent) is joined to it, the mark dropped.
 */
export const joinStep: Step = (text) => {
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
  const marked = text.includes("\u21aa") || text.includes("\u21b3") || text.includes("\u2937");
  let at = 0;
  for (let k = 0; k < lines.length - 1; k++) {
    const l = lines[k]!;
    const next = lines[k + 1]!;
    const end = at + l.length;
    // A row before a wrap mark may be shorter than a terminal's width once decoded (`%40` read as `@`).
    const mark = marked && l.length > 0 ? WRAP_MARK.exec(next) : null;
    if (l.endsWith("\\")) drop.push([end - 1, end + 1]);
    // The mark says the row was cut at the width, wherever it fell (after a space too: `69, ↪ 131`).
    else if (mark !== null) drop.push([end, end + 1 + mark[0].length]);
    else if (wrapped(k) && CUT_TOKEN_END.test(l) && CUT_TOKEN_START.test(next) && !sameGutter(l, next) && !WORD_AT_END.test(l) && !WORD_AT_START.test(next)) drop.push([end, end + 1]);
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
