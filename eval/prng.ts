/**
 * Seeded randomness for the evaluation code: mulberry32, a 32-bit generator that is small,
 * fast and good enough for resampling and shuffling (it passes gjrand's 32-bit tests; it is
 * not for cryptography). Nothing in `eval/` calls `Math.random`: every stochastic function
 * takes a seed or one of these sources, so the same inputs give the same numbers.
 *
 * Example: `const r = mulberry32(1); r()` → 0.6270739405881613, then 0.002735721180215478.
 */
export type RandomSource = () => number;

/** A generator of uniform numbers in [0, 1) from a 32-bit seed (any integer; taken mod 2^32). */
export function mulberry32(seed: number): RandomSource {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * FNV-1a, 32 bits, over the UTF-16 code units of a string: a stable seed or bucket from a
 * text (a labeller id, a session id). Same string, same number, on every platform.
 *
 * Example: `fnv1a32("a")` → 3826002220.
 */
export function fnv1a32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A uniform integer in [0, n) from a random source. */
export function randomIndex(random: RandomSource, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** Fisher-Yates shuffle in place; returns the same array. */
export function shuffleInPlace<T>(items: T[], random: RandomSource): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

/** The first `k` of a seeded shuffle of 0..n-1: a simple random sample without replacement. */
export function sampleIndices(n: number, k: number, random: RandomSource): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  // Partial Fisher-Yates: only the first k positions need to be settled.
  const take = Math.min(k, n);
  for (let i = 0; i < take; i++) {
    const j = i + randomIndex(random, n - i);
    const tmp = idx[i] as number;
    idx[i] = idx[j] as number;
    idx[j] = tmp;
  }
  return idx.slice(0, take);
}
