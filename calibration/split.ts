/**
 * A session-disjoint fit/holdout split that does not depend on which other sessions exist: a
 * session goes to the holdout when mix(FNV-1a(seed + ":" + session)) / 2³² < holdoutShare,
 * where mix is MurmurHash3's 32-bit finaliser (raw FNV-1a's high bits are poorly spread for
 * short ids that differ in the last characters: 50 of "s0".."s99" fell under 0.3). Adding
 * sessions later never moves an old one.
 *
 * Example: splitOf("F1#1", {holdoutShare: 0.3, seed: 7}) is "fit" or "holdout", the same on
 * every run and machine.
 */
export type SplitPart = "fit" | "holdout";

export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** MurmurHash3's fmix32: spreads every input bit over every output bit. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

export function splitOf(sessionId: string, options: { holdoutShare: number; seed: number }): SplitPart {
  if (!(options.holdoutShare >= 0 && options.holdoutShare <= 1)) {
    throw new Error(`split: expected a holdout share in [0, 1], found ${options.holdoutShare}`);
  }
  return fmix32(fnv1a32(`${options.seed}:${sessionId}`)) / 4294967296 < options.holdoutShare ? "holdout" : "fit";
}
