import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cohenKappa, fleissKappa, fleissStatistic, krippendorffAlpha, sessionBlockBootstrap } from "../../eval/index.js";

const unitsArb = fc.array(fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 2, maxLength: 5 }), { minLength: 1, maxLength: 40 });

describe("bounds (fast-check)", () => {
  it("Fleiss' kappa is in [-1, 1] or null with a reason", () => {
    fc.assert(fc.property(unitsArb, (units) => {
      const r = fleissKappa(units);
      if (r.kappa === null) expect(r.reason).toMatch(/one category/);
      else {
        expect(r.kappa).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(r.kappa).toBeLessThanOrEqual(1 + 1e-12);
      }
    }), { numRuns: 400, seed: 1 });
  });

  it("Cohen's kappa is in [-1, 1] or null", () => {
    const pairs = fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.constantFrom("a", "b", "c")), { minLength: 1, maxLength: 60 });
    fc.assert(fc.property(pairs, (ps) => {
      const r = cohenKappa(ps.map((p) => p[0]), ps.map((p) => p[1]));
      if (r.kappa !== null) {
        expect(r.kappa).toBeGreaterThanOrEqual(-1 - 1e-12);
        expect(r.kappa).toBeLessThanOrEqual(1 + 1e-12);
      }
    }), { numRuns: 400, seed: 2 });
  });

  it("Krippendorff's alpha is at most 1, and 1 exactly when every unit agrees", () => {
    fc.assert(fc.property(unitsArb, fc.constantFrom("nominal" as const, "interval" as const, "ordinal" as const, "ratio" as const), (units, metric) => {
      const r = krippendorffAlpha(units, metric);
      if (r.alpha !== null) {
        expect(r.alpha).toBeLessThanOrEqual(1 + 1e-12);
        // Alpha's lower bound is not fixed (it depends on n); for these sizes it stays above -2.
        expect(r.alpha).toBeGreaterThan(-2);
        const allAgree = units.every((u) => u.every((v) => v === u[0]));
        if (allAgree) expect(r.alpha).toBeCloseTo(1, 12);
      }
    }), { numRuns: 400, seed: 3 });
  });

  it("bootstrap interval bounds are ordered and the point is reproducible", () => {
    fc.assert(fc.property(unitsArb, fc.integer({ min: 0, max: 1000 }), (units, seed) => {
      const counts = units.map((u) => [1, 2, 3, 4].map((c) => u.filter((v) => v === c).length));
      const sessions = units.map((_, i) => Math.floor(i / 3));
      const b = sessionBlockBootstrap(fleissStatistic(counts), sessions, { resamples: 200, seed });
      for (const f of b.figures) {
        if (f.lower !== null && f.upper !== null) expect(f.lower).toBeLessThanOrEqual(f.upper);
        expect(f.emptyReplicates).toBeGreaterThanOrEqual(0);
      }
      const k = fleissKappa(units).kappa;
      if (k === null) expect(b.figures[0]?.point).toBeNull();
      else expect(b.figures[0]?.point).toBeCloseTo(k, 12);
    }), { numRuns: 100, seed: 4 });
  });
});
