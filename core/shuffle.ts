/**
 * Fisher-Yates (Durstenfeld's in-place form, from the last position down), a copy-returning
 * shuffle and the partial form for a simple random sample. Every draw is
 * `randomIndex(random, i + 1)`, so a seed gives the same permutation on every platform; the
 * permutations feed labelling sheets, calibration draws and the synthetic corpus, so the
 * order of draws must not change. No imports.
 *
 * Example: `shuffled([1, 2, 3, 4, 5], mulberry32(1))` -> [5, 3, 2, 1, 4], and `[1, 2, 3, 4, 5]`
 * is left as it was.
 */
import type { RandomSource } from "./random-source.js";

/** A uniform integer in [0, n) from a random source. */
export function randomIndex(random: RandomSource, n: number): number {
  return Math.min(n - 1, Math.floor(random() * n));
}

/** Shuffles `items` in place; returns the same array. */
export function shuffleInPlace<T>(items: T[], random: RandomSource): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = randomIndex(random, i + 1);
    const tmp = items[i] as T;
    items[i] = items[j] as T;
    items[j] = tmp;
  }
  return items;
}

/** A shuffled copy; the input is left alone. */
export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  return shuffleInPlace([...items], random);
}

/** The first `k` of a seeded shuffle of 0..n-1: a simple random sample without replacement. */
export function sampleIndices(n: number, k: number, random: RandomSource): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  // Partial Fisher-Yates, from the front: only the first k positions need to be settled.
  const take = Math.min(k, n);
  for (let i = 0; i < take; i++) {
    const j = i + randomIndex(random, n - i);
    const tmp = idx[i]!;
    idx[i] = idx[j]!;
    idx[j] = tmp;
  }
  return idx.slice(0, take);
}
