import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  brierScore,
  expectedCalibrationError,
  fitIsotonic,
  fitPlatt,
  isotonicPredict,
  logLoss,
  plattPredict,
  reliability,
} from "../../calibration/index.js";

/** Fixture made by make_reference.py (sklearn 1.5's algorithms on numpy/scipy; see its header). */
interface Reference {
  numpy: string;
  scipy: string;
  platt: { name: string; scores: number[]; labels: number[]; weights: number[] | null; a: number; b: number; queries: number[]; predictions: number[] }[];
  isotonic: { name: string; scores: number[]; labels: number[]; weights: number[] | null; queries: number[]; predictions: number[]; fitted_at_scores: number[] }[];
  scores: Record<string, number> & { p: number[]; y: number[]; w: number[] };
}
const ref = JSON.parse(readFileSync(new URL("./reference/reference.json", import.meta.url), "utf8")) as Reference;

describe("Platt scaling against the sklearn 1.5 algorithm (scipy reference)", () => {
  for (const c of ref.platt) {
    it(`${c.name}: same (a, b) and predictions`, () => {
      // The reference counts raw weights (its convention); the default scales them to mean 1.
      const m = fitPlatt(c.scores, c.labels, c.weights ?? undefined, { normaliseWeights: false });
      expect(m.a).toBeCloseTo(c.a, 6);
      expect(m.b).toBeCloseTo(c.b, 6);
      c.queries.forEach((q, i) => expect(plattPredict(m, q)).toBeCloseTo(c.predictions[i]!, 8));
    });
  }
  it("the default fit does not depend on the weights' scale; unit-mean weights are the reference's own", () => {
    const c = ref.platt.find((x) => x.weights !== null)!;
    const w = c.weights!;
    const base = fitPlatt(c.scores, c.labels, w);
    for (const k of [0.01, 3, 1000]) {
      const m = fitPlatt(c.scores, c.labels, w.map((x) => x * k));
      expect(m.a).toBeCloseTo(base.a, 9);
      expect(m.b).toBeCloseTo(base.b, 9);
    }
    const mean = w.reduce((s, x) => s + x, 0) / w.length;
    const unit = fitPlatt(c.scores, c.labels, w.map((x) => x / mean), { normaliseWeights: false });
    expect(unit.a).toBeCloseTo(base.a, 9);
    // Raw weights of mean 1.51 move the targets: the scale did matter before.
    expect(Math.abs(fitPlatt(c.scores, c.labels, w.map((x) => x * 30), { normaliseWeights: false }).a - base.a)).toBeGreaterThan(1e-3);
  });
  it("a different label changes the fit (the test can fail)", () => {
    const c = ref.platt[0]!;
    const flipped = c.labels.map((y, i) => (i === 0 ? 1 - y : y));
    expect(Math.abs(fitPlatt(c.scores, flipped).b - c.b)).toBeGreaterThan(1e-3);
  });
  it("the worked example of the doc comment", () => {
    const m = fitPlatt([-2, -1, 0, 1, 2], [0, 0, 1, 1, 1]);
    expect(m.a).toBeCloseTo(-0.79236, 4);
    expect(m.b).toBeCloseTo(-0.41865, 4);
    expect(plattPredict(m, 0)).toBeCloseTo(0.60316, 4);
  });
  it("refuses labels other than 0/1 and empty input", () => {
    expect(() => fitPlatt([], [])).toThrow(/at least one/);
    expect(() => fitPlatt([0.1, 0.2], [0, 2])).toThrow(/labels 0 or 1/);
  });
});

describe("isotonic regression against sklearn's IsotonicRegression(out_of_bounds='clip') (scipy reference)", () => {
  for (const c of ref.isotonic) {
    it(`${c.name}: same predictions at the fitted scores and at queries outside and inside the range`, () => {
      const m = fitIsotonic(c.scores, c.labels, c.weights ?? undefined);
      c.queries.forEach((q, i) => expect(isotonicPredict(m, q)).toBeCloseTo(c.predictions[i]!, 12));
      c.scores.forEach((s, i) => expect(isotonicPredict(m, s)).toBeCloseTo(c.fitted_at_scores[i]!, 12));
    });
  }
  it("the worked example of the doc comment", () => {
    const m = fitIsotonic([1, 2, 3, 4], [0, 1, 0, 1]);
    expect(m.y).toEqual([0, 0.5, 0.5, 1]);
    expect(isotonicPredict(m, 1.5)).toBe(0.25);
    expect(isotonicPredict(m, 9)).toBe(1);
    expect(isotonicPredict(m, -9)).toBe(0);
  });
});

describe("Brier, log loss and ECE on fixed vectors", () => {
  const s = ref.scores;
  it("Brier score (sklearn brier_score_loss formula)", () => {
    expect(brierScore(s.p, s.y)).toBeCloseTo(s["brier"]!, 14);
    expect(brierScore(s.p, s.y, s.w)).toBeCloseTo(s["brier_weighted"]!, 14);
  });
  it("log loss (sklearn log_loss, eps = float64 eps) including p = 0 and 1 at the right labels", () => {
    expect(logLoss(s.p, s.y)).toBeCloseTo(s["log_loss"]!, 12);
    expect(logLoss(s.p, s.y, s.w)).toBeCloseTo(s["log_loss_weighted"]!, 12);
    expect(logLoss([0], [1])).toBeCloseTo(-Math.log(2.220446049250313e-16), 8);
  });
  it("ECE with 10 and 5 equal-mass bins (a second implementation in numpy)", () => {
    expect(expectedCalibrationError(s.p, s.y)).toBeCloseTo(s["ece10"]!, 12);
    expect(expectedCalibrationError(s.p, s.y, s.w)).toBeCloseTo(s["ece10_weighted"]!, 12);
    expect(reliability(s.p, s.y, { bins: 5 }).ece).toBeCloseTo(s["ece5"]!, 12);
  });
  it("hand-computed examples of the doc comments", () => {
    expect(brierScore([0.9, 0.2, 0.6], [1, 0, 0])).toBeCloseTo(0.136667, 6);
    expect(logLoss([0.9, 0.2, 0.6], [1, 0, 0])).toBeCloseTo(0.414932, 6);
    const p = [0.05, 0.15, 0.25, 0.35, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95];
    const r = reliability(p, [0, 0, 0, 1, 0, 1, 1, 0, 1, 1], { bins: 5 });
    expect(r.bins.map((b) => b.count)).toEqual([2, 2, 2, 2, 2]);
    expect(r.ece).toBeCloseTo(0.12, 12);
  });
  it("equal mass: 100 points give 10 bins of 10, in order", () => {
    const p = Array.from({ length: 100 }, (_, i) => ((i * 37) % 100) / 100);
    const r = reliability(p, p.map((x) => (x > 0.5 ? 1 : 0)));
    expect(r.bins.map((b) => b.count)).toEqual(new Array(10).fill(10));
    for (let k = 1; k < 10; k++) expect(r.bins[k]!.pMin).toBeGreaterThan(r.bins[k - 1]!.pMax);
  });
  it("refuses probabilities outside [0, 1] and mismatched lengths", () => {
    expect(() => brierScore([1.2], [1])).toThrow(/\[0, 1\]/);
    expect(() => logLoss([0.2, 0.3], [1])).toThrow(/labels/);
    expect(() => expectedCalibrationError([], [])).toThrow(/at least one/);
  });
});
