import { describe, expect, it } from "vitest";
import {
  checkBars,
  DEFAULT_BARS,
  detectorMetricsStatistic,
  pointFigures,
  ppiMeanCi,
  scoreDetectors,
  type AgreementLabel,
  type ScoreGold,
  type ScorePrediction,
} from "../../eval/index.js";

// 8 gold items: items 0-3 failures (classes a, a, b, b), 4-7 not.
const items = Array.from({ length: 8 }, (_, i) => ({ goldFailure: i < 4, goldClass: i < 4 ? (i < 2 ? "a" : "b") : null, weight: 1 }));
const pred = (detected: boolean | null, cls: string | null = null) => ({ detected, class: cls });

describe("detector metrics", () => {
  it("precision, recall, F1, class accuracy given detection and kappa on a small example", () => {
    // v4 detects 0,1,2 (classes a, b, b) and 4 (false alarm).
    const v4 = [pred(true, "a"), pred(true, "b"), pred(true, "b"), pred(false), pred(true, "a"), pred(false), pred(false), pred(false)];
    const stat = detectorMetricsStatistic(items, ["v4"], [v4]);
    const [precision, recall, f1, classAccuracy, kappa] = pointFigures(stat);
    expect(precision).toBeCloseTo(0.75, 12);
    expect(recall).toBeCloseTo(0.75, 12);
    expect(f1).toBeCloseTo(0.75, 12);
    expect(classAccuracy).toBeCloseTo(2 / 3, 12);
    // 2x2: TP 3, FP 1, FN 1, TN 3 -> po 0.75, pe 0.5, kappa 0.5.
    expect(kappa).toBeCloseTo(0.5, 12);
  });

  it("reweights to the corpus as ratios of weighted sums (Hajek)", () => {
    const weighted = items.map((g, i) => ({ ...g, weight: i === 4 ? 9 : 1 }));
    const v4 = [pred(true, "a"), pred(true, "a"), pred(true, "b"), pred(false), pred(true, "a"), pred(false), pred(false), pred(false)];
    const [precision, recall] = pointFigures(detectorMetricsStatistic(weighted, ["v4"], [v4]));
    expect(precision).toBeCloseTo(3 / 12, 12);
    expect(recall).toBeCloseTo(0.75, 12);
  });

  it("never counts an unscored prediction as no", () => {
    const unscored = [pred(true, "a"), pred(null), pred(null), pred(null), pred(false), pred(false), pred(false), pred(false)];
    const saidNo = unscored.map((p) => (p.detected === null ? pred(false) : p));
    const [, recallUnscored] = pointFigures(detectorMetricsStatistic(items, ["x"], [unscored]));
    const [, recallNo] = pointFigures(detectorMetricsStatistic(items, ["x"], [saidNo]));
    expect(recallUnscored).toBe(1);
    expect(recallNo).toBe(0.25);
  });

  it("gives null for an empty denominator, not 0", () => {
    const never = items.map(() => pred(false));
    const [precision, , , classAccuracy] = pointFigures(detectorMetricsStatistic(items, ["x"], [never]));
    expect(precision).toBeNull();
    expect(classAccuracy).toBeNull();
  });
});

function fixture(): { gold: ScoreGold[]; labels: AgreementLabel[]; predictions: ScorePrediction[] } {
  const gold: ScoreGold[] = [];
  const labels: AgreementLabel[] = [];
  const predictions: ScorePrediction[] = [];
  for (let i = 0; i < 120; i++) {
    const id = `ex-${i}`;
    const failure = i % 3 === 0;
    gold.push({ id, session: `s${Math.floor(i / 3)}`, weight: failure ? 1 : 4, split: "holdout" });
    for (const [k, l] of ["r1", "r2", "r3"].entries()) {
      const flip = (i * 7 + k) % 11 === 0; // one labeller sometimes disagrees
      labels.push({ exchange_id: id, labeler: l, question: "detect.unhappy", value: flip ? !failure : failure });
      labels.push({ exchange_id: id, labeler: l, question: "class", value: failure ? (i % 2 ? "fabrication" : "false_success") : "none" });
    }
    const cls = i % 2 ? "fabrication" : "false_success";
    predictions.push({ exchange_id: id, detector: "v4", detected: failure ? i % 9 !== 0 : i % 10 === 1, class: i % 5 === 0 ? "off_topic" : cls });
    predictions.push({ exchange_id: id, detector: "v3", detected: failure ? i % 2 === 0 : i % 6 === 1, class: i % 3 === 0 ? "off_topic" : cls });
    predictions.push({ exchange_id: id, detector: "regex", detected: i % 17 === 0 ? null : i % 7 === 0, class: null });
  }
  return { gold, labels, predictions };
}

