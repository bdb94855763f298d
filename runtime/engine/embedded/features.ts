import { fmix32 } from "../../../core/fmix32.js";
import { FNV1A32_OFFSET as FNV_OFFSET, FNV1A32_PRIME as FNV_PRIME, fnv1a32Utf16Feed as feed } from "../../../core/fnv1a.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { FeatureSpec } from "../base/schemas.js";
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

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

// Scratch space shared by every extraction (the lane runs on one thread and extraction does
// not re-enter itself): no per-exchange buffers to allocate and zero.
let scratch = new Int32Array(4096);
let tableKeys = new Int32Array(8192).fill(-1);
let tableCounts = new Int32Array(8192);
let usedSlots = new Int32Array(8192);
let outIdx = new Int32Array(4096);
let outVal = new Float64Array(4096);

/**
 * Hashed features under namespaces, collected into one buffer; each block is a contiguous
 * run of it. Counting uses an open-addressing table (linear probing) over the run, so the
 * output lists each block's features in order of first occurrence.
 */
class Collector {
  len = 0;
  /** Start offsets of the blocks. */
  readonly starts: number[] = [];
  constructor(private readonly mask: number) {}
  begin(): void {
    this.starts.push(this.len);
  }
  add(h: number): void {
    if (this.len === scratch.length) {
      const next = new Int32Array(scratch.length * 2);
      next.set(scratch);
      scratch = next;
    }
    scratch[this.len++] = fmix32(h) & this.mask;
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
          h = feed(h, toks[i + k]!);
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
  /** Counts per block, each block scaled to unit L2 norm. */
  finish(): FeatureVector {
    const bounds = [...this.starts, this.len];
    if (outIdx.length < this.len) {
      outIdx = new Int32Array(this.len * 2);
      outVal = new Float64Array(this.len * 2);
    }
    let k = 0;
    for (let b = 0; b + 1 < bounds.length; b++) {
      const from = bounds[b]!;
      const to = bounds[b + 1]!;
      const n = to - from;
      if (tableKeys.length < 2 * n) {
        let size = tableKeys.length;
        while (size < 2 * n) size *= 2;
        tableKeys = new Int32Array(size).fill(-1);
        tableCounts = new Int32Array(size);
        usedSlots = new Int32Array(size);
      }
      const tmask = tableKeys.length - 1;
      let used = 0;
      for (let i = from; i < to; i++) {
        const h = scratch[i]!;
        let slot = (Math.imul(h, 0x9e3779b1) >>> 0) & tmask;
        for (;;) {
          const key = tableKeys[slot]!;
          if (key === -1) {
            tableKeys[slot] = h;
            tableCounts[slot] = 1;
            usedSlots[used++] = slot;
            break;
          }
          if (key === h) {
            tableCounts[slot] = (tableCounts[slot]!) + 1;
            break;
          }
          slot = (slot + 1) & tmask;
        }
      }
      let ss = 0;
      for (let u = 0; u < used; u++) {
        const c = tableCounts[usedSlots[u]!]!;
        ss += c * c;
      }
      const scale = ss > 0 ? 1 / Math.sqrt(ss) : 0;
      for (let u = 0; u < used; u++) {
        const slot = usedSlots[u]!;
        outIdx[k] = tableKeys[slot]!;
        outVal[k++] = (tableCounts[slot]!) * scale;
        tableKeys[slot] = -1;
      }
    }
    return { idx: outIdx.slice(0, k), val: outVal.slice(0, k) };
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
