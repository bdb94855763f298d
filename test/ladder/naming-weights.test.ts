// The naming model as shipped data (datasets/weights/ladder-naming.json): a refit on the dev
// projects of datasets/ladder-naming gives the same bytes, it never read a held-out project,
// and the ladder's namer uses it with its cut.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { namingWeightsText } from "../../runtime/ladder/naming-fit.js";
import { NAMING_FEATURES, NamingWeightsSchema, namingProbability, shippedNamingModel } from "../../runtime/ladder/naming-model.js";
import { DEFAULT_NAMING_CUT } from "../../runtime/ladder/naming.js";
import { namingItems } from "./naming-set.js";
import { repoRoot } from "../rules/helpers.js";

const shippedText = readFileSync(join(repoRoot, "datasets", "weights", "ladder-naming.json"), "utf8");

describe("the shipped naming model", () => {
  it("is what a refit on the dev projects writes, byte for byte (regenerate: runtime/ladder/naming-fit.ts)", () => {
    expect(namingWeightsText()).toBe(shippedText);
  });

  it("was fitted on dev projects only, and the namer's default cut is its cut", () => {
    const w = NamingWeightsSchema.parse(JSON.parse(shippedText));
    const heldout = new Set(namingItems().filter((i) => i.split === "heldout").map((i) => i.repo));
    expect(w.trained_on.split).toBe("dev");
    expect(w.trained_on.projects.filter((p) => heldout.has(p))).toEqual([]);
    expect(w.trained_on.items).toBe(namingItems().filter((i) => i.split === "dev").length);
    expect(w.features).toEqual([...NAMING_FEATURES]);
    expect(shippedNamingModel()).toEqual(w);
    expect(DEFAULT_NAMING_CUT).toEqual({ value: w.cut, origin: w.cut_origin });
  });

  it("scores by the logistic function of its features (reference values)", () => {
    expect(namingProbability({ coef: [1, -2], intercept: 0.5 }, [0, 0])).toBeCloseTo(0.622459, 6);
    expect(namingProbability({ coef: [1, -2], intercept: 0.5 }, [1, 1])).toBeCloseTo(0.377541, 6);
    expect(namingProbability({ coef: [1], intercept: -800 }, [0])).toBe(0);
  });
});
