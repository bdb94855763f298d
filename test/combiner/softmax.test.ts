import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLogistic } from "../../learn/logistic.js";
import { fitSoftmax, predictSoftmax } from "../../learn/softmax.js";

interface SoftmaxRef { name: string; lambda: number; X: number[][]; y: number[]; K: number; weights: number[] | null; W: number[][]; b: number[]; objective: number }
const ref = JSON.parse(readFileSync(new URL("../calibration/reference/reference.json", import.meta.url), "utf8")) as { softmax: SoftmaxRef[] };

describe("softmax regression", () => {
  for (const c of ref.softmax) {
    it(`${c.name}: matches the scipy BFGS optimum of the same objective (K=${c.K}, n=${c.X.length})`, () => {
      // The reference minimises the raw-weight objective; the default scales weights to mean 1.
      const m = fitSoftmax(c.X, c.y, { classes: c.K, l2: c.lambda, normaliseWeights: false, ...(c.weights ? { sampleWeights: c.weights } : {}) });
      expect(m.converged).toBe(true);
      expect(m.objective).toBeCloseTo(c.objective, 8);
      c.W.forEach((row, k) => row.forEach((v, j) => expect(m.W[k]![j]!).toBeCloseTo(v, 6)));
      c.b.forEach((v, k) => expect(m.b[k]!).toBeCloseTo(v, 6));
    });
  }
  it("two classes reproduce logistic regression with half the L2 (a known closed relation)", () => {
    const X = [[-2, 0.5], [-1, 1], [0.3, -1], [1, 0], [2, 1.5], [0.5, 0.5], [-0.7, -0.2]];
    const y = [0, 0, 1, 1, 1, 0, 1];
    const sm = fitSoftmax(X, y, { classes: 2, l2: 1 });
    const lr = fitLogistic(X, y, { l2: 0.5 });
    for (let j = 0; j < 2; j++) expect(sm.W[1]![j]! - sm.W[0]![j]!).toBeCloseTo(lr.coef[j]!, 7);
    expect(sm.b[1]! - sm.b[0]!).toBeCloseTo(lr.intercept, 7);
  });
  it("the worked example of the doc comment", () => {
    const m = fitSoftmax([[-2], [-1], [1], [2]], [0, 0, 1, 1], { classes: 2, l2: 1 });
    expect(m.W[1]![0]!).toBeCloseTo(0.6706, 4);
    expect(m.W[0]![0]!).toBeCloseTo(-0.6706, 4);
    expect(m.b[0]!).toBeCloseTo(0, 8);
  });
  it("is deterministic and its probabilities sum to 1", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: 6, maxLength: 30 }), (xs) => {
        const X = xs.map(([a, b]) => [a, b]);
        const y = X.map((_, i) => i % 3);
        const a = fitSoftmax(X, y, { classes: 3, l2: 0.5 });
        const b = fitSoftmax(X, y, { classes: 3, l2: 0.5 });
        expect(a.W).toEqual(b.W);
        expect(a.b).toEqual(b.b);
        const p = predictSoftmax(a, X[0]!);
        expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
        expect(a.gradMax).toBeLessThan(1e-5);
      }),
      { numRuns: 30 },
    );
  });
  it("refuses a class with no weight, naming it", () => {
    expect(() => fitSoftmax([[1], [2]], [0, 2], { classes: 3, l2: 1 })).toThrow(/none for class 1/);
  });
});
