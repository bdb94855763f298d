/**
 * Findings to one redacted text: every rule's matches on a text are collected first (engine.ts),
 * then overlapping or adjacent spans are joined and each joined span is replaced once, so no
 * marker lands inside another and no rule's shorter match leaves the rest of a longer token in
 * clear (issue 34: a shorter rule replaced the start of a GitLab or Slack token and the rest
 * was written as it was). test/privacy/spans.test.ts checks, as fast-check properties, that no
 * character of any span survives and that markers already in the text are kept as they are.
 *
 * Example: `applySpans("a=XYZW9", [{start: 2, end: 5, rank: 0, kind: "k"}, {start: 4, end: 7, rank: 1, kind: "j"}])`
 * -> `{ text: "a=[REDACTED:k]", kinds: ["k"] }`.
 */

export interface Span {
  start: number;
  end: number;
  /** The finding's rule's place in the plan: of joined spans, the lowest rank names the marker. */
  rank: number;
  kind: string;
}

const MARKER = /\[REDACTED:[a-z0-9-]+\]/g;
/** Characters of a token's body: a span that stops inside a run of them stops inside a token. */
const TOKEN_CHAR = /[A-Za-z0-9_-]/;
/**
 * Joiners that continue a token when a token character follows them (a GitLab `.01.`, a base64
 * `+` or `/`); to the left only base64's (a `.` or `=` before a token is a name's: `cfg.key`,
 * `API_KEY=`). `=` is base64's padding, at the end only, so it joins nothing.
 */
const JOINER = /[.+/~]/;
const LEFT_JOINER = /[+/]/;

/** The markers already in `text`, as [start, end) ranges. */
export function markersIn(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (!text.includes("[REDACTED:")) return out;
  for (const m of text.matchAll(MARKER)) out.push([m.index, m.index + m[0].length]);
  return out;
}

/**
 * A span widened to the whole token it cuts: a rule whose pattern takes a fixed length
 * (gitleaks' `glpat-[\w-]{20}`) or a group of a longer token must not leave the token's rest.
 * Only a span whose edge falls between two token characters moves. `left` false: the start
 * stays (a URL's path segment starts after its "/", and the folders before it are no token).
 */
export function widenToToken(text: string, start: number, end: number, left = true): [number, number] {
  const tok = (i: number): boolean => i >= 0 && i < text.length && TOKEN_CHAR.test(text[i]!);
  const join = (i: number): boolean => i >= 0 && i < text.length && JOINER.test(text[i]!);
  const joinLeft = (i: number): boolean => i >= 0 && LEFT_JOINER.test(text[i]!);
  if (end > start && tok(end - 1)) {
    for (;;) {
      if (tok(end)) end++;
      else if (join(end) && tok(end + 1) && end > start) end += 2;
      else break;
    }
  }
  if (left && end > start && tok(start)) {
    for (;;) {
      if (tok(start - 1)) start--;
      else if (joinLeft(start - 1) && tok(start - 2)) start -= 2;
      else break;
    }
  }
  return [start, end];
}

/**
 * Spans joined where they overlap or touch, sorted, each carrying the lowest rank (and that
 * rank's kind) of those it joins. Spans of no length are dropped.
 */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.end > s.start).sort((a, b) => a.start - b.start || a.end - b.end);
  const out: Span[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last !== undefined && s.start <= last.end) {
      last.end = Math.max(last.end, s.end);
      if (s.rank < last.rank) [last.rank, last.kind] = [s.rank, s.kind];
    } else out.push({ ...s });
  }
  return out;
}

/** `spans` without the parts that lie on a marker already in the text: a marker is never cut or wrapped. */
function outsideMarkers(spans: readonly Span[], markers: ReadonlyArray<[number, number]>): Span[] {
  if (markers.length === 0) return [...spans];
  let rest = [...spans];
  for (const [ms, me] of markers) {
    const next: Span[] = [];
    for (const s of rest) {
      if (s.end <= ms || s.start >= me) next.push(s);
      else {
        if (s.start < ms) next.push({ ...s, end: ms });
        if (s.end > me) next.push({ ...s, start: me });
      }
    }
    rest = next;
  }
  return rest;
}

/** The text with each joined span replaced once by its marker; the kinds replaced, in text order, each once. */
export function applySpans(text: string, spans: readonly Span[]): { text: string; kinds: string[] } {
  const merged = mergeSpans(outsideMarkers(spans, markersIn(text)));
  const kinds: string[] = [];
  let out = "";
  let at = 0;
  for (const s of merged) {
    out += `${text.slice(at, s.start)}[REDACTED:${s.kind}]`;
    at = s.end;
    if (!kinds.includes(s.kind)) kinds.push(s.kind);
  }
  return { text: out + text.slice(at), kinds };
}
