/**
 * The redaction of a text's view (text-views.ts) carried back to the text (issue 34,
 * metamorphic): a secret the rules find once the text's JSON escapes, terminal colours, HTML
 * entities, diff gutter or terminal wrap are undone is replaced where it stands in the text as
 * written, over the whole original span of its characters (the escapes inside it, the newline
 * of a wrap). Only adds: what the text's own redaction replaced stays replaced.
 *
 * The view's redaction gives a text, not spans (the engine replaces as it goes): the spans are
 * read back by aligning the view with its redaction. The redaction is the view with some
 * disjoint, non-empty runs replaced by markers, so the text between two markers is found in
 * the view at its first place after the previous run; where that reading does not fit (it
 * cannot end on the view's own end), everything from the first to the last character that
 * differs is taken as one run, which may take more than the secret, never less.
 *
 * Example: `redactThroughViews({ text: 'x "K=\\"ab12…\\""', kinds: [] }, redact)` replaces the
 * escaped value, `\\"` included, by the marker the rules give `K="ab12…"` in the view.
 */
import type { Redaction } from "./engine.js";
import { applySpans, type Span } from "./spans.js";
import { viewsOf, type TextView } from "./text-views.js";

const MARKER = /\[REDACTED:[a-z0-9-]+\]/g;

interface Run {
  start: number;
  end: number;
  kind: string;
}

/** The runs of `view` its redaction `out` replaced, by alignment (see above); null when the reading does not fit. */
export function replacedRuns(view: string, out: string): Run[] | null {
  const marks = [...out.matchAll(MARKER)];
  const runs: Run[] = [];
  let o = 0;
  let v = 0;
  for (let k = 0; k < marks.length; k++) {
    const m = marks[k]!;
    const seg = out.slice(o, m.index);
    // The text before a marker: at the view's `v` for the first, at its first place after the previous run's start otherwise.
    const at = k === 0 ? (view.startsWith(seg) ? 0 : -1) : view.indexOf(seg, v);
    if (at < 0) return null;
    if (k > 0) runs[runs.length - 1]!.end = at;
    v = at + seg.length;
    runs.push({ start: v, end: -1, kind: m[0].slice(10, -1) });
    o = m.index + m[0].length;
    v += 1;
  }
  if (runs.length === 0) return [];
  const tail = out.slice(o);
  const last = runs[runs.length - 1]!;
  if (!view.endsWith(tail) || view.length - tail.length <= last.start) return null;
  last.end = view.length - tail.length;
  return runs.filter((r) => r.end > r.start && view.slice(r.start, r.end) !== `[REDACTED:${r.kind}]`);
}

/** Everything between the first and the last character `out` changed in `view`, as one run of the first marker's kind. */
function changedRun(view: string, out: string): Run {
  let a = 0;
  while (a < view.length && a < out.length && view[a] === out[a]) a++;
  let z = 0;
  while (z < view.length - a && z < out.length - a && view[view.length - 1 - z] === out[out.length - 1 - z]) z++;
  const kind = /\[REDACTED:([a-z0-9-]+)\]/.exec(out)?.[1] ?? "secret";
  return { start: a, end: view.length - z, kind };
}

/** The runs `out` replaced in `view`, mapped to the text the view was made from. */
function spansInText(text: string, v: TextView, out: string): Span[] {
  const runs = replacedRuns(v.text, out) ?? [changedRun(v.text, out)];
  return runs.map((r, rank) => ({ start: v.start[r.start]!, end: pastColours(text, v.end[r.end - 1]!), rank, kind: r.kind }));
}

const CSI_AT = /\x1b\[[0-9;?]*[A-Za-z]/y;

/**
 * `end` moved past the terminal codes that follow it in `text` (a colour's reset): a marker
 * followed by `\x1b[0m` left the code to be read as the value after it on a second redaction
 * (`-u [REDACTED:…]\x1b[0m` took the code for a password). The marker takes the code with it.
 */
function pastColours(text: string, end: number): number {
  for (;;) {
    CSI_AT.lastIndex = end;
    if (text.charCodeAt(end) !== 0x1b || !CSI_AT.test(text)) return end;
    end = CSI_AT.lastIndex;
  }
}

/**
 * `r`, the redaction of `text` without views, with what `redact` (the same redaction) finds in
 * the text's views replaced too. The views are made of the text as written (a marker would
 * change a wrapped line's length), and every redaction's runs are joined on it. No view, or
 * nothing found in one: `r`.
 */
export function redactThroughViews(text: string, r: Redaction, redact: (text: string) => Redaction): Redaction {
  const views = viewsOf(text);
  if (views.length === 0) return r;
  const fromViews: Span[] = [];
  for (const v of views) {
    const out = redact(v.text);
    if (out.kinds.length > 0) fromViews.push(...spansInText(text, v, out.text));
  }
  if (fromViews.length === 0) return r;
  const own = r.text === text ? [] : (replacedRuns(text, r.text) ?? [changedRun(text, r.text)]);
  return withFound(text, r, own, fromViews);
}

/**
 * `r`, the redaction of `text`, with the spans `found` by another reading (a view, an assembled
 * value) replaced too: `own` (r's runs on `text`) first, so each joined run keeps r's kind.
 */
export function withFound(text: string, r: Redaction, own: readonly Run[], found: readonly Span[]): Redaction {
  const spans: Span[] = [...own.map((o, rank) => ({ ...o, rank })), ...found.map((s, i) => ({ ...s, rank: own.length + i }))];
  const applied = applySpans(text, spans);
  if (applied.text === r.text) return r;
  const at = (k: string): number => applied.text.indexOf(`[REDACTED:${k}]`);
  return { text: applied.text, kinds: [...new Set([...r.kinds, ...applied.kinds])].sort((a, b) => at(a) - at(b)) };
}

/** Whether `text` has a view that `cleared` (the pre-filter) does not clear. */
export function viewNotCleared(text: string, cleared: (view: string) => boolean): boolean {
  return viewsOf(text).some((v) => !cleared(v.text));
}
