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
import { ansiStep, crStep, htmlStep, jsonStep, percentStep } from "./view-decode.js";
import { gutterStep, joinStep, jsonLinesStep, tableStep } from "./view-lines.js";

export interface TextView {
  text: string;
  /** Per character of `text`: where it starts in the original. */
  start: Int32Array;
  /** Per character of `text`: where it ends in the original (exclusive). */
  end: Int32Array;
}

/** The decoding steps in order; JSON twice (a tool result escaped inside a transcript line escaped again). */
const DECODE: readonly Step[] = [jsonStep, jsonStep, crStep, ansiStep, htmlStep, percentStep, tableStep];

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
 * The views of `text`: the decoded text; the same with its lines' shared gutter dropped; the
 * decoded text with wrapped lines joined. Each is a view of its own only where its step changes the one
 * before, so that a step read wrongly (a vm.args file's `-name`/`+K` lines taken for a diff's
 * gutter, a heredoc's lines glued) does not hide what the one before shows. A JSON text's prose
 * values are put on lines of their own in each (in the joined one after the join). None when no
 * step changes the text.
 */
export function viewsOf(text: string): TextView[] {
  let decoded: TextView | null = null;
  for (const step of DECODE) decoded = apply(text, decoded, step) ?? decoded;
  // The gutter is read after a JSON text's values are on lines of their own (a diff in a tool
  // result); the wrap before, and without the gutter (a value put on its own line changes its
  // row's length; a terminal's continuation rows carry no gutter).
  const lined = apply(text, decoded, jsonLinesStep) ?? decoded;
  const gutter = apply(text, lined, gutterStep);
  const wrapped = apply(text, decoded, joinStep);
  const joined = wrapped === null ? null : (apply(text, wrapped, jsonLinesStep) ?? wrapped);
  const out: TextView[] = [];
  for (const x of [lined, gutter, joined]) if (x !== null && x.text !== text && !out.some((o) => o.text === x.text)) out.push(x);
  return out;
}
