import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../core/mulberry32.js";
import { randomIndex, sampleIndices, shuffleInPlace, shuffled } from "../../core/shuffle.js";

/** mulberry32 as Tommy Ettinger's C reference computes it, in BigInt uint32 arithmetic (no Math.imul). */
function referenceMulberry32(seed: number, count: number): number[] {
  const M = 0xffffffffn;
  let a = BigInt(seed >>> 0);
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    a = (a + 0x6d2b79f5n) & M;
    let z = a;
    z = ((z ^ (z >> 15n)) * (z | 1n)) & M;
    z = (z ^ (z + (((z ^ (z >> 7n)) * (z | 61n)) & M))) & M;
    out.push(Number(z ^ (z >> 14n)));
  }
  return out;
}

describe("mulberry32", () => {
  it("gives the documented first outputs for seed 1", () => {
    const r = mulberry32(1);
    expect([r(), r(), r()]).toEqual([2693262067 / 2 ** 32, 11749833 / 2 ** 32, 2265367787 / 2 ** 32]);
    expect(mulberry32(1)()).toBe(0.6270739405881613);
  });

  it("matches the C reference for many seeds, the seed taken mod 2^32", () => {
    for (const seed of [0, 1, 7, 42, 2 ** 31, 2 ** 32 - 1, -1, 123456789]) {
      const r = mulberry32(seed);
      expect(Array.from({ length: 200 }, () => r() * 2 ** 32), `seed ${seed}`).toEqual(referenceMulberry32(seed, 200));
    }
    const a = mulberry32(-1);
    const b = mulberry32(2 ** 32 - 1);
    expect([a(), a()]).toEqual([b(), b()]);
  });

  it("stays in [0, 1)", () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const r = mulberry32(seed);
        for (let i = 0; i < 50; i++) {
          const x = r();
          if (!(x >= 0 && x < 1)) return false;
        }
        return true;
      }),
    );
  });
});

describe("Fisher-Yates", () => {
  it("the documented permutation for seed 1", () => {
    const items = [1, 2, 3, 4, 5];
    expect(shuffled(items, mulberry32(1))).toEqual([5, 3, 2, 1, 4]);
    expect(items).toEqual([1, 2, 3, 4, 5]);
  });

  it("is a permutation of its input, in place and as a copy, the same for the same seed", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: -5, max: 5 }), { maxLength: 60 }), fc.integer(), (items, seed) => {
        const copy = shuffled(items, mulberry32(seed));
        const inPlace = [...items];
        const returned = shuffleInPlace(inPlace, mulberry32(seed));
        const sort = (xs: number[]) => [...xs].sort((x, y) => x - y);
        return returned === inPlace && JSON.stringify(copy) === JSON.stringify(inPlace) && JSON.stringify(sort(copy)) === JSON.stringify(sort(items));
      }),
    );
  });

  it("reaches every permutation of 3 items about equally often", () => {
    const counts = new Map<string, number>();
    const r = mulberry32(2024);
    for (let i = 0; i < 6000; i++) {
      const key = shuffled(["a", "b", "c"], r).join("");
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(6);
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(120);
  });

  it("sampleIndices draws k distinct indices in [0, n)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 0, max: 100 }), fc.integer(), (n, k, seed) => {
        const got = sampleIndices(n, k, mulberry32(seed));
        return got.length === Math.min(n, k) && new Set(got).size === got.length && got.every((i) => Number.isInteger(i) && i >= 0 && i < n);
      }),
    );
  });

  it("randomIndex stays below n even for a source at its largest value", () => {
    expect(randomIndex(() => 1 - 2 ** -53, 7)).toBe(6);
    expect(randomIndex(() => 0, 7)).toBe(0);
  });
});
