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
import type { Step } from "./view-build.js";
import { ansiStep, crStep, htmlStep, jsonStep, percentStep, unquoteStep } from "./view-decode.js";
import { gutterStep, joinStep, jsonLinesStep, tableStep } from "./view-lines.js";
import { backspaceStep, eventStep, markdownEscapeStep, wordDiffStep } from "./view-marks.js";
import { T_AMP, T_BS, T_CR, T_ESC, T_EVENT, T_GUTTER, T_JOIN, T_JSON_ESCAPE, T_MD_ESCAPE, T_NL, T_OBJECT, T_PCT, T_WORDDIFF, triggers } from "./view-triggers.js";

export interface TextView {
  text: string;
  /** Per character of `text`: where it starts in the original. */
  start: Int32Array;
  /** Per character of `text`: where it ends in the original (exclusive). */
  end: Int32Array;
}

/**
 * The decoding steps in order, each with the trigger it needs (view-triggers.ts; 0: read from
 * the text's first character): a stream's events read as one text first, JSON twice (a tool
 * result escaped inside a transcript line escaped again), a terminal's marks, then entities,
 * escapes and a table.
 */
const DECODE: ReadonlyArray<readonly [Step, number]> = [
  [eventStep, T_EVENT],
  [jsonStep, T_JSON_ESCAPE],
  [jsonStep, T_JSON_ESCAPE],
  [crStep, T_CR],
  [ansiStep, T_ESC],
  [backspaceStep, T_BS],
  [htmlStep, T_AMP],
  [percentStep, T_PCT],
  [markdownEscapeStep, T_MD_ESCAPE],
  [wordDiffStep, T_WORDDIFF],
  [tableStep, 0],
];

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
 * The views of `text`: a markdown table's decoded rows (when another step decoded them) before
 * it is read by column; the decoded text; the same with its lines' shared gutter dropped; the
 * decoded text with wrapped lines joined. Each is a view of its own only where its step changes the one
 * before, so that a step read wrongly (a vm.args file's `-name`/`+K` lines taken for a diff's
 * gutter, a heredoc's lines glued) does not hide what the one before shows. A JSON text's prose
 * values are put on lines of their own in each (in the joined one after the join). None when no
 * step changes the text.
 */
export function viewsOf(text: string): TextView[] {
  const seen = recent.get(text);
  if (seen !== undefined) return seen;
  const views = buildViews(text);
  // A writer asks for a text's views twice or more (the pre-filter's check, then the redaction), other texts between.
  if (recent.size >= RECENT) recent.clear();
  recent.set(text, views);
  return views;
}

/** The last texts asked for and their views (a capture's dozen texts), cleared when full. */
const recent = new Map<string, TextView[]>();
const RECENT = 16;

function buildViews(text: string): TextView[] {
  const written = triggers(text);
  let t = written;
  // One pass said no step has its trigger here (a newline alone is none): no view, nothing else run.
  if ((t & ~T_NL) === 0 && text.charCodeAt(0) !== 0x7c) return [];
  let decoded: TextView | null = null;
  // The decoded rows before a table is read by column: a view of its own (a rule reads a row's name beside its value).
  let rows: TextView | null = null;
  for (const [step, need] of DECODE) {
    if (need !== 0 && (t & need) === 0) continue;
    if (need === 0 && (decoded === null ? text : decoded.text).charCodeAt(0) !== 0x7c) continue;
    const next = apply(text, decoded, step);
    if (next === null) continue;
    if (step === tableStep) rows = decoded;
    decoded = next;
    // A decoded escape can bring a trigger of its own (`\\u001b`, `\\r`).
    t = triggers(decoded.text);
  }
  // The gutter is read after a JSON text's values are on lines of their own (a diff in a tool
  // result); the wrap before, and without the gutter (a value put on its own line changes its
  // row's length; a terminal's continuation rows carry no gutter).
  const lined = (t & T_OBJECT) !== 0 ? (apply(text, decoded, jsonLinesStep) ?? decoded) : decoded;
  const lt = lined === decoded ? t : triggers(lined!.text);
  const gutter = (lt & T_GUTTER) !== 0 ? apply(text, lined, gutterStep) : null;
  const wrapped = (t & T_JOIN) !== 0 ? apply(text, decoded, joinStep) : null;
  const joined = wrapped === null ? null : (apply(text, wrapped, jsonLinesStep) ?? wrapped);
  // A token between quoting entities, unquoted: a view of its own (the decoded one keeps the quotes).
  const unquoted = (written & T_AMP) !== 0 ? apply(text, null, unquoteStep) : null;
  const out: TextView[] = [];
  for (const x of [rows, lined, gutter, joined, unquoted]) if (x !== null && x.text !== text && !out.some((o) => o.text === x.text)) out.push(x);
  return out;
}
