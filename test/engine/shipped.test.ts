import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { shippedWeightsPath } from "../../runtime/engine/embedded/shipped.js";
import { captureSignals } from "../../runtime/engine/embedded/signals.js";
import { readSet, syntheticTrainingSet } from "../../runtime/engine/embedded/sets.js";
import { signalsFingerprint, trainEmbedded, trainingExchanges, type TrainingSet } from "../../runtime/engine/embedded/train.js";
import { evaluateEmbedded } from "../../runtime/engine/embedded/evaluate.js";
import { createScorer } from "../../runtime/engine/embedded/scorer.js";
import { parseWeights, serialiseWeights } from "../../runtime/engine/embedded/weights.js";
import { bank, v3ClassQuestions } from "../../questions/index.js";
import { trainingItemHash } from "../../core/training-item.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";

const repoRoot = join(import.meta.dirname, "..", "..");
const shipped = join(repoRoot, "datasets", "weights", "embedded.json");
const everyQuestion = [...bank, ...v3ClassQuestions];
const versions = new Map(everyQuestion.map((q) => [q.id, q.version]));

describe.skipIf(!existsSync(shipped))("the shipped weights (datasets/weights/embedded.json)", () => {
  const text = readFileSync(shipped, "utf8");
  const weights = parseWeights(text);

  it("are what createEngine() uses by default, offline, and answer every bank and v3 class question", async () => {
    expect(shippedWeightsPath()).toBe(shipped);
    const engine = createEngine();
    expect(engine.lane).toBe("embedded");
    const complaint = makeExchange("s1", { prompt: "No, I don't like that movie. I said comedies!", reply_end: "How about Saw?" });
    const thanks = makeExchange("s2", { prompt: "Great, I will watch it tonight, thanks!", reply_end: "You might enjoy The Grand Budapest Hotel." });
    const [a, b] = await engine.ask([{ exchange: complaint, question: unhappy }, { exchange: thanks, question: unhappy }], { caller: "errata-triage" });
    expect(a!.p_yes!).toBeGreaterThan(b!.p_yes!);
    const all = await engine.ask(everyQuestion.map((question) => ({ exchange: complaint, question })), { caller: "errata-triage" });
    expect(all.filter((x) => x.status !== "scored").map((x) => `${x.question_id}: ${x.reason}`)).toEqual([]);
    expect(statSync(shipped).size).toBeLessThan(4_000_000);
  });

  it("record what trained every question: sets, synthetic or not, seed, items, positives", () => {
    const sets = new Map(weights.trainedOn.map((t) => [t.set, t]));
    for (const q of everyQuestion) {
      const key = `${q.id}@${q.version}`;
      const qw = weights.questions[key];
      expect(qw, key).toBeDefined();
      const by = qw!.trainedBy ?? [];
      expect(by.length, key).toBeGreaterThan(0);
      expect(by.reduce((n, t) => n + t.items, 0)).toBe(qw!.n);
      expect(by.reduce((n, t) => n + t.positives, 0)).toBeCloseTo(qw!.positives, 3);
      for (const t of by) {
        const set = sets.get(t.set);
        expect(set, `${key} names ${t.set}`).toBeDefined();
        expect(t.synthetic).toBe(set!.synthetic !== undefined);
        expect(t.seed).toBe(set!.synthetic?.seed ?? null);
      }
      expect(qw!.idx.length).toBeLessThanOrEqual(weights.maxFeatures ?? Infinity);
    }
    // People's labels where they exist over every turn: detect.unhappy learns from AB-ReDial alone.
    expect(weights.questions["detect.unhappy@1"]!.trainedBy).toEqual([expect.objectContaining({ set: "ab-redial", synthetic: false })]);
    // UKP's error types join the synthetic plan for the modes they cover; the others are synthetic only.
    expect(weights.questions["mode.off_topic@1"]!.trainedBy!.map((t) => t.set).sort()).toEqual(["synthetic-seed-" + synthSeed(), "ukp"]);
    expect(weights.questions["mode.wrong_language@1"]!.trainedBy!.every((t) => t.synthetic)).toBe(true);
  });

  it("were trained only on redistributable bundled data and a generated set of another seed than the evaluation corpus (7), holdout left out", () => {
    expect(weights.trainedOn.map((t) => t.set).sort()).toEqual(["ab-redial", `synthetic-seed-${synthSeed()}`, "ukp"]);
    expect(weights.trainedOn.some((t) => /uss/i.test(t.set))).toBe(false);
    expect(weights.trainedOn.some((t) => t.set === "synthetic" || t.synthetic?.seed === 7)).toBe(false);
    expect(weights.trainedOn.find((t) => t.set === "ukp")).toMatchObject({ labelMap: "ukp-taxonomy/1", population: "flagged-turns" });
    expect(weights.split.holdoutExcluded).toBe(true);
    for (const key of Object.keys(weights.questions)) {
      const [id, v] = key.split("@");
      expect(versions.get(id!)).toBe(Number(v));
    }
  });

  function synthSeed(): number {
    const s = weights.trainedOn.find((t) => t.synthetic !== undefined)?.synthetic?.seed;
    if (s === undefined) throw new Error("no synthetic set in trainedOn");
    return s;
  }

  describe("are reproduced by the documented training", () => {
    let sets: TrainingSet[];
    beforeAll(async () => {
      const synth = weights.trainedOn.find((t) => t.synthetic !== undefined)!.synthetic!;
      sets = [readSet(join(repoRoot, "datasets", "ab-redial", "labels.jsonl")), readSet(join(repoRoot, "datasets", "ukp", "labels.jsonl")), await syntheticTrainingSet(synth.seed, synth.sessions)];
    });

    it("name every item they were trained on (sorted item hashes), and none of the holdout", () => {
      for (const set of sets) {
        const entry = weights.trainedOn.find((t) => t.set === set.name)!;
        const trained = trainingExchanges([set]);
        expect(entry.itemHashes, set.name).toEqual(trained.map((e) => trainingItemHash(e.corpus, e.id)).sort());
        const all = new Set(trainingExchanges([set], true).map((e) => trainingItemHash(e.corpus, e.id)));
        const listed = new Set(entry.itemHashes);
        const holdout = [...all].filter((h) => !listed.has(h));
        expect(holdout.length, `${set.name}: holdout items exist and are not listed`).toBeGreaterThan(0);
      }
    });

    it("from the same files (hashes) and the same regenerated synthetic set", () => {
      for (const set of sets) expect(weights.trainedOn.find((t) => t.set === set.name), set.name).toMatchObject({ exchangesSha256: set.exchangesSha256, labelsSha256: set.labelsSha256 });
    });

    it("byte for byte (one question of each source: AB-ReDial, UKP + synthetic, synthetic only; refitted at the recorded L2) while the capture classifier is unchanged", () => {
      const picked = ["detect.unhappy", "mode.off_topic", "cost.risky"];
      const only = sets.map((s) => ({ ...s, labels: s.labels.filter((l) => picked.includes(l.question)) }));
      const l2 = new Map(Object.entries(weights.questions).map(([k, q]) => [k, q.l2]));
      const again = trainEmbedded(only, { versions, l2, signals: captureSignals, ...(weights.maxFeatures ? { maxFeatures: weights.maxFeatures } : {}) });
      // One line per question; the last one has no trailing comma.
      const line = (t: string, key: string): string | undefined => t.split("\n").find((l) => l.startsWith(`  "${key}": `))?.replace(/,$/, "");
      if (signalsFingerprint(trainingExchanges(sets), captureSignals) === weights.signalsFingerprint) {
        const redone = serialiseWeights(again);
        for (const q of picked) expect(line(redone, `${q}@1`), q).toBe(line(text, `${q}@1`));
      } else {
        // The capture classifier changed since training: `engine eval` says so, and the weights
        // must still work until they are retrained (datasets/weights/NOTICE.md).
        console.warn("shipped weights: the capture classifier changed since training; retrain with the command in datasets/weights/NOTICE.md");
        const rows = evaluateEmbedded([sets[0]!], weights, createScorer(weights, captureSignals), { versions, resamples: 10 });
        expect(rows.find((r) => r.question === "detect.unhappy@1")!.auc!).toBeGreaterThan(0.7);
      }
    });
  });
});
