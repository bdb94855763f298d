/**
 * Metamorphic transforms of a text holding a secret (issue 34): what a coding session does to
 * a text between the place a secret was typed and the place Errata reads it. Each transform
 * takes the text and the secret as it stands there and gives the new text and the secret's
 * forms as they stand in it (its `parts`: one for a value escaped or coloured, the pieces on
 * each side of the break for a value wrapped), or null where it does not apply (no label before
 * the value to colour or re-case, no character a URL would encode). Seeded: a transform's
 * choices (a colour, a prefix, where a wrap falls) come from a PRNG seeded by the case's id and
 * the transform's name, so every run gives the same texts.
 *
 * Example: `TRANSFORMS.find((t) => t.name === "json-1")!.apply("A=x\nB=y", "x", rand)`
 * -> `{ text: '{"type":"tool_result","content":"A=x\\nB=y"}', parts: ["x"] }`.
 */
import { fnv1a32Utf16 } from "../../core/fnv1a.js";
import { mulberry32 } from "../../core/mulberry32.js";

export interface Transformed {
  text: string;
  /** The secret's forms in `text`: its whole (escaped, encoded) or, wrapped, its pieces in order. */
  parts: string[];
  /** The break between wrapped pieces as it stands in `text` ("\n", "\\\n"); absent when not wrapped. */
  joint?: string;
}
export interface Transform {
  name: string;
  /** Whether a look-alike kept must stay kept under it (it changes no value, only what surrounds it). */
  neutral: boolean;
  apply(text: string, secret: string, rand: () => number): Transformed | null;
}

/** The PRNG for one case under one transform. */
export const randFor = (id: string, transform: string): (() => number) => mulberry32(fnv1a32Utf16(`${id}\u0000${transform}`));

const ESC = "\x1b";
const COLOURS = ["31", "32", "33", "1;34", "36", "38;5;208"];
const pick = <T>(xs: readonly T[], rand: () => number): T => xs[Math.floor(rand() * xs.length)]!;
const sgr = (s: string, rand: () => number): string => `${ESC}[${pick(COLOURS, rand)}m${s}${ESC}[0m`;

/** The line of `text` around offset `at`: [start, end). */
function lineAround(text: string, at: number): [number, number] {
  const start = text.lastIndexOf("\n", at - 1) + 1;
  const nl = text.indexOf("\n", at);
  return [start, nl < 0 ? text.length : nl];
}

/** Every line of `text` with `f` applied (a line of a CRLF text keeps its CR). */
const eachLine = (text: string, f: (line: string, i: number) => string): string => text.split("\n").map(f).join("\n");

