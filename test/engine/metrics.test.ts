import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildItems } from "../../runtime/engine/embedded/items.js";
import { auc, bestKappaCut, brier, cohenKappaBinary, fleissKappa, logLoss } from "../../runtime/engine/embedded/metrics.js";
import { readLabelledSet } from "../../runtime/engine/embedded/files.js";

const repoRoot = join(import.meta.dirname, "..", "..");

describe("judge metrics (reference values)", () => {
  it("AUC: Mann-Whitney with ties counted half", () => {
    // scikit-learn's documented example: roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]) = 0.75
    expect(auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75);
    expect(auc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).toBe(0.5);
    expect(auc([0.2, 0.3], [1, 0])).toBe(0);
    expect(auc([0.2, 0.3], [1, 1])).toBeNull();
  });
  it("Brier and log loss", () => {
    expect(brier([0.9, 0.2], [1, 0])).toBeCloseTo(0.025, 15);
    expect(logLoss([0.5], [1])).toBeCloseTo(Math.LN2, 15);
    // scikit-learn's documented example: log_loss(["spam","ham","ham","spam"], [[.1,.9],[.9,.1],[.8,.2],[.35,.65]]) = 0.21616
    expect(logLoss([0.9, 0.1, 0.2, 0.65], [1, 0, 0, 1])).toBeCloseTo(0.21616, 5);
    expect(brier([], [])).toBeNull();
  });
  it("Cohen's kappa, binary", () => {
    expect(cohenKappaBinary([1, 1, 0, 0], [1, 0, 0, 0])).toBeCloseTo(0.5, 15);
    expect(cohenKappaBinary([1, 1], [1, 1])).toBeNull();
  });
  it("Fleiss' kappa: the Fleiss (1971) example as printed in Wikipedia gives 0.20993", () => {
    const table = [
      [0, 0, 0, 0, 14],
      [0, 2, 6, 4, 2],
      [0, 0, 3, 5, 6],
      [0, 3, 9, 2, 0],
      [2, 2, 8, 1, 1],
      [7, 7, 0, 0, 0],
      [3, 2, 6, 3, 0],
      [2, 5, 3, 2, 2],
      [6, 5, 2, 1, 0],
      [0, 2, 2, 3, 7],
    ];
    const r = fleissKappa(table);
    expect(r.kappa).toBeCloseTo(0.20993, 5);
    expect(r.items).toBe(10);
  });
  it("the best kappa cut is found by a sweep and is deterministic", () => {
    const p = [0.1, 0.2, 0.3, 0.6, 0.7, 0.35];
    const y: (0 | 1)[] = [0, 0, 0, 1, 1, 1];
    expect(bestKappaCut(p, y)).toBe(0.35);
    expect(bestKappaCut(p, [0, 0, 0, 0, 0, 0])).toBe(0.5);
  });
});

const abLabels = join(repoRoot, "datasets", "ab-redial", "labels.jsonl");
describe.skipIf(!existsSync(abLabels))("raters' agreement on the bundled AB-ReDial set", () => {
  it("binary Fleiss' kappa over all raters matches the reference figure 0.3763 (datasets/README.md)", () => {
    const set = readLabelledSet(abLabels);
    const items = buildItems(set.exchanges, set.labels).byQuestion.get("detect.unhappy") ?? [];
    const r = fleissKappa(items.map((it) => [it.total - it.yes, it.yes]));
    expect(r.items).toBeGreaterThanOrEqual(599);
    expect(r.kappa).toBeCloseTo(0.3763, 3);
  });
});
