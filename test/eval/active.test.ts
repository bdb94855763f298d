import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import "../helpers/fast-check-seed.js";
import { abRedialReplay, beta, halfOf, simulatedJudge } from "../helpers/active-data.js";
import { activeEstimate, activeInclusion, allocationBound, compareBudgets, errorCurveBound, learnedResidual, mulberry32, proportionalCapped, quantileEdges, recalibrate, runCampaign, type ActiveRound } from "../../eval/index.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (p: string): string => readFileSync(join(root, p), "utf8");

describe("inclusion probabilities", () => {
  it("are proportional to sqrt(q(1 - q)) before any label: [0.02, 0.5, 0.5, 0.02], budget 2", () => {
    const { pi, f } = activeInclusion([0.02, 0.5, 0.5, 0.02], 2);
    // sqrt(0.0196) = 0.14 and 0.5: c = 2 / (2 x 0.64).
    expect(pi[0]).toBeCloseTo(0.14 / 0.64, 6);
    expect(pi[1]).toBeCloseTo(0.5 / 0.64, 6);
    expect([...f]).toEqual([0.02, 0.5, 0.5, 0.02]);
  });

  it("sum to the budget, stay in (0, 1], respect the floor and give labelled items 1, with or without labels", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 5, maxLength: 60 }),
        fc.double({ min: 0.05, max: 0.9, noNaN: true }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        fc.array(fc.boolean(), { minLength: 2, maxLength: 2 }),
        (p, share, floor, ys) => {
          const budget = Math.max(1, Math.floor(share * (p.length - 2)));
          const known = new Set([0, 1]);
          const labels = { p: [p[0]!, p[1]!], y: ys.map(Number), w: [2, 3] };
          for (const model of [{}, { model: "fixed-bins" as const }, { bins: 2, prior: 1, learnF: true }]) {
            const { pi } = activeInclusion(p, budget, { a: 0, b: 1 }, floor, labels, known, model);
            expect(pi[0]).toBe(1);
            expect(pi[1]).toBe(1);
            let s = 0;
            for (let i = 2; i < p.length; i++) {
              s += pi[i]!;
              expect(pi[i]!).toBeGreaterThan(0);
              expect(pi[i]!).toBeLessThanOrEqual(1);
              expect(pi[i]!).toBeGreaterThanOrEqual(Math.min(1, (floor * budget) / (p.length - 2)) - 1e-12);
            }
            expect(s).toBeCloseTo(budget, 6);
          }
        },
      ),
    );
  });

  it("caps at 1 and gives the excess to the others", () => {
    const pi = proportionalCapped([10, 1, 1, 1], 2, 0);
    expect(pi[0]).toBe(1);
    expect(pi[1]).toBeCloseTo(1 / 3, 9);
  });

  it("recalibrates by weighted least squares (a known line)", () => {
    const p = [0.1, 0.2, 0.3, 0.4];
    const y = p.map((x) => 0.05 + 0.5 * x);
    const c = recalibrate(p, y, [1, 2, 3, 4]);
    expect(c.a).toBeCloseTo(0.05, 12);
    expect(c.b).toBeCloseTo(0.5, 12);
    expect(recalibrate([0.1, 0.2], [1, 0], [1, 1])).toEqual({ a: 0, b: 1 });
  });
});

describe("the learned error model", () => {
  it("cuts P(yes) in equal-count bins, ties kept together", () => {
    expect(quantileEdges([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], 3)).toEqual([0.3, 0.5]);
    expect(quantileEdges([0.1, 0.1, 0.1, 0.1, 0.9, 0.9], 3)).toEqual([0.9]);
  });

  it("learns a bin's squared error from its labels, shrunk toward f(1 - f) (hand-computed)", () => {
    // Bins {0.1, 0.1} and {0.9, 0.9}; one label in bin 0: y = 1 at p = 0.1, weight 2.
    // Bin 0: mean squared error 0.81, prior 20 x 0.09: v = (20 x 0.09 + 1 x 0.81) / 21 = 0.12429.
    const { f, v } = learnedResidual([0.1, 0.1, 0.9, 0.9], { a: 0, b: 1 }, { p: [0.1], y: [1], w: [2] }, 2, 20, false);
    expect([...f]).toEqual([0.1, 0.1, 0.9, 0.9]);
    expect(v[0]).toBeCloseTo((20 * 0.09 + 0.81) / 21, 12);
    expect(v[2]).toBeCloseTo(0.09, 12);
    // Learning f as well: the bin's shift is 1/(1 + 20) x (1 - 0.1) = 0.042857.
    const g = learnedResidual([0.1, 0.1, 0.9, 0.9], { a: 0, b: 1 }, { p: [0.1], y: [1], w: [2] }, 2, 20, true);
    expect(g.f[0]).toBeCloseTo(0.1 + 0.9 / 21, 12);
  });

  it("bounds the saving: 1 - (E sqrt v)^2 / E v", () => {
    expect(allocationBound([0.01, 0.25])).toBeCloseTo(1 - 0.09 / 0.13, 12);
    expect(allocationBound([0.2, 0.2, 0.2])).toBeCloseTo(0, 12);
    expect(errorCurveBound([0.1, 0.1, 0.5, 0.5], [0, 0, 1, 0], 2)).toBeCloseTo(1 - 0.09 / 0.13, 12);
  });
});

