import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fmix32 } from "../../core/fmix32.js";
import { FNV1A32_OFFSET, fnv1a32Utf16, fnv1a32Utf16Feed } from "../../core/fnv1a.js";

describe("FNV-1a, 32 bits, over UTF-16 code units", () => {
  it("gives the published FNV-1a 32-bit test vectors on ASCII text", () => {
    // From the FNV reference test suite (Landon Curt Noll): ASCII units are the bytes.
    const vectors: [string, number][] = [
      ["", 0x811c9dc5],
      ["a", 0xe40c292c],
      ["b", 0xe70c2de5],
      ["c", 0xe60c2c52],
      ["foo", 0xa9f37ed7],
      ["foob", 0x3f5076ef],
      ["fooba", 0x39aaa18a],
      ["foobar", 0xbf9cf968],
    ];
    for (const [text, hash] of vectors) expect(fnv1a32Utf16(text), JSON.stringify(text)).toBe(hash);
  });

  it("takes one step per code unit, so non-ASCII text is not the UTF-8 byte hash", () => {
    // One step with the unit: (offset ^ unit) * prime mod 2^32, in BigInt.
    const step = (unit: number): number => Number(((BigInt(FNV1A32_OFFSET) ^ BigInt(unit)) * 0x01000193n) & 0xffffffffn);
    expect(fnv1a32Utf16("é")).toBe(step(0xe9));
    expect(fnv1a32Utf16("€")).toBe(step(0x20ac));
    expect(fnv1a32Utf16("é")).toBe(0x6c0b6c44);
    expect(fnv1a32Utf16("é")).not.toBe(0x1e9de8c1); // FNV-1a of the UTF-8 bytes c3 a9
  });

  it("feeding parts one after another is hashing their concatenation", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => (fnv1a32Utf16Feed(fnv1a32Utf16Feed(FNV1A32_OFFSET, a), b) >>> 0) === fnv1a32Utf16(a + b)),
    );
    expect(fnv1a32Utf16Feed(FNV1A32_OFFSET, "xfoobarx", 1, 7) >>> 0).toBe(0xbf9cf968);
  });
});

describe("fmix32", () => {
  it("gives MurmurHash3's finaliser values", () => {
    expect(fmix32(0)).toBe(0);
    expect(fmix32(1)).toBe(0x514e28b7);
  });
  it("reads a 32-bit value the same signed or unsigned, and returns an unsigned 32-bit value", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (h) => fmix32(h) === fmix32(h | 0) && fmix32(h) >= 0 && fmix32(h) < 2 ** 32));
  });
});
