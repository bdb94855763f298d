import { shuffleInPlace, type RandomSource } from "../eval/prng.js";

/**
 * Seeded randomness for calibration and the Combiner: eval/'s mulberry32 (one generator for
 * the whole research toolkit), and a shuffle that leaves its input alone.
 *
 * Example: shuffled([1, 2, 3], mulberry32(1)) → the same permutation on every run.
 */
export { mulberry32, type RandomSource } from "../eval/prng.js";

export function shuffled<T>(items: readonly T[], random: RandomSource): T[] {
  return shuffleInPlace([...items], random);
}
