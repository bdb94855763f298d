// The naming model as shipped data (datasets/weights/ladder-naming.json): a refit on the first
// two batches of datasets/ladder-naming (dev and the old held-out) gives the same bytes, it never
// read a project of the fresh batch, and the ladder's namer uses it with its cut.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { FIT_SPLITS, namingFit, namingWeightsText } from "../../runtime/ladder/naming-fit.js";
import { NAMING_FEATURES, NamingWeightsSchema, namingProbability, shippedNamingModel } from "../../runtime/ladder/naming-model.js";
import { DEFAULT_NAMING_CUT } from "../../runtime/ladder/naming.js";
import { namingItems } from "./naming-set.js";
import { repoRoot } from "../rules/helpers.js";

const shippedText = readFileSync(join(repoRoot, "datasets", "weights", "ladder-naming.json"), "utf8");

describe("the shipped naming model", () => {
  it("is what a refit on the dev projects writes, byte for byte (regenerate: runtime/ladder/naming-fit.ts)", () => {
    expect(namingWeightsText()).toBe(shippedText);
  });

  it("was fitted on the first two batches only (never a fresh project), and the namer's default cut is its cut", () => {
    const w = NamingWeightsSchema.parse(JSON.parse(shippedText));
    const fresh = new Set(namingItems().filter((i) => i.split === "fresh").map((i) => i.repo));
    expect(fresh.size).toBe(5);
    expect(w.trained_on.split).toMatch(/^dev\+heldout/);
    expect(w.trained_on.projects.filter((p) => fresh.has(p))).toEqual([]);
    expect(w.trained_on.items).toBe(namingItems().filter((i) => FIT_SPLITS.has(i.split)).length);
    expect(w.cut_origin).toMatch(/leave-one-project-out/);
    expect(w.features).toEqual([...NAMING_FEATURES]);
    expect(shippedNamingModel()).toEqual(w);
    expect(DEFAULT_NAMING_CUT).toEqual({ value: w.cut, origin: w.cut_origin });
  });

  it("takes the cut that decides named-or-not right on the most out-of-fold items (the higher on a tie)", () => {
    const { weights, curve } = namingFit();
    const best = Math.max(...curve.map((c) => c.right));
    expect(curve.find((c) => c.cut === weights.cut)?.right).toBe(best);
    expect(curve.filter((c) => c.right === best).every((c) => c.cut <= weights.cut)).toBe(true);
    // Every point counts each fit item once.
    for (const c of curve) expect(c.items).toBe(namingItems().filter((i) => FIT_SPLITS.has(i.split)).length);
  });

  it("scores by the logistic function of its features (reference values)", () => {
    expect(namingProbability({ coef: [1, -2], intercept: 0.5 }, [0, 0])).toBeCloseTo(0.622459, 6);
    expect(namingProbability({ coef: [1, -2], intercept: 0.5 }, [1, 1])).toBeCloseTo(0.377541, 6);
    expect(namingProbability({ coef: [1], intercept: -800 }, [0])).toBe(0);
  });
});
