import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../calibration/random.js";
import { run } from "../../cli/main.js";
import { checkBars, DEFAULT_BARS, scoreDetectors, type AgreementLabel, type ScoreGold, type ScorePrediction } from "../../eval/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/**
 * The abstention attack (issue 18): a detector that leaves unscored every item it would get
 * wrong, and withholds every class it would name wrongly, has precision, recall, F1 and class
 * accuracy of 1 on what is left. The coverage bar and the strict view must catch it.
 *
 * Holdout: 160 exchanges in 80 sessions, 40% gold failures with a class; v4 finds 90% of the
 * failures with the right class 80% of the time; v3 finds half.
 */
function fixture(): { gold: ScoreGold[]; labels: AgreementLabel[]; honest: ScorePrediction[] } {
  const r = mulberry32(8);
  const gold: ScoreGold[] = [];
  const labels: AgreementLabel[] = [];
  const honest: ScorePrediction[] = [];
  const classes = ["fabrication", "off_topic", "wrong_language"];
  for (let i = 0; i < 160; i++) {
    const id = `ex-${i}`;
    const fail = r() < 0.4;
    const cls = classes[i % 3]!;
    gold.push({ id, session: `s${Math.floor(i / 2)}`, weight: 2, split: "holdout" });
    for (const who of ["a", "b", "c"]) {
      labels.push({ exchange_id: id, labeler: who, question: "detect.unhappy", value: fail });
      if (fail) labels.push({ exchange_id: id, labeler: who, question: "class", value: cls });
    }
    const v4 = fail ? r() < 0.9 : r() < 0.15;
    const v3 = fail ? r() < 0.5 : r() < 0.3;
    const wrong = classes[(i + 1) % 3]!;
    honest.push({ exchange_id: id, detector: "v4", detected: v4, class: v4 ? (r() < 0.8 ? cls : wrong) : null });
    honest.push({ exchange_id: id, detector: "v3", detected: v3, class: v3 ? (r() < 0.33 ? cls : wrong) : null });
  }
  return { gold, labels, honest };
}

/** v4 abstains where it is wrong: wrong verdicts unscored, wrong classes withheld. */
function abstaining(gold: readonly ScoreGold[], labels: readonly AgreementLabel[], preds: readonly ScorePrediction[]): ScorePrediction[] {
  const failure = new Map(labels.filter((l) => l.question === "detect.unhappy").map((l) => [l.exchange_id, l.value]));
  const cls = new Map(labels.filter((l) => l.question === "class").map((l) => [l.exchange_id, l.value]));
  expect(gold.length).toBe(160);
  return preds.map((p) => {
    if (p.detector !== "v4") return p;
    if (p.detected !== failure.get(p.exchange_id)) return { ...p, detected: null, class: null };
    if (p.detected && p.class !== cls.get(p.exchange_id)) return { ...p, class: null };
    return p;
  });
}

const opts = { split: "holdout" as const, detectQuestion: "detect.unhappy", classQuestion: "class", detectors: ["v3", "v4"], resamples: 2000, seed: 3, ppi: null };

describe("the abstention attack fails the check", () => {
  const { gold, labels, honest } = fixture();
  const attack = abstaining(gold, labels, honest);

  it("abstaining takes every figure the four seed bars read to 1, and all four pass on them", () => {
    const r = scoreDetectors(gold, labels, attack, opts);
    const v4 = r.detectors.find((d) => d.name === "v4")!;
    for (const m of ["precision", "recall", "f1", "classAccuracy"] as const) expect(v4.figures[m].point).toBe(1);
    const results = checkBars(DEFAULT_BARS.bars, r.figures, ["v3", "v4"], { coverage: DEFAULT_BARS.coverage });
    const seedBars = results.filter((b) => b.id.startsWith("ISC-"));
    expect(seedBars.map((b) => [b.id, b.pass])).toEqual([["ISC-44-detection", true], ["ISC-44-class", true], ["ISC-56", true], ["ISC-53", true]]);
    // ... but not the coverage bars: v4 left out its wrong verdicts and classes.
    const cov = results.find((b) => b.id === "coverage-v4")!;
    const classCov = results.find((b) => b.id === "class-coverage-v4")!;
    expect(cov.pass).toBe(false);
    expect(classCov.pass).toBe(false);
    expect(cov.figure!).toBeCloseTo(v4.scored / v4.eligible, 12);
    expect(cov.figure!).toBeLessThan(0.95);
    expect(results.every((b) => b.pass)).toBe(false);
    // The strict view counts what was left out against v4: it is no better than honest v4.
    const h = scoreDetectors(gold, labels, honest, opts).detectors.find((d) => d.name === "v4")!;
    expect(v4.figures.strictRecall.point).toBeCloseTo(h.figures.recall.point!, 12);
    expect(v4.figures.strictClassAccuracy.point!).toBeLessThan(1);
    expect(h.figures.coverage.point).toBe(1);
    expect(h.figures.strictPrecision.point).toBeCloseTo(h.figures.precision.point!, 12);
  });

  it("the same, through `errata eval score --check`: exit 1, the coverage bar named", async () => {
    const { dir, cleanup } = tempDir();
    try {
      writeFileSync(join(dir, "gold.jsonl"), gold.map((g) => JSON.stringify({ schema: "gold-item/1", exchange_id: g.id, session_id: g.session, stratum: "other", inclusion_probability: 0.5, inclusion_method: "exact", inclusion_se: 0, design_weight: 2, weight: 2, split: "holdout" })).join("\n") + "\n");
      writeFileSync(join(dir, "labels.jsonl"), labels.map((l) => JSON.stringify({ schema: "label/1", ...l, origin: "t" })).join("\n") + "\n");
      writeFileSync(join(dir, "preds.jsonl"), attack.map((p) => JSON.stringify({ schema: "prediction/1", ...p })).join("\n") + "\n");
      const m = memoryIo({ env: { ERRATA_DIR: dir }, cwd: dir });
      const code = await run(["eval", "score", "--predictions", "preds.jsonl", "--gold", "gold.jsonl", "--labels", "labels.jsonl", "--weights", "v4=none", "v3=none", "--check"], m.io);
      expect(code, m.err()).toBe(1);
      expect(m.out()).toMatch(/PASS ISC-56 v4 detection recall is high: v4\.recall 1\.000 \[1\.000, 1\.000\] \(judged on the lower bound >= 0\.6\)/);
      expect(m.out()).toMatch(/FAIL coverage-v4 v4 scores at least 0\.95 of the gold items: v4\.coverage 0\.\d{3} \[0\.\d{3}, 0\.\d{3}\] \(judged on the lower bound >= 0\.95\)/);
      expect(m.out()).toMatch(/FAIL class-coverage-v4 /);
      expect(m.out()).toMatch(/v4 strict \(an unscored item counts against it\): precision 0\.\d{3}/);
    } finally {
      cleanup();
    }
  });
});
