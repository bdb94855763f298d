import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine } from "../../engine/index.js";
import { shippedWeightsPath } from "../../engine/embedded/shipped.js";
import { captureSignals } from "../../engine/embedded/signals.js";
import { trainEmbedded } from "../../engine/embedded/train.js";
import { evaluateEmbedded } from "../../engine/embedded/evaluate.js";
import { createScorer } from "../../engine/embedded/scorer.js";
import { parseWeights, serialiseWeights } from "../../engine/embedded/weights.js";
import { readLabelledSet } from "../../engine/files.js";
import { bank } from "../../questions/index.js";
import { makeExchange, unhappy, correction } from "./helpers/fixtures.js";

const repoRoot = join(import.meta.dirname, "..", "..");
const shipped = join(repoRoot, "datasets", "weights", "embedded.json");

describe.skipIf(!existsSync(shipped))("the shipped weights (datasets/weights/embedded.json)", () => {
  const weights = parseWeights(readFileSync(shipped, "utf8"));

  it("are what createEngine() uses by default, offline, and answer detect.unhappy", async () => {
    expect(shippedWeightsPath()).toBe(shipped);
    const engine = createEngine();
    expect(engine.lane).toBe("embedded");
    const complaint = makeExchange("s1", { prompt: "No, I don't like that movie. I said comedies!", reply_end: "How about Saw?" });
    const thanks = makeExchange("s2", { prompt: "Great, I will watch it tonight, thanks!", reply_end: "You might enjoy The Grand Budapest Hotel." });
    const [a, b, c] = await engine.ask([{ exchange: complaint, question: unhappy }, { exchange: thanks, question: unhappy }, { exchange: thanks, question: correction }], { caller: "errata-triage" });
    expect(a!.status).toBe("scored");
    expect(a!.p_yes!).toBeGreaterThan(b!.p_yes!);
    expect(c).toMatchObject({ status: "unscored", reason: "no weights for question detect.correction@1" });
  });

  it("were trained only on redistributable bundled data (never USS), with the holdout left out", () => {
    expect(weights.trainedOn.map((t) => t.set)).toEqual(["ab-redial"]);
    expect(weights.trainedOn.some((t) => /uss/i.test(t.set))).toBe(false);
    expect(weights.split.holdoutExcluded).toBe(true);
    for (const key of Object.keys(weights.questions)) {
      const [id, v] = key.split("@");
      expect(bank.find((q) => q.id === id)?.version).toBe(Number(v));
    }
  });

  it("are reproduced by the documented training (the final fit at the chosen L2, byte for byte) while the capture classifier is unchanged", () => {
    const set = readLabelledSet(join(repoRoot, "datasets", "ab-redial", "labels.jsonl"));
    expect(set.exchangesSha256).toBe(weights.trainedOn[0]!.exchangesSha256);
    expect(set.labelsSha256).toBe(weights.trainedOn[0]!.labelsSha256);
    const l2 = weights.questions["detect.unhappy@1"]!.l2;
    const again = trainEmbedded([set], { versions: new Map(bank.map((q) => [q.id, q.version])), l2, signals: captureSignals });
    const questionsPart = (text: string): string => text.slice(text.indexOf('"questions"'), text.indexOf('"signalsFingerprint"'));
    if (again.signalsFingerprint === weights.signalsFingerprint) {
      expect(questionsPart(serialiseWeights(again))).toBe(questionsPart(readFileSync(shipped, "utf8")));
    } else {
      // The capture classifier changed since training: `engine eval` says so, and the weights
      // must still work until they are retrained (datasets/weights/NOTICE.md).
      console.warn("shipped weights: the capture classifier changed since training; retrain with the command in datasets/weights/NOTICE.md");
      const rows = evaluateEmbedded([set], weights, createScorer(weights, captureSignals), { versions: new Map([["detect.unhappy", 1]]), resamples: 10 });
      expect(rows[0]!.auc!).toBeGreaterThan(0.7);
    }
    expect(again.trainedOn).toEqual(weights.trainedOn);
  });
});
