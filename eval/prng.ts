/**
 * Seeded randomness and the string hash for the evaluation code, from core/: mulberry32, the
 * Fisher-Yates shuffles and FNV-1a over UTF-16 code units (`fnv1a32` here is core's
 * `fnv1a32Utf16`). Nothing in `eval/` calls `Math.random`: every stochastic function takes a
 * seed or one of these sources, so the same inputs give the same numbers.
 *
 * Example: `const r = mulberry32(1); r()` → 0.6270739405881613, then 0.002735721180215478;
 * `fnv1a32("a")` → 3826002220.
 */
export type { RandomSource } from "../core/random-source.js";
export { mulberry32 } from "../core/mulberry32.js";
export { randomIndex, sampleIndices, shuffleInPlace } from "../core/shuffle.js";
export { fnv1a32Utf16 as fnv1a32 } from "../core/fnv1a.js";
