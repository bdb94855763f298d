// The naming model as shipped data (datasets/weights/ladder-naming.json): a refit on every batch
// of datasets/ladder-naming (items.jsonl's dev, old held-out and first fresh batch, and
// fresh2.jsonl since 2026-12-07) gives the same bytes, and the ladder's namer uses it with its
// two cuts.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { bestCut, fHalf, FIT_SPLITS, goalScore, namingFit, namingWeightsText, type CutPoint } from "../../runtime/ladder/naming-fit.js";
import { NAMING_FEATURES, NamingWeightsSchema, namingProbability, shippedNamingModel, withMargins } from "../../runtime/ladder/naming-model.js";
import { DEFAULT_COVER_CUT, DEFAULT_NAMING_CUT } from "../../runtime/ladder/naming.js";
import { fresh2Items, namingItems } from "./naming-set.js";
import { repoRoot } from "../rules/helpers.js";

const shippedText = readFileSync(join(repoRoot, "datasets", "weights", "ladder-naming.json"), "utf8");
// One refit for the file (it is deterministic, and most of the file's CPU): the byte-for-byte
// test and the cut test read the same fit.
let fit: ReturnType<typeof namingFit> | undefined;
const refit = (): ReturnType<typeof namingFit> => (fit ??= namingFit());

describe("the shipped naming model", () => {
  it("is what a refit on the dev projects writes, byte for byte (regenerate: runtime/ladder/naming-fit.ts)", () => {
    expect(namingWeightsText(refit().weights)).toBe(shippedText);
  });

  it("was fitted on the 23 projects of items.jsonl and fresh2.jsonl, and the namer's default cuts are its cuts", () => {
    const w = NamingWeightsSchema.parse(JSON.parse(shippedText));
    const all = [...namingItems(), ...fresh2Items()];
    expect(w.trained_on.split).toMatch(/^dev\+heldout\+fresh\+fresh2 /);
    expect(w.trained_on.projects).toEqual([...new Set(all.map((i) => i.repo))].sort());
    expect(w.trained_on.projects.length).toBe(23);
    expect(w.trained_on.items).toBe(all.filter((i) => FIT_SPLITS.has(i.split)).length);
    expect(w.trained_on.items).toBe(272);
    expect(w.cut_origin).toMatch(/leave-one-project-out/);
    expect(w.cover_cut_origin).toMatch(/leave-one-project-out/);
    expect(w.cover_cut).toBeLessThanOrEqual(w.cut);
    expect(w.features).toEqual([...NAMING_FEATURES]);
    expect(shippedNamingModel()).toEqual(w);
    expect(DEFAULT_NAMING_CUT).toEqual({ value: w.cut, origin: w.cut_origin });
    expect(DEFAULT_COVER_CUT).toEqual({ value: w.cover_cut, origin: w.cover_cut_origin });
  });

  it("takes the cuts whose out-of-fold incident goal score and covered-right count, averaged with their neighbours, are highest (the higher on a tie)", () => {
    const { weights, curve } = refit();
    const avg = (key: "goalScore" | "coverRight", i: number): number => {
      const near = curve.slice(Math.max(0, i - 1), i + 2);
      return near.reduce((s, c) => s + c[key], 0) / near.length;
    };
    for (const [key, cut] of [["goalScore", weights.cut], ["coverRight", weights.cover_cut]] as const) {
      const i = curve.findIndex((c) => c.cut === cut);
      const best = Math.max(...curve.map((_, j) => avg(key, j)));
      expect(avg(key, i)).toBe(best);
      expect(curve.every((c, j) => avg(key, j) < best || c.cut <= cut)).toBe(true);
    }
    // Every point counts each fit item once; naming right and covered right are counts of items.
    const all = [...namingItems(), ...fresh2Items()].filter((i) => i.label === "incident").length;
    for (const c of curve) {
      expect(c.items).toBe(272);
      expect(c.namedRight).toBeLessThanOrEqual(c.named);
      expect(c.right).toBeLessThanOrEqual(c.items);
      // F0.5 from its own counts.
      const p = c.incidents / (c.incidents + c.falseIncidents), r = c.incidents / all;
      expect(c.incidentF).toBeCloseTo(fHalf(p, r), 12);
      expect(c.goalScore).toBeCloseTo(Math.min(p / 0.9, r / 0.7), 12);
      expect(c.incidents).toBeLessThanOrEqual(all);
    }
  });

  it("bestCut: averaged with the neighbours, a one-step bump is not chosen; ties go to the higher cut (reference curve)", () => {
    const pt = (cut: number, right: number): CutPoint => ({ cut, named: 0, namedRight: 0, right, coverRight: right, incidents: right, falseIncidents: 0, incidentF: right, goalScore: right, items: 10 });
    // 0.2 has the highest single count (9) but its neighbours are low; 0.4 sits in a plateau of 8s.
    const curve = [pt(0.1, 5), pt(0.2, 9), pt(0.3, 5), pt(0.4, 8), pt(0.5, 8), pt(0.6, 8), pt(0.7, 4)];
    expect(bestCut(curve, "right").cut).toBe(0.5);
    expect(bestCut([pt(0.1, 3), pt(0.2, 3)], "right").cut).toBe(0.2);
  });

  it("the goal score is the worse of the two goals' ratios (reference values)", () => {
    expect(goalScore(0.9, 0.7)).toBeCloseTo(1, 12);
    expect(goalScore(0.876, 0.695)).toBeCloseTo(0.973333, 6);
    expect(goalScore(0.95, 0.56)).toBeCloseTo(0.8, 12);
    expect(goalScore(0, 0.9)).toBe(0);
  });

  it("F0.5 weighs precision twice (reference values)", () => {
    expect(fHalf(0.9, 0.6)).toBeCloseTo(0.818182, 6);
    expect(fHalf(0.6, 0.9)).toBeCloseTo(0.642857, 6);
    expect(fHalf(1, 1)).toBe(1);
    expect(fHalf(0, 0)).toBe(0);
  });

  it("withMargins: each candidate's lead over the best other candidate, on the compared features (reference values)", () => {
    const row = (v: number): number[] => Array.from({ length: NAMING_FEATURES.length - 5 }, (_, k) => v + k);
    const [a, b, c] = withMargins([row(3), row(1), row(2)]);
    // The compared features are 0, 5, 6, 10 and 11: a leads c by 1 on each, b trails a by 2.
    expect(a!.slice(-5)).toEqual([1, 1, 1, 1, 1]);
    expect(b!.slice(-5)).toEqual([-2, -2, -2, -2, -2]);
    expect(c!.slice(-5)).toEqual([-1, -1, -1, -1, -1]);
    expect(a!.length).toBe(NAMING_FEATURES.length);
    // One candidate alone has no margin over anyone.
    expect(withMargins([row(5)])[0]!.slice(-5)).toEqual([0, 0, 0, 0, 0]);
    expect(withMargins([])).toEqual([]);
  });

  it("scores by the logistic function of its features (reference values)", () => {
    expect(namingProbability({ coef: [1, -2], intercept: 0.5 }, [0, 0])).toBeCloseTo(0.622459, 6);
    expect(namingProbability({ coef: [1, -2], intercept: 0.5 }, [1, 1])).toBeCloseTo(0.377541, 6);
    expect(namingProbability({ coef: [1], intercept: -800 }, [0])).toBe(0);
  });
});
