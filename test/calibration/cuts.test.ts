import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chooseCuts, cohenKappaFromTable } from "../../calibration/index.js";

describe("cuts from blind labels", () => {
  it("the worked example: kappa cut and precision cut side by side", () => {
    const r = chooseCuts([0.9, 0.8, 0.7, 0.4, 0.3, 0.1], [1, 1, 0, 1, 0, 0], { precisionTarget: 0.9 });
    expect(r.kappaCut).toMatchObject({ cut: 0.8, precision: 1, flagged: 2 });
    expect(r.kappaCut!.kappa).toBeCloseTo(2 / 3, 12);
    expect(r.kappaCut!.recall).toBeCloseTo(2 / 3, 12);
    expect(r.precisionCut!.cut).toBe(0.8);
    // With a lower target the precision cut moves down to 0.4 (precision 0.75, recall 1).
    const low = chooseCuts([0.9, 0.8, 0.7, 0.4, 0.3, 0.1], [1, 1, 0, 1, 0, 0], { precisionTarget: 0.75 });
    expect(low.precisionCut).toMatchObject({ cut: 0.4, precision: 0.75, recall: 1 });
  });
  it("weights move the cuts (Hajek counts)", () => {
    const p = [0.9, 0.8, 0.7, 0.4, 0.3, 0.1];
    const y: (0 | 1)[] = [1, 1, 0, 1, 0, 0];
    const r = chooseCuts(p, y, { precisionTarget: 0.9, weights: [1, 1, 1, 10, 1, 1] });
    expect(r.kappaCut!.cut).toBe(0.4);
    expect(r.positives).toBe(12);
  });
  it("ties in probability form one cut; no cut reaching the target is reported", () => {
    const r = chooseCuts([0.5, 0.5, 0.5], [1, 0, 0], { precisionTarget: 0.9 });
    expect(r.curve).toHaveLength(1);
    expect(r.precisionCut).toBeNull();
    expect(r.notes.join(" ")).toMatch(/no cut reaches precision 0.9/);
  });
  it("kappa from a 2×2 table: hand example, and undefined when both sides are constant", () => {
    expect(cohenKappaFromTable(2, 0, 1, 3)).toBeCloseTo(2 / 3, 12);
    expect(cohenKappaFromTable(0, 0, 0, 5)).toBeNull();
    // Perfect agreement and perfect disagreement on a balanced table.
    expect(cohenKappaFromTable(5, 0, 0, 5)).toBe(1);
    expect(cohenKappaFromTable(0, 5, 5, 0)).toBe(-1);
  });
  it("property: the kappa cut has the best kappa on the curve and every kappa is in [-1, 1]", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.constantFrom<0 | 1>(0, 1)), { minLength: 2, maxLength: 50 }), (xs) => {
        const r = chooseCuts(xs.map((x) => x[0]), xs.map((x) => x[1]), { precisionTarget: 0.8 });
        for (const c of r.curve) if (c.kappa !== null) expect(Math.abs(c.kappa)).toBeLessThanOrEqual(1 + 1e-12);
        const best = Math.max(...r.curve.map((c) => c.kappa ?? -Infinity));
        if (r.kappaCut) expect(r.kappaCut.kappa).toBeCloseTo(best, 12);
        if (r.precisionCut) expect(r.precisionCut.precision!).toBeGreaterThanOrEqual(0.8 - 1e-12);
      }),
    );
  });
});