/** Every Poisson draw of a round (items with pi 1 always drawn), with its probability. */
function draws(pi: Float64Array): { drawn: number[]; prob: number }[] {
  let out: { drawn: number[]; prob: number }[] = [{ drawn: [], prob: 1 }];
  for (let i = 0; i < pi.length; i++) {
    const p = pi[i]!;
    out = out.flatMap((d) => (p >= 1 ? [{ drawn: [...d.drawn, i], prob: d.prob }] : [{ drawn: [...d.drawn, i], prob: d.prob * p }, { drawn: d.drawn, prob: d.prob * (1 - p) }]));
  }
  return out;
}

describe("the estimate stays unbiased whatever the allocation", () => {
  it("exactly, by enumerating every draw of one round and of two rounds whose second allocation is learned from the first's labels", () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ p: fc.double({ min: 0, max: 1, noNaN: true }), y: fc.integer({ min: 0, max: 1 }) }), { minLength: 2, maxLength: 5 }),
        fc.double({ min: 0.2, max: 0.6, noNaN: true }),
        fc.double({ min: 0.05, max: 1, noNaN: true }),
        fc.boolean(),
        (items, share, floor, learnF) => {
          const p = items.map((x) => x.p);
          const y = items.map((x) => x.y);
          const N = p.length;
          const theta = y.reduce((a, b) => a + b, 0) / N;
          const model = { bins: 2, prior: 1, learnF };
          const b1 = Math.max(0.5, share * N);
          const r1 = activeInclusion(p, b1, { a: 0, b: 1 }, floor, { p: [], y: [], w: [] }, new Set(), model);
          let one = 0;
          let two = 0;
          for (const d1 of draws(r1.pi)) {
            const round1: ActiveRound = { f: r1.f, pi: r1.pi, drawn: d1.drawn, budget: b1 };
            one += d1.prob * activeEstimate([round1], (i) => y[i]!, N).estimate;
            const known = new Set(d1.drawn);
            // The second round's size is fixed before the first is drawn (its weight in the
            // combination must not depend on the draws); with nothing open it labels nothing new.
            const b2 = 0.5;
            if (known.size === N) {
              two += d1.prob * activeEstimate([round1, { f: r1.f, pi: new Float64Array(N).fill(1), drawn: [...known], budget: b2 }], (i) => y[i]!, N).estimate;
              continue;
            }
            const labels = { p: d1.drawn.map((i) => p[i]!), y: d1.drawn.map((i) => y[i]!), w: d1.drawn.map((i) => 1 / r1.pi[i]!) };
            const r2 = activeInclusion(p, b2, recalibrate(labels.p, labels.y, labels.w), floor, labels, known, model);
            for (const d2 of draws(r2.pi)) two += d1.prob * d2.prob * activeEstimate([round1, { f: r2.f, pi: r2.pi, drawn: d2.drawn, budget: b2 }], (i) => y[i]!, N).estimate;
          }
          expect(one).toBeCloseTo(theta, 9);
          expect(two).toBeCloseTo(theta, 9);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("mean of 3000 seeded campaigns within 3 standard errors of the truth, one round and four (a miscalibrated judge)", () => {
    const r = mulberry32(11);
    const p = Array.from({ length: 400 }, () => beta(r, 0.4, 2));
    // A miscalibrated judge: the truth is not Bernoulli(p).
    const y: number[] = p.map((q) => (r() < Math.min(1, 0.05 + 1.3 * q) ? 1 : 0));
    const theta = y.reduce((a, b) => a + b, 0) / y.length;
    const coverage: number[] = [];
    for (const batch of [60, 15]) {
      const rnd = mulberry32(5 + batch);
      const est: number[] = [];
      let cover = 0;
      for (let k = 0; k < 3000; k++) {
        const e = runCampaign(p, (i) => y[i]!, rnd, { budget: 60, batch, design: "active" });
        est.push(e.estimate);
        if (e.lower <= theta && theta <= e.upper) cover++;
      }
      const m = est.reduce((a, b) => a + b, 0) / est.length;
      const sd = Math.sqrt(est.reduce((a, b) => a + (b - m) ** 2, 0) / (est.length - 1));
      expect(Math.abs(m - theta)).toBeLessThan((3 * sd) / Math.sqrt(est.length));
      coverage.push(cover / 3000);
    }
    // Coverage at this small size (60 labels, 90% nominal) is short in one round and in four
    // (the normal approximation of a skewed Horvitz-Thompson sum).
    expect(coverage[0]).toBeCloseTo(0.866, 3);
    expect(coverage[1]).toBeCloseTo(COVERAGE_FOUR_ROUNDS, 3);
  });
});

