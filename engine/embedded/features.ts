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

/**
 * Hashed features under namespaces, collected into one growing buffer; each block is a
 * contiguous run of the buffer. Counting is a sort of the block's run (no Map, no per-feature
 * allocation: the embedded lane makes these for thousands of exchanges a second).
 */
class Collector {
  buf = new Int32Array(4096);
  len = 0;
  /** Start offsets of the blocks. */
  readonly starts: number[] = [];
  constructor(private readonly mask: number) {}
  begin(): void {
    this.starts.push(this.len);
  }
  add(h: number): void {
    if (this.len === this.buf.length) {
      const next = new Int32Array(this.buf.length * 2);
      next.set(this.buf);
      this.buf = next;
    }
    this.buf[this.len++] = fmix(h) & this.mask;
  }
  token(ns: string, token: string): void {
    this.add(feed(feed(FNV_OFFSET, ns), token));
  }
  wordNgrams(ns: string, toks: readonly string[], sizes: readonly number[]): void {
    for (const n of sizes) {
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
  charNgrams(ns: string, text: string, sizes: readonly number[]): void {
    const t = ` ${text.toLowerCase().replace(/\s+/g, " ").trim()} `;
    for (const n of sizes) {
      const seed = feed(feed(FNV_OFFSET, ns), `c${n}:`);
      for (let i = 0; i + n <= t.length; i++) this.add(feed(seed, t, i, i + n));
    }
  }
  /** Counts per block, each block scaled to unit L2 norm; indices ascending within a block. */
  finish(): FeatureVector {
    const bounds = [...this.starts, this.len];
    let distinct = 0;
    for (let b = 0; b + 1 < bounds.length; b++) {
      const run = this.buf.subarray(bounds[b] as number, bounds[b + 1] as number);
      run.sort();
      for (let i = 0; i < run.length; i++) if (i === 0 || run[i] !== run[i - 1]) distinct++;
    }
    const idx = new Int32Array(distinct);
    const val = new Float64Array(distinct);
    let k = 0;
    for (let b = 0; b + 1 < bounds.length; b++) {
      const from = bounds[b] as number;
      const to = bounds[b + 1] as number;
      const first = k;
      let ss = 0;
      for (let i = from; i < to; ) {
        let j = i + 1;
        while (j < to && this.buf[j] === this.buf[i]) j++;
        const c = j - i;
        idx[k] = this.buf[i] as number;
        val[k++] = c;
        ss += c * c;
        i = j;
      }
      const scale = ss > 0 ? 1 / Math.sqrt(ss) : 0;
      for (let q = first; q < k; q++) val[q] = (val[q] as number) * scale;
    }
    return { idx, val };
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
  const f = new Collector((1 << spec.bits) - 1);
  const promptWords = words(ex.prompt);

  f.begin();
  f.wordNgrams("p:", promptWords, spec.wordNgrams);
  f.charNgrams("p:", ex.prompt, spec.charNgrams);

  const tail = replyTail(ex, spec);
  if (tail !== "") {
    f.begin();
    f.wordNgrams("r:", words(tail), spec.wordNgrams);
    f.charNgrams("r:", tail, spec.charNgrams);
  }

  if (ex.tool_calls.length > 0) {
    f.begin();
    for (const call of ex.tool_calls) {
      f.token("t:name:", call.name);
      f.wordNgrams("t:", words(call.summary), spec.wordNgrams);
    }
  }

  f.begin();
  const trimmed = ex.prompt.trim();
  const letters = trimmed.replace(/[^\p{L}]/gu, "");
  const upper = letters.replace(/[^\p{Lu}]/gu, "");
  f.token("m:", ex.reply_end === null ? "first_turn" : "has_reply");
  f.token("m:len:", String(lengthBucket(trimmed.length)));
  f.token("m:tools:", String(ex.tool_calls.length));
  if (trimmed.endsWith("?")) f.token("m:", "ends_q");
  if (trimmed.includes("!")) f.token("m:", "excl");
  if (letters.length >= 4 && upper.length * 2 >= letters.length) f.token("m:", "caps");
  f.token("m:repeat:", ex.previous_ask === null ? "no_prev" : overlapBucket(promptWords, words(ex.previous_ask)));

  if (spec.captureSignals && signals !== null) {
    const v = signals(ex.prompt, ex.reply_end);
    f.begin();
    f.token("s:kind:", v.kind);
    f.token("s:frustration:", v.frustration === null ? "null" : String(v.frustration));
    for (const name of v.signals) f.token("s:", name);
  }
  return f.finish();
}
