import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectedCalibrationError, mulberry32, reliability, shuffled } from "../../calibration/index.js";

/**
 * ECE is a function of the set of points (issue 18): tied probabilities are never split
 * across bins, and sums run in a canonical order, so any permutation of the rows gives the
 * same bins and the same ECE to the last bit. The old convention split ties by row order:
 * the same points gave different ECE (0.0034 to 0.0141 on isotonic-calibrated SGD scores).
 */
const permute = <T>(xs: readonly T[], order: readonly number[]): T[] => order.map((i) => xs[i]!);

describe("ECE with ties", () => {
  it("is identical under 100 random permutations of the same points (property, many ties, weights)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 1 }), fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 120 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        (xs, bins, seed) => {
          // Probabilities on a grid of 11 values, as isotonic maps give: ties everywhere.
          const p = xs.map((x) => x[0] / 10);
          const y = xs.map((x) => x[1]);
          const w = xs.map((x) => x[2] / 2);
          const ref = reliability(p, y, { bins, weights: w });
          const random = mulberry32(seed);
          for (let k = 0; k < 100; k++) {
            const order = shuffled(p.map((_, i) => i), random);
            const r = reliability(permute(p, order), permute(y, order), { bins, weights: permute(w, order) });
            expect(r.ece).toBe(ref.ece);
            expect(r.bins).toEqual(ref.bins);
          }
          // Never split: each probability lives in exactly one bin.
          for (let b = 1; b < ref.bins.length; b++) expect(ref.bins[b - 1]!.pMax).toBeLessThan(ref.bins[b]!.pMin);
          expect(ref.bins.reduce((s, b) => s + b.count, 0)).toBe(xs.length);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("keeps a tied group in one bin: four at 0.5 (one yes) and one at 0.9 (yes), 2 bins → 0.22 in any order", () => {
    const p = [0.5, 0.5, 0.5, 0.5, 0.9];
    for (const y of [[1, 0, 0, 0, 1], [0, 0, 0, 1, 1], [0, 1, 0, 0, 1]]) {
      const r = reliability(p, y, { bins: 2 });
      expect(r.ece).toBeCloseTo(0.8 * 0.25 + 0.2 * 0.1, 12);
      expect(r.bins.map((b) => b.count)).toEqual([4, 1]);
      expect(r.binning).toBe("2 equal-mass bins by weight, tied probabilities kept in one bin");
    }
  });

  it("all points tied: one bin, ECE |p - rate|, whatever the order (the old convention gave 0.5, 0.1 or 0 here)", () => {
    const p = Array<number>(10).fill(0.5);
    const rates = [[1, 1, 1, 1, 1, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1, 1, 1, 1, 1], [1, 0, 1, 0, 1, 0, 1, 0, 1, 0]];
    for (const y of rates) {
      expect(expectedCalibrationError(p, y)).toBe(0);
      expect(reliability(p, y).bins).toHaveLength(1);
    }
  });
});
