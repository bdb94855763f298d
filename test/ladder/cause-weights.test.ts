// The cause model as shipped data (datasets/weights/ladder-causes.json): a refit from the
// synthetic phrasings gives the same bytes, the hook's zod-free reader refuses a broken file,
// and the hook's scorer answers exactly as the ladder's model does.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { causeWeightsUrl, compileCauseModel, loadCauseWeights, parseCauseWeights } from "../../runtime/ladder-formats/cause-model.js";
import { causeItems } from "../../runtime/ladder/cause-data.js";
import { causeFeatures, causeModel, causeWeightsText, trainCauseModel } from "../../runtime/ladder/causes.js";
import { classify } from "../../runtime/classifier/index.js";
import { CAUSES } from "../../schemas/rule-ledger.js";
import { repoRoot } from "../rules/helpers.js";

const shippedFile = join(repoRoot, "datasets", "weights", "ladder-causes.json");
const shippedText = readFileSync(shippedFile, "utf8");

describe("the shipped cause model", () => {
  it("is what a refit from cause-data.ts writes, byte for byte (regenerate: datasets/weights/NOTICE.md)", () => {
    expect(causeWeightsText()).toBe(shippedText);
    expect(decodeURIComponent(causeWeightsUrl()!.pathname)).toBe(shippedFile);
  });

  it("is what the ladder uses (no fitting at first use), and the hook's scorer agrees with it on every held-out item", () => {
    const m = causeModel();
    expect(m.source).toBe("shipped");
    expect(m.weights).toEqual(loadCauseWeights());
    expect(m.weights.classes).toEqual([...CAUSES]);
    const hook = compileCauseModel(parseCauseWeights(shippedText, shippedFile));
    const fitted = trainCauseModel();
    for (const it of causeItems("heldout", 9077, 12)) {
      const kind = classify(it.prompt, { previousReply: it.reply }).kind;
      expect(hook.features(it.prompt, it.reply, kind)).toEqual(causeFeatures(it.prompt, it.reply));
      expect(hook.probabilities(it.prompt, it.reply, kind)).toEqual(m.probabilities(it.prompt, it.reply));
      expect(hook.classify(it.prompt, it.reply, kind)).toBe(fitted.classify(it.prompt, it.reply));
    }
  });

  it("a broken file is refused with what was expected and found", () => {
    const w = JSON.parse(shippedText) as Record<string, unknown>;
    const bad = (v: unknown) => () => parseCauseWeights(JSON.stringify(v), "x.json");
    expect(() => parseCauseWeights("{", "x.json")).toThrow(/^x\.json is not a cause model \(expected JSON; found /);
    expect(bad({ ...w, schema: "other/1" })).toThrow("x.json is not a cause model (expected an object with schema errata-ladder-causes/1; found other/1)");
    expect(bad({ ...w, W: (w["W"] as number[][]).slice(1) })).toThrow("(expected W: 5 rows of 17 finite numbers; found another shape)");
    expect(bad({ ...w, b: [0, 0] })).toThrow(/expected b: 5 finite numbers; found \[0,0\]/);
    expect(bad({ ...w, features: [{ name: "x", on: "elsewhere" }] })).toThrow(/expected each feature/);
    expect(bad({ ...w, record: {} })).toThrow(/expected record: \{data, seed, items, l2\}/);
  });
});
