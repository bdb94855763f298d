import { describe, expect, it } from "vitest";
import { calibratedCutsFor, loadShippedWeights, weightsCuts, weightsId, type WeightsFile } from "../../runtime/engine/index.js";
import { resolveCuts } from "../../runtime/jobs/index.js";
import { howUpsetRule } from "../../runtime/jobs/daily/enrich-embedded.js";

const shipped = loadShippedWeights() as WeightsFile;

describe("the cuts recorded with the weights", () => {
  it("are the shipped weights' per-question cuts, keyed by question id (the highest version of an id wins)", () => {
    const cuts = weightsCuts(shipped);
    expect(Object.keys(cuts).length).toBe(Object.keys(shipped.questions).length);
    expect(cuts["detect.unhappy"]).toBe(shipped.questions["detect.unhappy@1"]!.cut);
    const two = { ...shipped, questions: { "detect.unhappy@1": { ...shipped.questions["detect.unhappy@1"]!, cut: 0.1 }, "detect.unhappy@2": { ...shipped.questions["detect.unhappy@1"]!, cut: 0.7 } } };
    expect(weightsCuts(two)).toEqual({ "detect.unhappy": 0.7 });
  });

  it("apply only to answers of that very model: another model or lane gets none", () => {
    const id = weightsId(shipped);
    expect(calibratedCutsFor({ lane: "embedded", model: id })?.origin).toBe(`calibrated with the weights ${id} (training-side kappa cut per question)`);
    expect(calibratedCutsFor({ lane: "embedded", model: "hashed-logreg/000000000000" })).toBeNull();
    expect(calibratedCutsFor({ lane: "openai", model: id })).toBeNull();
    expect(calibratedCutsFor(null)).toBeNull();
  });

  it("resolve in order: a cuts file, the promoted configuration's, the weights', then the default 0.5", () => {
    const judge = { lane: "embedded", model: weightsId(shipped) };
    expect(resolveCuts({ file: { cuts: { "detect.unhappy": 0.4 }, origin: "cuts file c.json" }, promoted: { "detect.unhappy": 0.6 }, judge }).origin).toBe("cuts file c.json");
    expect(resolveCuts({ promoted: { "detect.unhappy": 0.6 }, judge })).toEqual({ cuts: { "detect.unhappy": 0.6 }, origin: "the promoted configuration's cuts (promoted.json)" });
    expect(resolveCuts({ promoted: {}, judge }).cuts).toEqual(weightsCuts(shipped));
    expect(resolveCuts({ judge: { lane: "openai", model: "m" } })).toMatchObject({ cuts: {}, origin: expect.stringMatching(/^default 0\.5/) });
  });

  it("the daily severity rule counts P(unhappy) from the calibrated cut", () => {
    const e = { frustration: 0, rating: null, kind: "question" as const };
    expect(howUpsetRule(e, 0.3, 0.27)).toBe(1);
    expect(howUpsetRule(e, 0.3)).toBe(0);
    expect(howUpsetRule(e, 0.2, 0.27)).toBe(0);
    expect(howUpsetRule(e, 0.95, 0.27)).toBe(2);
  });
});
