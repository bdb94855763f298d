import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLogistic, fitSoftmax } from "../../learn/index.js";

/**
 * The L2 fits do not depend on the scale of the sample weights (issue 18): weights are scaled
 * to mean 1 before fitting, so design weights in any unit give the same model. With the raw
 * objective (normaliseWeights: false) the scale acts like a change of l2, and the fit moves.
 */
const row = fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }));

describe("L2 fits are invariant to the weights' scale", () => {
  it("logistic and softmax: weights times 0.01, 7 or 500 give the same fit (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(row, fc.integer({ min: 0, max: 1 }), fc.double({ min: 0.1, max: 5, noNaN: true })), { minLength: 6, maxLength: 40 }), fc.constantFrom(0.01, 7, 500), (xs, k) => {
        const rows = xs.map((x) => [x[0][0], x[0][1]]);
        const y = xs.map((x, i) => (i < 2 ? i : x[1]));
        const w = xs.map((x) => x[2]);
        const a = fitLogistic(rows, y, { l2: 1, sampleWeights: w });
        const b = fitLogistic(rows, y, { l2: 1, sampleWeights: w.map((v) => v * k) });
        expect(b.intercept).toBeCloseTo(a.intercept, 7);
        for (let j = 0; j < 2; j++) expect(b.coef[j]!).toBeCloseTo(a.coef[j]!, 7);
        const sa = fitSoftmax(rows, y, { classes: 2, l2: 1, sampleWeights: w });
        const sb = fitSoftmax(rows, y, { classes: 2, l2: 1, sampleWeights: w.map((v) => v * k) });
        for (let j = 0; j < 2; j++) expect(sb.W[1]![j]!).toBeCloseTo(sa.W[1]![j]!, 5);
      }),
      { numRuns: 40, seed: 18 },
    );
  });

  it("without normalising, the scale changes the fit (so the property above can fail)", () => {
    const rows = [[1, 0.5], [0.2, -1], [-0.3, 0.8], [2, 1], [-1, -1], [0.5, 0.2]];
    const y = [1, 0, 1, 0, 0, 1];
    const w = [1, 2, 1, 3, 1, 1];
    const a = fitLogistic(rows, y, { l2: 1, sampleWeights: w, normaliseWeights: false });
    const b = fitLogistic(rows, y, { l2: 1, sampleWeights: w.map((v) => v * 50), normaliseWeights: false });
    expect(Math.abs(a.coef[0]! - b.coef[0]!)).toBeGreaterThan(1e-2);
  });
});