/** A label right before the value, `NAME=`, `name: "` ([start, end) of the name); a command's word before its argument is none. */
function labelBefore(text: string, at: number): [number, number] | null {
  const m = /([A-Za-z][A-Za-z0-9_.-]{1,40})(["']?\s*[:=]\s*["']?)$/.exec(text.slice(Math.max(0, at - 80), at));
  if (m === null) return null;
  const start = at - m[0].length;
  return [start, start + m[1]!.length];
}

function recaseLabel(text: string, secret: string, f: (label: string) => string): Transformed | null {
  const at = text.indexOf(secret);
  const l = labelBefore(text, at);
  if (l === null) return null;
  const label = text.slice(l[0], l[1]);
  const next = f(label);
  if (next === label) return null;
  return { text: text.slice(0, l[0]) + next + text.slice(l[1]), parts: [secret] };
}

/** A terminal narrower than this is not modelled (a wrap inside the secret needs the secret past it). */
const MIN_WIDTH = 60;

/**
 * The text as a terminal `width` columns wide shows it: every line longer than the width cut
 * every `width` columns (a hard wrap, the newline inside the token); null when no cut falls
 * inside the secret.
 */
function wrapAt(text: string, secret: string, width: number, joint: string): Transformed | null {
  const at = text.indexOf(secret);
  const inside: number[] = [];
  let out = "";
  let ls = 0;
  for (const line of text.split("\n")) {
    // Cuts every `width` visible columns: a colour code takes none.
    let col = 0;
    let from = 0;
    for (let i = 0; i < line.length; ) {
      const code = /^\x1b\[[0-9;]*m/.exec(line.slice(i, i + 16));
      if (code !== null) {
        i += code[0].length;
        continue;
      }
      if (col > 0 && col % width === 0) {
        out += line.slice(from, i) + joint;
        from = i;
        if (ls + i > at && ls + i < at + secret.length) inside.push(ls + i);
      }
      col++;
      i++;
    }
    out += line.slice(from) + "\n";
    ls += line.length + 1;
  }
  if (inside.length === 0) return null;
  const parts: string[] = [];
  let p = at;
  for (const c of inside) {
    parts.push(text.slice(p, c));
    p = c;
  }
  parts.push(text.slice(p, at + secret.length));
  return { text: out.slice(0, -1), parts, joint };
}

/** A terminal of the width that cuts the secret at a seeded column of it (between a third and two thirds), if that width is MIN_WIDTH or more. */
function wrapInside(text: string, secret: string, rand: () => number, joint: string): Transformed | null {
  if (secret.length < 8) return null;
  const at = text.indexOf(secret);
  const col = at - (text.lastIndexOf("\n", at - 1) + 1);
  const k = Math.floor(secret.length / 3 + rand() * (secret.length / 3));
  if (col + k < MIN_WIDTH) return null;
  return wrapAt(text, secret, col + k, joint);
}

/** A shell continuation (`\` and a newline) inside the secret at a seeded column of it: the shell joins the two. */
function wrapSplit(text: string, secret: string, rand: () => number, joint: string): Transformed | null {
  if (secret.length < 8) return null;
  const at = text.indexOf(secret);
  const k = Math.floor(secret.length / 3 + rand() * (secret.length / 3));
  return { text: text.slice(0, at + k) + joint + text.slice(at + k), parts: [secret.slice(0, k), secret.slice(k)], joint };
}

const jsonInner = (s: string): string => JSON.stringify(s).slice(1, -1);
const html = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const replaceAll = (text: string, a: string, b: string): string => text.split(a).join(b);

/** The secret with a typo erased inside it, as a terminal capture (script(1), a tmux log) keeps it: a letter, a backspace, a space, a backspace, at a seeded place. */
function erasedTypo(text: string, secret: string, rand: () => number): Transformed | null {
  if (secret.length < 8) return null;
  const k = 2 + Math.floor(rand() * (secret.length - 4));
  const typed = `${secret.slice(0, k)}${pick(["x", "q", "7", "k"], rand)}\b \b${secret.slice(k)}`;
  return { text: replaceAll(text, secret, typed), parts: [typed] };
}

/** The secret's printable characters other than letters and digits written as numeric character references (decimal or hex, seeded), as a wiki's or an editor's HTML export writes them; null when it holds none. */
function numericEntities(text: string, secret: string, rand: () => number): Transformed | null {
  const hex = rand() < 0.5;
  const e = secret.replace(/[!-/:-@[-`{-~]/g, (c) => (hex ? `&#x${c.charCodeAt(0).toString(16).toUpperCase()};` : `&#${c.charCodeAt(0)};`));
  return e === secret ? null : { text: replaceAll(text, secret, e), parts: [e] };
}

/** Every `_` and `*` of the text escaped with a backslash, as a Markdown export writes a name or a value holding them; null when the text holds none. */
function markdownEscaped(text: string, secret: string): Transformed | null {
  const esc = (s: string): string => s.replace(/[_*]/g, (c) => `\\${c}`);
  return esc(text) === text ? null : { text: esc(text), parts: [esc(secret)] };
}

/** The secret's line as a word diff shows a change of it: the secret removed and a reference added, or a reference removed and the secret added (seeded). */
function wordDiff(text: string, secret: string, rand: () => number): Transformed | null {
  const removed = rand() < 0.5;
  const ref = pick(["${VALUE}", "<changeme>", "vault:prod/key", "TODO"], rand);
  return { text: replaceAll(text, secret, removed ? `[-${secret}-]{+${ref}+}` : `[-${ref}-]{+${secret}+}`), parts: [secret] };
}

/**
 * The text as a model's reply streamed in server-sent events: one event a delta, the deltas cut
 * before and after the secret (the secret streamed alone) and at seeded places in the rest; the
 * event's shape one of two common ones, seeded.
 */
function eventStream(text: string, secret: string, rand: () => number): Transformed | null {
  const at = text.indexOf(secret);
  const cuts = new Set([at, at + secret.length]);
  for (let i = 0; i < 4; i++) {
    const c = Math.floor(rand() * text.length);
    if (c < at || c > at + secret.length) cuts.add(c);
  }
  const points = [0, ...[...cuts].filter((c) => c > 0 && c < text.length).sort((a, b) => a - b), text.length];
  const shape = rand() < 0.5;
  const event = (piece: string): string =>
    shape
      ? `data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":${JSON.stringify(piece)}}}`
      : `data: {"id":"chunk-1","object":"chunk","choices":[{"index":0,"delta":{"content":${JSON.stringify(piece)}},"finish_reason":null}]}`;
  const events: string[] = [];
  for (let i = 0; i + 1 < points.length; i++) if (points[i + 1]! > points[i]!) events.push(event(text.slice(points[i], points[i + 1])));
  return { text: `${events.join("\n\n")}\n\ndata: [DONE]`, parts: [jsonInner(secret)] };
}

const prefixed = (name: string, prefix: string): Transform => ({
  name,
  neutral: true,
  apply: (text, secret) => ({ text: eachLine(text, (l) => prefix + l), parts: [secret] }),
});

const BASE: readonly Transform[] = [
  { name: "ansi-value", neutral: false, apply: (t, s, r) => ({ text: replaceAll(t, s, sgr(s, r)), parts: [s] }) },
  {
    name: "ansi-label",
    neutral: false,
    apply: (t, s, r) => {
      const l = labelBefore(t, t.indexOf(s));
      return l === null ? null : { text: t.slice(0, l[0]) + sgr(t.slice(l[0], l[1]), r) + t.slice(l[1]), parts: [s] };
    },
  },
  {
    name: "ansi-line",
    neutral: true,
    apply: (t, s, r) => {
      const [a, b] = lineAround(t, t.indexOf(s));
      return { text: t.slice(0, a) + sgr(t.slice(a, b), r) + t.slice(b), parts: [s] };
    },
  },
  { name: "wrap-80", neutral: false, apply: (t, s) => wrapAt(t, s, 80, "\n") },
  { name: "wrap-100", neutral: false, apply: (t, s) => wrapAt(t, s, 100, "\n") },
  { name: "wrap-120", neutral: false, apply: (t, s) => wrapAt(t, s, 120, "\n") },
  { name: "wrap-inside", neutral: false, apply: (t, s, r) => wrapInside(t, s, r, "\n") },
  { name: "continuation", neutral: false, apply: (t, s, r) => wrapSplit(t, s, r, "\\\n") },
  { name: "wrap-mark", neutral: false, apply: (t, s, r) => wrapInside(t, s, r, pick(["\n\u21aa ", "\n    \u21aa "], r)) },
  { name: "backspace", neutral: false, apply: erasedTypo },
  {
    name: "json-1",
    neutral: true,
    apply: (t, s) => ({ text: `{"type":"tool_result","content":${JSON.stringify(t)}}`, parts: [jsonInner(s)] }),
  },
  {
    name: "json-2",
    neutral: true,
    apply: (t, s) => {
      const inner = `{"type":"tool_result","content":${JSON.stringify(t)}}`;
      return { text: `{"type":"user","message":${JSON.stringify(inner)}}`, parts: [jsonInner(jsonInner(s))] };
    },
  },
  {
    name: "url-encoded",
    neutral: false,
    apply: (t, s) => {
      const e = encodeURIComponent(s);
      return e === s ? null : { text: replaceAll(t, s, e), parts: [e] };
    },
  },
  { name: "html-quoted", neutral: false, apply: (t, s) => ({ text: replaceAll(t, s, `&quot;${s}&quot;`), parts: [s] }) },
  { name: "html-escaped", neutral: true, apply: (t, s) => ({ text: html(t), parts: [html(s)] }) },
  { name: "html-numeric", neutral: false, apply: numericEntities },
  { name: "markdown-escaped", neutral: true, apply: (t, s) => markdownEscaped(t, s) },
  { name: "word-diff", neutral: false, apply: wordDiff },
  { name: "event-stream", neutral: true, apply: eventStream },
  prefixed("diff-plus", "+"),
  prefixed("diff-minus", "-"),
  prefixed("diff-context", " "),
  prefixed("quote", "> "),
  prefixed("bullet", "- "),
  prefixed("tab-indent", "\t"),
  prefixed("log-prefix", "2026-12-07T10:00:00Z INFO "),
  {
    name: "table-pipes",
    neutral: true,
    apply: (t, s) => ({ text: eachLine(t, (l, i) => `| ${i + 1} | ${l} |`), parts: [s] }),
  },
  { name: "code-fence", neutral: true, apply: (t, s) => ({ text: "```\n" + t + "\n```", parts: [s] }) },
  { name: "crlf", neutral: true, apply: (t, s) => ({ text: replaceAll(t, "\n", "\r\n") + "\r\n", parts: [s] }) },
  { name: "label-upper", neutral: false, apply: (t, s) => recaseLabel(t, s, (l) => l.toUpperCase()) },
  { name: "label-lower", neutral: false, apply: (t, s) => recaseLabel(t, s, (l) => l.toLowerCase()) },
  {
    name: "label-capital",
    neutral: false,
    apply: (t, s) => recaseLabel(t, s, (l) => l.charAt(0).toUpperCase() + l.slice(1).toLowerCase()),
  },
];

/**
 * `second` after `first`, where `first` keeps the secret whole and contiguous (one part: a
 * colour, a prefix, CRLF), so `second` finds it; the parts are `second`'s. A session applies
 * several: a coloured line wrapped by the terminal, a diff inside a tool result.
 */
function then(first: string, second: string): Transform {
  const a = BASE.find((t) => t.name === first)!;
  const b = BASE.find((t) => t.name === second)!;
  return {
    name: `${first}+${second}`,
    neutral: a.neutral && b.neutral,
    apply: (t, s, rand) => {
      const x = a.apply(t, s, rand);
      if (x === null || x.parts.length !== 1 || x.parts[0] !== s) return null;
      return b.apply(x.text, s, rand);
    },
  };
}

export const TRANSFORMS: readonly Transform[] = [
  ...BASE,
  then("ansi-value", "wrap-80"),
  then("ansi-line", "log-prefix"),
  then("crlf", "json-1"),
  then("diff-plus", "json-1"),
  then("quote", "html-escaped"),
  then("tab-indent", "continuation"),
];

/**
 * How much of a transformed secret `out` still holds: "whole" when every part is there with
 * its joint, "partial" when a 12-character window of a part (past its literal `lead`) or, for
 * a wrapped secret, a piece of 4+ characters against its break is there, else null. A piece
 * against the break is specific (the break is one place in the text), so short pieces count.
 */
export function leakOf(out: string, t: Transformed, lead: number): "whole" | "partial" | null {
  const [whole, ...parts] = leakOfPieces(t, lead);
  if (out.includes(whole!)) return "whole";
  return parts.some((p) => out.includes(p)) ? "partial" : null;
}

/** The strings leakOf looks for in a text, the whole first (leak-find.ts searches many texts for them at once). */
export function leakOfPieces(t: Transformed, lead: number): string[] {
  const out = [t.parts.join(t.joint ?? "")];
  let offset = 0;
  for (let i = 0; i < t.parts.length; i++) {
    const p = t.parts[i]!;
    const from = Math.max(0, lead - offset);
    for (let k = 0; k + 12 <= p.length; k += 4) if (k + 12 > from) out.push(p.slice(k, k + 12));
    if (t.joint !== undefined) {
      const tail = p.slice(Math.max(from, p.length - 8));
      if (i + 1 < t.parts.length && tail.length >= 4) out.push(tail + t.joint);
      const head = p.slice(0, 8);
      if (i > 0 && head.length >= 4) out.push(t.joint + head);
    }
    offset += p.length;
  }
  return out;
}
