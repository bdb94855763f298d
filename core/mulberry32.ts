/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): one 32-bit state, a Weyl step and a
 * multiply-xorshift output. Small and fast, good enough for resampling and shuffling (it
 * passes gjrand's 32-bit tests), not for cryptography. The research folders, the synthetic
 * corpus and the tests all draw from this one definition: its sequences feed reference
 * figures and the bundled evaluation corpus, so it must not change. No imports.
 *
 * Example: `const r = mulberry32(1); r()` -> 0.6270739405881613, then 0.002735721180215478.
 */
import type { RandomSource } from "./random-source.js";

/** Uniform numbers in [0, 1) from a 32-bit seed (any integer; taken mod 2^32). */
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
