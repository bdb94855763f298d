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