describe("active vs uniform labelling at the same interval width (same estimator, budget, seeds)", () => {
  it("simulation (seed 3, 4000 items, a sharp calibrated judge P(yes) ~ Beta(0.3, 2.5)): one round, and three rounds with the learned error", () => {
    const { p, y } = simulatedJudge(3, 4000, 0.3, 2.5);
    const grid = [300, 400, 500, 600, 700, 800];
    const one = compareBudgets(p, y, 400, grid, 150, mulberry32(9));
    expect(one.saving!).toBeCloseTo(SIM_ONE_ROUND, 3);
    expect(one.saving!).toBeGreaterThan(0.3);
    const three = compareBudgets(p, y, 400, grid, 150, mulberry32(9), { batch: 400 / 3 });
    expect(three.saving!).toBeCloseTo(SIM_THREE_ROUNDS, 3);
    expect(three.saving!).toBeGreaterThan(0.3);
    for (const c of [one, three]) {
      expect(c.active.coverage).toBeGreaterThan(0.85);
      for (const u of c.uniform) expect(u.coverage).toBeGreaterThan(0.83);
    }
    expect(allocationBound(p.map((q) => q * (1 - q)))).toBeCloseTo(0.3781, 3);
  });

  it("the AB-ReDial judge fixture: halves by the seeded session hash, whole dialogues on one side", () => {
    const rows = read("test/fixtures/active/ab-redial-judge.jsonl").trim().split("\n").map((l) => JSON.parse(l) as { session_id: string; half: string; p_yes: number });
    expect(rows).toHaveLength(600);
    expect(rows.every((r) => r.half === halfOf(r.session_id) && r.p_yes > 0 && r.p_yes < 1)).toBe(true);
    expect(rows.filter((r) => r.half === "dev")).toHaveLength(276);
    expect(new Set(rows.filter((r) => r.half === "dev").map((r) => r.session_id)).size).toBe(92);
  });

  it("AB-ReDial replayed, report half (the dev half chose the error model): the judge allows little, and active gets close to what it allows", () => {
    const labels = read("datasets/ab-redial/labels.jsonl");
    const judge = read("test/fixtures/active/ab-redial-judge.jsonl");
    const model = abRedialReplay(labels, judge, "model", "report");
    expect(model.p.length).toBe(323);
    const r = AB_REPORT;
    const c = compareBudgets(model.p, model.y, 81, [41, 61, 81, 101, 122, 142, 162], 1000, mulberry32(9), { batch: 27 });
    expect(c.saving!).toBeCloseTo(r.modelThreeRounds, 3);
    expect(c.active.coverage).toBeGreaterThan(0.85);
    expect(errorCurveBound(model.p, model.y, 5)).toBeCloseTo(r.modelCurveBound, 4);
    const rater = abRedialReplay(labels, judge, "rater1", "report");
    const d = compareBudgets(rater.p, rater.y, 81, [41, 61, 81, 101, 122, 142, 162], 1000, mulberry32(9), { batch: 27 });
    expect(d.saving!).toBeCloseTo(r.raterThreeRounds, 3);
    expect(d.active.coverage).toBeGreaterThan(0.85);
    expect(errorCurveBound(rater.p, rater.y, 5)).toBeCloseTo(r.raterCurveBound, 4);
    // The 30% goal is out of reach with either judge: even the error curve known exactly allows less.
    expect(Math.max(r.modelCurveBound, r.raterCurveBound)).toBeLessThan(0.3);
  });
});

// Reference values of these seeds (scripts/research/active-compare.ts prints the same rows).
// Four rounds covered 0.844 with the first error model (ten fixed bins, f recalibrated).
const COVERAGE_FOUR_ROUNDS = 0.8703;
const SIM_ONE_ROUND = 0.3476;
const SIM_THREE_ROUNDS = 0.3766;
const AB_REPORT = { modelThreeRounds: 0.1418, modelCurveBound: 0.24359, raterThreeRounds: 0.0513, raterCurveBound: 0.06389 };