describe("scoreDetectors", () => {
  const { gold, labels, predictions } = fixture();
  const report = scoreDetectors(gold, labels, predictions, {
    split: "holdout", detectQuestion: "detect.unhappy", classQuestion: "class",
    detectors: ["regex", "v3", "v4"], resamples: 2000, seed: 17, ppi: { detector: "v4" },
  });

  it("prints the method, resamples, seed, sessions and empty-denominator replicates", () => {
    expect(report.bootstrap).toMatchObject({ method: "session-block percentile bootstrap", resamples: 2000, seed: 17, sessions: 40, items: 120 });
    const regex = report.detectors.find((d) => d.name === "regex");
    expect(regex?.figures.classAccuracy.point).toBeNull();
    expect(regex?.figures.classAccuracy.emptyReplicates).toBe(2000);
    expect(regex?.unscoredDetection).toBeGreaterThan(0);
  });

  it("orders every interval and pairs the differences", () => {
    for (const f of report.figures) if (f.lower !== null && f.upper !== null) expect(f.lower).toBeLessThanOrEqual(f.upper);
    const v4 = report.detectors.find((d) => d.name === "v4");
    const v3 = report.detectors.find((d) => d.name === "v3");
    const diff = report.differences.find((d) => d.a === "v3" && d.b === "v4" && d.metric === "f1");
    expect(diff?.point).toBeCloseTo((v3?.figures.f1.point ?? 0) - (v4?.figures.f1.point ?? 0), 12);
    expect(report.labellers.detect?.fleissFixed.value).not.toBeNull();
    expect(report.ppi?.level).toBeCloseTo(0.9, 12);
  });

  it("is reproducible from the seed", () => {
    const again = scoreDetectors(gold, labels, predictions, {
      split: "holdout", detectQuestion: "detect.unhappy", classQuestion: "class",
      detectors: ["regex", "v3", "v4"], resamples: 2000, seed: 17, ppi: { detector: "v4" },
    });
    expect(again.figures).toEqual(report.figures);
  });

  it("the check gate judges every default bar with its figure and interval", () => {
    const results = checkBars(DEFAULT_BARS.bars, report.figures, ["regex", "v3", "v4"]);
    expect(results.map((r) => r.id)).toEqual(["ISC-44-detection", "ISC-44-class", "ISC-56", "ISC-53", "coverage-v4", "class-coverage-v4", "coverage-v3", "class-coverage-v3"]);
    const isc44 = results[0];
    // Listed as v3, v4: the gate reads the negated v3-v4 difference.
    const d = report.differences.find((x) => x.a === "v3" && x.b === "v4" && x.metric === "f1");
    expect(isc44?.figure).toBeCloseTo(-(d?.point ?? 0), 12);
    expect(isc44?.lower).toBeCloseTo(-(d?.upper ?? 0), 12);
    expect(isc44?.pass).toBe((isc44?.lower ?? -1) > 0);
    // ISC-56 is judged on the lower bound of recall (the bound that protects the owner).
    const recall = results[2];
    expect(recall?.rule).toBe("lower");
    expect(recall?.pass).toBe((recall?.lower ?? 0) >= 0.6);
    expect(() => checkBars(DEFAULT_BARS.bars, report.figures, ["regex"])).toThrow(/detector v4/);
  });
});

describe("PPI++ mean (ppi_py reference: numbers from a numpy port of ppi_mean_ci)", () => {
  const Y = [1, 0, 1, 1, 0, 0, 1, 0];
  const Yu = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.5, 0.5, 0.5];
  it("power-tuned lambda inside (0, 1)", () => {
    const r = ppiMeanCi(Y, [0.6, 0.4, 0.5, 0.7, 0.3, 0.6, 0.5, 0.4], Yu);
    expect(r.level).toBe(0.9);
    expect(r.lambda).toBeCloseTo(0.59375, 10);
    expect(r.estimate).toBeCloseTo(0.5, 10);
    expect(r.lower).toBeCloseTo(0.2256814269, 8);
    expect(r.upper).toBeCloseTo(0.7743185731, 8);
  });
  it("lambda clipped to 1, and weighted labels at 95%", () => {
    const yhat = [0.9, 0.2, 0.7, 0.6, 0.1, 0.4, 0.8, 0.3];
    const r = ppiMeanCi(Y, yhat, Yu);
    expect(r.lambda).toBe(1);
    expect(r.lower).toBeCloseTo(0.308590576, 8);
    expect(r.upper).toBeCloseTo(0.691409424, 8);
    const w = ppiMeanCi(Y, yhat, Yu, { alpha: 0.05, weights: [1, 2, 1, 3, 1, 1, 2, 4] });
    expect(w.estimate).toBeCloseTo(0.4933333333, 8);
    expect(w.lower).toBeCloseTo(0.2190550648, 8);
    expect(w.upper).toBeCloseTo(0.7676116018, 8);
  });
  it("binary predictions", () => {
    const r = ppiMeanCi(Y, [1, 0, 1, 0, 0, 1, 1, 0], [1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1]);
    expect(r.lambda).toBeCloseTo(0.2878787879, 8);
    expect(r.estimate).toBeCloseTo(0.476010101, 8);
    expect(r.lower).toBeCloseTo(0.2081352332, 8);
    expect(r.upper).toBeCloseTo(0.7438849688, 8);
  });
});
