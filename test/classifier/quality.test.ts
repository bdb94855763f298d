import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadAbRedial, loadUss, scoreFlags, type QualityItem } from "../../bench/capture-quality-data.js";
import { classify, unhappyWithReply } from "../../runtime/classifier/classify.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const shared = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");
const abPath = join(shared, "ab-redial", "annotated_turns.csv");
const sgdPath = join(shared, "uss", "SGD.txt");
const mwozPath = join(shared, "uss", "MWOZ.txt");

function score(items: QualityItem[]) {
  const flags = items.map((i) => unhappyWithReply(classify(i.prompt, { previousReply: i.reply })));
  return scoreFlags(
    items.map((i) => i.positive),
    flags,
  );
}

// The LifeOS SatisfactionCapture hook on the same items (ANCHORS.md section 1).
const LIFEOS = {
  ab: { precision: 0.308, f1: 0.103 },
  sgd: { precision: 0.236, f1: 0.321 },
  mwoz: { precision: 0.189, f1: 0.179 },
};

describe("quality as an 'unhappy with the previous reply' detector", () => {
  it.skipIf(!existsSync(abPath))("AB-ReDial: beats the LifeOS hook on F1 with precision well above it", () => {
    const items = loadAbRedial(abPath);
    expect(items).toHaveLength(597);
    expect(items.filter((i) => i.positive)).toHaveLength(65);
    const s = score(items);
    expect(s.f1).toBeGreaterThan(LIFEOS.ab.f1 + 0.1);
    expect(s.precision).toBeGreaterThan(LIFEOS.ab.precision + 0.1);
    expect(s.kappa).toBeGreaterThan(0.15);
  });

  it.skipIf(!existsSync(sgdPath))("USS SGD (local only): beats the LifeOS hook", () => {
    const items = loadUss(sgdPath, "sgd");
    expect(items).toHaveLength(11833);
    expect(items.filter((i) => i.positive)).toHaveLength(647);
    const s = score(items);
    expect(s.f1).toBeGreaterThan(LIFEOS.sgd.f1 + 0.05);
    expect(s.precision).toBeGreaterThan(LIFEOS.sgd.precision + 0.05);
  });

  it.skipIf(!existsSync(mwozPath))("USS MWOZ (local only): beats the LifeOS hook", () => {
    const items = loadUss(mwozPath, "mwoz");
    expect(items).toHaveLength(10553);
    expect(items.filter((i) => i.positive)).toHaveLength(586);
    const s = score(items);
    expect(s.f1).toBeGreaterThan(LIFEOS.mwoz.f1);
    expect(s.precision).toBeGreaterThan(LIFEOS.mwoz.precision + 0.1);
  });
});

describe("scoreFlags", () => {
  it("computes precision, recall, F1 and Cohen's kappa", () => {
    // 2x2 table tp=20 fp=10 fn=5 tn=65: po=.85, pe=.3*.25+.7*.75=.6, kappa=.625
    const truth = [...Array(20).fill(true), ...Array(10).fill(false), ...Array(5).fill(true), ...Array(65).fill(false)];
    const flags = [...Array(30).fill(true), ...Array(70).fill(false)];
    const s = scoreFlags(truth, flags);
    expect(s.precision).toBeCloseTo(2 / 3, 10);
    expect(s.recall).toBeCloseTo(0.8, 10);
    expect(s.f1).toBeCloseTo((2 * (2 / 3) * 0.8) / (2 / 3 + 0.8), 10);
    expect(s.kappa).toBeCloseTo(0.625, 10);
  });
  it("says null, not 0, when a ratio has no denominator", () => {
    expect(scoreFlags([false, false], [false, false])).toMatchObject({ precision: null, recall: null, f1: null });
  });
});
