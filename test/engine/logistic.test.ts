import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitLogistic, LogisticError, predictLogistic, sigmoid, type Row, type SparseRow } from "../../learn/logistic.js";

const logit = (p: number): number => Math.log(p / (1 - p));

/** Independent gradient of the objective, for stationarity checks. */
function gradient(rows: number[][], y: number[], w: number[], coef: ArrayLike<number>, b: number, l2: number): number[] {
  const dim = coef.length;
  const g = new Array<number>(dim + 1).fill(0);
  rows.forEach((x, i) => {
    let z = b;
    x.forEach((v, j) => (z += v * (coef[j] as number)));
    const r = (w[i] as number) * (sigmoid(z) - (y[i] as number));
    x.forEach((v, j) => (g[j] = (g[j] as number) + r * v));
    g[dim] = (g[dim] as number) + r;
  });
  for (let j = 0; j < dim; j++) g[j] = (g[j] as number) + l2 * (coef[j] as number);
  return g;
}

describe("fitLogistic: reference solutions", () => {
  it("matches the textbook hours-studied example (Wikipedia 'Logistic regression': b0 = -4.0777, b1 = 1.5046)", () => {
    const hours = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 1.75, 2, 2.25, 2.5, 2.75, 3, 3.25, 3.5, 4, 4.25, 4.5, 4.75, 5, 5.5];
    const pass = [0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 1, 1, 1, 1, 1];
    const m = fitLogistic(hours.map((h) => [h]), pass, { l2: 0 });
    expect(m.converged).toBe(true);
    expect(m.intercept).toBeCloseTo(-4.0777, 4);
    expect(m.coef[0]).toBeCloseTo(1.5046, 4);
    // The article's worked probability: 2 hours of study -> P(pass) = 0.26.
    expect(predictLogistic(m, [2])).toBeCloseTo(0.2556, 3);
  });

  it("intercept-only: b = logit(weighted mean of y), closed form", () => {
    const rows: Row[] = [{ idx: [], val: [] }, { idx: [], val: [] }, { idx: [], val: [] }, { idx: [], val: [] }];
    const y = [1, 0, 0, 1];
    const w = [3, 1, 2, 0.5];
    const m = fitLogistic(rows, y, { l2: 1, dim: 5, sampleWeights: w });
    expect(m.intercept).toBeCloseTo(logit(3.5 / 6.5), 12);
    expect(Array.from(m.coef)).toEqual([0, 0, 0, 0, 0]);
  });

  it("one binary feature, l2 = 0: the saturated model reproduces each group's weighted rate", () => {
    // Group x=0: rates 2/5; group x=1: rates 7/8 (with weights).
    const rows = [[0], [0], [0], [1], [1], [1]];
    const y = [1, 0, 0.5, 1, 0, 1];
    const w = [1, 3, 2, 5, 1, 2]; // x=0: (1 + 1) / 6; x=1: (5 + 2) / 8
    const m = fitLogistic(rows, y, { l2: 0, sampleWeights: w });
    expect(m.intercept).toBeCloseTo(logit(2 / 6), 10);
    expect((m.coef[0] as number) + m.intercept).toBeCloseTo(logit(7 / 8), 10);
  });

  it("regularised symmetric pair: b = 0 and l2*beta = 2*sigmoid(-beta) (root found by bisection)", () => {
    const l2 = 0.7;
    const m = fitLogistic([[1], [-1]], [1, 0], { l2 });
    let lo = 0;
    let hi = 10;
    for (let k = 0; k < 200; k++) {
      const mid = (lo + hi) / 2;
      if (l2 * mid - 2 * sigmoid(-mid) < 0) lo = mid;
      else hi = mid;
    }
    expect(m.intercept).toBeCloseTo(0, 12);
    expect(m.coef[0]).toBeCloseTo(lo, 12);
  });
});

