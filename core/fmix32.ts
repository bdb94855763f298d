/**
 * MurmurHash3's 32-bit finaliser (fmix32): xor-shifts and two multiplications that make every
 * input bit affect every output bit, so hashes of texts that differ in one character land
 * far apart. Used after FNV-1a for the fit/holdout split and the embedded lane's feature
 * indices. No imports.
 *
 * Example: `fmix32(0)` -> 0; `fmix32(1)` -> 1364076727 (0x514e28b7).
 */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
