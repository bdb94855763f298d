import type { Exchange } from "../../schemas/exchange.js";
import type { FeatureSpec } from "../schemas.js";
import type { SignalSource } from "./signals.js";

/**
 * Features of an exchange for the embedded lane: hashed word and character n-grams of the
 * prompt, of the end of the reply and of the tool calls, each field in its own namespace,
 * plus a few shape indicators and the capture classifier's signals. Each block (prompt,
 * reply, tools, shape, signals) is scaled to unit L2 norm so that no field drowns another.
 * Hash: FNV-1a over UTF-16 code units with a murmur3 finaliser, masked to `bits`.
 *
 * Example: `extractFeatures(ex, DEFAULT_FEATURES, null).idx.length` -> ~900 for a 100-character
 * prompt after a 300-character reply; the same exchange always gives the same vector.
 */
export const DEFAULT_FEATURES: FeatureSpec = {
  version: "features/1",
  bits: 18,
  wordNgrams: [1, 2],
  charNgrams: [3, 4],
  replyEndChars: 300,
  captureSignals: true,
};

export interface FeatureVector {
  idx: Int32Array;
  val: Float64Array;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function feed(h: number, s: string, from = 0, to = s.length): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h;
}

function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

/** A block of counts under one namespace. */
class Block {
  readonly counts = new Map<number, number>();
  constructor(private readonly mask: number) {}
  add(h: number): void {
    const j = fmix(h) & this.mask;
    this.counts.set(j, (this.counts.get(j) ?? 0) + 1);
  }
  token(ns: string, token: string): void {
    this.add(feed(feed(FNV_OFFSET, ns), token));
  }
  wordNgrams(ns: string, toks: readonly string[], ns_: readonly number[]): void {
    for (const n of ns_) {
      const seed = feed(feed(FNV_OFFSET, ns), `w${n}:`);
      for (let i = 0; i + n <= toks.length; i++) {
        let h = seed;
        for (let k = 0; k < n; k++) {
          if (k > 0) h = Math.imul(h ^ 0x20, FNV_PRIME);
          h = feed(h, toks[i + k] as string);
        }
        this.add(h);
      }
    }
  }
  charNgrams(ns: string, text: string, ns_: readonly number[]): void {
    const t = ` ${text.toLowerCase().replace(/\s+/g, " ").trim()} `;
    for (const n of ns_) {
      const seed = feed(feed(FNV_OFFSET, ns), `c${n}:`);
      for (let i = 0; i + n <= t.length; i++) this.add(feed(seed, t, i, i + n));
    }
  }
}

function lengthBucket(n: number): number {
  return n <= 0 ? 0 : Math.min(12, Math.floor(Math.log2(n)) + 1);
}

function overlapBucket(a: readonly string[], b: readonly string[]): string {
  if (a.length === 0 || b.length === 0) return "none";
  const sa = new Set(a);
  const sb = new Set(b);
  let inter = 0;
  for (const x of sa) if (sb.has(x)) inter++;
  const j = inter / (sa.size + sb.size - inter);
  return j >= 0.6 ? "high" : j >= 0.3 ? "mid" : j > 0 ? "low" : "zero";
}

/** The text of the reply's end the features read. */
export function replyTail(ex: Exchange, spec: FeatureSpec): string {
  const r = ex.reply_end ?? "";
  return r.length > spec.replyEndChars ? r.slice(r.length - spec.replyEndChars) : r;
}

export function extractFeatures(ex: Exchange, spec: FeatureSpec, signals: SignalSource | null): FeatureVector {
  const mask = (1 << spec.bits) - 1;
  const blocks: Block[] = [];
  const promptWords = words(ex.prompt);

  const p = new Block(mask);
  p.wordNgrams("p:", promptWords, spec.wordNgrams);
  p.charNgrams("p:", ex.prompt, spec.charNgrams);
  blocks.push(p);

  const tail = replyTail(ex, spec);
  if (tail !== "") {
    const r = new Block(mask);
    r.wordNgrams("r:", words(tail), spec.wordNgrams);
    r.charNgrams("r:", tail, spec.charNgrams);
    blocks.push(r);
  }

  if (ex.tool_calls.length > 0) {
    const t = new Block(mask);
    for (const call of ex.tool_calls) {
      t.token("t:name:", call.name);
      t.wordNgrams("t:", words(call.summary), spec.wordNgrams);
    }
    blocks.push(t);
  }

  const m = new Block(mask);
  const trimmed = ex.prompt.trim();
  const letters = trimmed.replace(/[^\p{L}]/gu, "");
  const upper = letters.replace(/[^\p{Lu}]/gu, "");
  m.token("m:", ex.reply_end === null ? "first_turn" : "has_reply");
  m.token("m:len:", String(lengthBucket(trimmed.length)));
  m.token("m:tools:", String(ex.tool_calls.length));
  if (trimmed.endsWith("?")) m.token("m:", "ends_q");
  if (trimmed.includes("!")) m.token("m:", "excl");
  if (letters.length >= 4 && upper.length * 2 >= letters.length) m.token("m:", "caps");
  m.token("m:repeat:", ex.previous_ask === null ? "no_prev" : overlapBucket(promptWords, words(ex.previous_ask)));
  blocks.push(m);

  if (spec.captureSignals && signals !== null) {
    const v = signals(ex.prompt);
    const s = new Block(mask);
    s.token("s:kind:", v.kind);
    s.token("s:frustration:", v.frustration === null ? "null" : String(v.frustration));
    for (const name of v.signals) s.token("s:", name);
    blocks.push(s);
  }

  let nnz = 0;
  for (const b of blocks) nnz += b.counts.size;
  const idx = new Int32Array(nnz);
  const val = new Float64Array(nnz);
  let k = 0;
  for (const b of blocks) {
    let ss = 0;
    for (const c of b.counts.values()) ss += c * c;
    const scale = ss > 0 ? 1 / Math.sqrt(ss) : 0;
    for (const [j, c] of b.counts) {
      idx[k] = j;
      val[k++] = c * scale;
    }
  }
  return { idx, val };
}