describe("fitLogistic: behaviour", () => {
  it("a sample weight of 2 equals the row written twice", () => {
    const rows = [[1, 0.5], [0.2, -1], [-0.3, 0.8], [2, 1]];
    const y = [1, 0, 1, 0];
    const a = fitLogistic(rows, y, { l2: 0.3, sampleWeights: [2, 1, 1, 1], normaliseWeights: false });
    const b = fitLogistic([rows[0]!, ...rows], [1, ...y], { l2: 0.3 });
    expect(a.intercept).toBeCloseTo(b.intercept, 10);
    expect(a.coef[0]).toBeCloseTo(b.coef[0]!, 10);
    expect(a.coef[1]).toBeCloseTo(b.coef[1]!, 10);
  });

  it("refuses one-class data with a stable code", () => {
    try {
      fitLogistic([[1], [2]], [1, 1], { l2: 1 });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(LogisticError);
      expect((e as LogisticError).code).toBe("DEGENERATE");
      expect((e as Error).message).toContain("found only y=1");
    }
    expect(() => fitLogistic([[1]], [2], { l2: 1 })).toThrow(/label 0 must be in \[0, 1\]/);
    expect(() => fitLogistic([{ idx: [9], val: [1] }], [1], { l2: 1, dim: 4 })).toThrow(/index must be in \[0, 4\)/);
  });

  it("is deterministic: the same data give bit-identical weights", () => {
    const rows = [[1, 2], [0, 1], [3, -1], [1, 1], [-2, 0.5]];
    const y = [1, 0, 1, 0, 1];
    const a = fitLogistic(rows, y, { l2: 0.1 });
    const b = fitLogistic(rows, y, { l2: 0.1 });
    expect(Array.from(a.coef)).toEqual(Array.from(b.coef));
    expect(a.intercept).toBe(b.intercept);
  });

  it("sparse rows and dense rows give the same fit, at a stationary point (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 4, maxLength: 4 }), fc.boolean(), fc.double({ min: 0.1, max: 3, noNaN: true })), { minLength: 3, maxLength: 25 }),
        fc.double({ min: 0.05, max: 5, noNaN: true }),
        (data, l2) => {
          const dense = data.map(([x]) => x);
          const y = data.map(([, yy]) => (yy ? 1 : 0));
          const w = data.map(([, , ww]) => ww);
          if (!y.includes(1) || !y.includes(0)) return;
          const sparse: SparseRow[] = dense.map((x) => {
            const idx: number[] = [];
            const val: number[] = [];
            x.forEach((v, j) => {
              if (v !== 0) {
                idx.push(j);
                val.push(v);
              }
            });
            return { idx, val };
          });
          // Raw weights: the gradient below is the raw objective's.
          const a = fitLogistic(dense, y, { l2, sampleWeights: w, normaliseWeights: false });
          const b = fitLogistic(sparse, y, { l2, sampleWeights: w, dim: 4, normaliseWeights: false });
          expect(a.converged).toBe(true);
          for (let j = 0; j < 4; j++) expect(Math.abs((a.coef[j] as number) - (b.coef[j] as number))).toBeLessThan(1e-7);
          const g = gradient(dense, y, w, a.coef, a.intercept, l2);
          for (const gj of g) expect(Math.abs(gj)).toBeLessThan(1e-6);
        },
      ),
      { numRuns: 60, seed: 42 },
    );
  });

  it("scales to a hashed space of 2^18 features and converges to a stationary point", () => {
    const dim = 1 << 18;
    let state = 12345;
    const rand = (): number => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 2 ** 32;
    };
    const rows: SparseRow[] = [];
    const y: number[] = [];
    const signal = new Map<number, number>();
    for (let i = 0; i < 3000; i++) {
      const idx: number[] = [];
      const val: number[] = [];
      let z = -0.5;
      for (let k = 0; k < 40; k++) {
        const j = Math.floor(rand() * 2000) * 131; // 2,000 distinct features spread over the space
        idx.push(j);
        val.push(1);
        if (!signal.has(j)) signal.set(j, rand() < 0.1 ? 2 * rand() - 1 : 0);
        z += signal.get(j)!;
      }
      rows.push({ idx, val });
      y.push(rand() < sigmoid(z) ? 1 : 0);
    }
    const m = fitLogistic(rows, y, { l2: 1, dim });
    expect(m.converged).toBe(true);
    expect(m.iterations).toBeLessThan(20);
    // Unseen features stay exactly zero.
    expect(m.coef[1]).toBe(0);
    expect(m.coef[dim - 1]).toBe(0);
    // A perturbation never lowers the objective much: compare with a nudged intercept.
    const shifted = fitLogistic(rows, y, { l2: 1, dim, maxIter: 1 });
    expect(shifted.objective).toBeGreaterThanOrEqual(m.objective);
  });
});

describe("fitLogistic: a warm start (init)", () => {
  it("reaches the cold start's optimum, at the same tolerance, in fewer Newton steps over all draws (property)", () => {
    let warmSteps = 0;
    let coldSteps = 0;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 5, maxLength: 5 }), fc.boolean()), { minLength: 6, maxLength: 40 }),
        fc.constantFrom(0.1, 0.3, 1, 3),
        (data, l2) => {
          const rows = data.map(([x]) => x);
          const y = data.map(([, yy]) => (yy ? 1 : 0));
          if (!y.includes(1) || !y.includes(0)) return;
          const cold = fitLogistic(rows, y, { l2 });
          const from = fitLogistic(rows, y, { l2: l2 * 3 });
          const warm = fitLogistic(rows, y, { l2, init: from });
          expect(warm.converged).toBe(true);
          for (let j = 0; j < 5; j++) expect(Math.abs(warm.coef[j]! - cold.coef[j]!)).toBeLessThan(1e-8);
          expect(Math.abs(warm.intercept - cold.intercept)).toBeLessThan(1e-8);
          const g = gradient(rows, y, rows.map(() => 1), warm.coef, warm.intercept, l2);
          for (const gj of g) expect(Math.abs(gj)).toBeLessThan(1e-6);
          warmSteps += warm.iterations;
          coldSteps += cold.iterations;
        },
      ),
      { numRuns: 60, seed: 43 },
    );
    // Not every draw: a nearly separable one can take a step more from a start with large weights.
    process.stdout.write(`warm start: ${warmSteps} Newton steps against ${coldSteps} cold\n`);
    expect(warmSteps).toBeLessThan(0.8 * coldSteps);
  });

  it("refuses an init of another dimension", () => {
    expect(() => fitLogistic([[1, 0], [0, 1], [1, 1]], [1, 0, 1], { l2: 1, init: { coef: new Float64Array(3), intercept: 0 } })).toThrow(LogisticError);
  });
});
