/**
 * FNV-1a, 32 bits (Fowler, Noll, Vo), over the UTF-16 code units of a JavaScript string: for
 * each unit, xor it in, then multiply by the FNV prime mod 2^32. For ASCII text this is the
 * published byte-wise FNV-1a (fnv1a("a") = 0xe40c292c); for other text it is NOT the hash of
 * the UTF-8 bytes (one step per code unit, a unit may exceed 0xff), hence the `Utf16` in the
 * names. Seeds, buckets, the fit/holdout split and the embedded lane's feature indices (and so
 * its shipped weights) come from it: it must not change. No imports.
 *
 * Example: `fnv1a32Utf16("a")` -> 3826002220 (0xe40c292c); `fnv1a32Utf16("")` -> 2166136261.
 */
export const FNV1A32_OFFSET = 0x811c9dc5;
export const FNV1A32_PRIME = 0x01000193;

/**
 * Feeds the code units `text[from, to)` into the FNV-1a state `h`, for hashes built from
 * several parts without joining strings. Returns the state as a signed 32-bit integer (the
 * bits of the hash; `>>> 0` gives the unsigned value).
 */
export function fnv1a32Utf16Feed(h: number, text: string, from = 0, to = text.length): number {
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV1A32_PRIME);
  return h;
}

/** The unsigned 32-bit FNV-1a of `text`'s UTF-16 code units. */
export function fnv1a32Utf16(text: string): number {
  return fnv1a32Utf16Feed(FNV1A32_OFFSET, text) >>> 0;
}
