/**
 * A source of uniform numbers in [0, 1), passed to everything stochastic so that randomness is
 * a parameter (a seeded `mulberry32` in research code and tests). No imports.
 *
 * Example: `const r: RandomSource = mulberry32(1); r()` -> 0.6270739405881613.
 */
export type RandomSource = () => number;
