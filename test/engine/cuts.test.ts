import { describe, expect, it } from "vitest";
import { calibratedCutsFor, loadShippedWeights, weightsCuts, weightsId, type WeightsFile } from "../../runtime/engine/index.js";
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

  it("the daily severity rule counts P(unhappy) from the calibrated cut", () => {
    const e = { frustration: 0, rating: null, kind: "question" as const };
    expect(howUpsetRule(e, 0.3, 0.27)).toBe(1);
    expect(howUpsetRule(e, 0.3)).toBe(0);
    expect(howUpsetRule(e, 0.2, 0.27)).toBe(0);
    expect(howUpsetRule(e, 0.95, 0.27)).toBe(2);
  });
});
