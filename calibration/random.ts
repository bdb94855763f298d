/**
 * Seeded randomness for calibration and the Combiner: core's mulberry32 (one generator for
 * the whole research toolkit), and a shuffle that leaves its input alone.
 *
 * Example: shuffled([1, 2, 3, 4, 5], mulberry32(1)) → [5, 3, 2, 1, 4] on every run.
 */
export type { RandomSource } from "../core/random-source.js";
export { mulberry32 } from "../core/mulberry32.js";
export { shuffled } from "../core/shuffle.js";
