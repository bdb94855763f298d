import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fitIsotonic, fitPlatt, isotonicPredict, pava, plattPredict, reliability } from "../../calibration/index.js";

const point = fc.record({
  s: fc.double({ min: -5, max: 5, noNaN: true }),
  y: fc.integer({ min: 0, max: 1 }),
  w: fc.double({ min: 0.01, max: 5, noNaN: true }),
});

describe("calibration properties", () => {
  it("isotonic output is monotone in the score, everywhere, and stays in [0, 1] for 0/1 labels", () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 1, maxLength: 60 }), fc.array(fc.double({ min: -8, max: 8, noNaN: true }), { minLength: 2, maxLength: 30 }), (pts, qs) => {
        const m = fitIsotonic(pts.map((p) => p.s), pts.map((p) => p.y), pts.map((p) => p.w));
        const sorted = [...qs].sort((a, b) => a - b);
        const out = sorted.map((q) => isotonicPredict(m, q));
        for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThanOrEqual(out[i - 1]! - 1e-12);
        for (const v of out) expect(v >= 0 && v <= 1).toBe(true);
      }),
    );
  });
  it("PAVA output is non-decreasing and keeps the weighted mean", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.double({ min: 0.1, max: 3, noNaN: true })), { minLength: 1, maxLength: 50 }), (vw) => {
        const v = vw.map((x) => x[0]);
        const w = vw.map((x) => x[1]);
        const out = pava(v, w);
        for (let i = 1; i < out.length; i++) expect(out[i]!).toBeGreaterThanOrEqual(out[i - 1]! - 1e-9);
        const mean = (xs: number[]) => xs.reduce((s, x, i) => s + x * w[i]!, 0) / w.reduce((a, b) => a + b, 0);
        expect(mean(out)).toBeCloseTo(mean(v), 8);
      }),
    );
  });
  it("Platt probabilities stay in [0, 1] and the fit reaches a stationary point", () => {
    fc.assert(
      fc.property(fc.array(point, { minLength: 2, maxLength: 60 }), (pts) => {
        const s = pts.map((p) => p.s);
        const y = pts.map((p) => p.y);
        const w = pts.map((p) => p.w);
        // The raw-weight objective, whose gradient is checked below (the default scales weights to mean 1).
        const m = fitPlatt(s, y, w, { normaliseWeights: false });
        expect(Number.isFinite(m.a) && Number.isFinite(m.b)).toBe(true);
        for (const q of [-100, -1, 0, 1, 100]) {
          const p = plattPredict(m, q);
          expect(p >= 0 && p <= 1).toBe(true);
        }
        // Gradient of the Platt objective is ~0 at the fit.
        const p1 = y.reduce((a, v, i) => a + (v === 1 ? w[i]! : 0), 0);
        const p0 = w.reduce((a, b) => a + b, 0) - p1;
        let g1 = 0;
        let g2 = 0;
        s.forEach((f, i) => {
          const t = y[i] === 1 ? (p1 + 1) / (p1 + 2) : 1 / (p0 + 2);
          const d = w[i]! * (t - plattPredict(m, f));
          g1 += f * d;
          g2 += d;
        });
        expect(Math.abs(g1) + Math.abs(g2)).toBeLessThan(1e-6 * (1 + w.reduce((a, b) => a + b, 0)));
      }),
    );
  });
  it("reliability bins partition the points and ECE is in [0, 1]", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 1 })), { minLength: 1, maxLength: 80 }), (xs) => {
        const r = reliability(xs.map((x) => x[0]), xs.map((x) => x[1]));
        expect(r.bins.reduce((s, b) => s + b.count, 0)).toBe(xs.length);
        expect(r.ece).toBeGreaterThanOrEqual(0);
        expect(r.ece).toBeLessThanOrEqual(1 + 1e-12);
      }),
    );
  });
});
