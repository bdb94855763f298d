import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { DEFAULT_FEATURES } from "../../runtime/engine/embedded/features.js";
import { evaluateEmbedded } from "../../runtime/engine/embedded/evaluate.js";
import { createScorer } from "../../runtime/engine/embedded/scorer.js";
import { readSet, syntheticTrainingSet } from "../../runtime/engine/embedded/sets.js";
import { trainEmbedded, type TrainingSet } from "../../runtime/engine/embedded/train.js";
import { ukpBankLabels, UKP_CLASSES, UKP_MODES } from "../../runtime/engine/embedded/ukp-map.js";
import { parseWeights, serialiseWeights } from "../../runtime/engine/embedded/weights.js";
import { bank, v3ClassQuestions } from "../../questions/index.js";
import type { Label } from "../../schemas/label.js";
import type { WeightsFile } from "../../runtime/engine/base/schemas.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { syntheticSet } from "./helpers/labelled.js";

const repoRoot = join(import.meta.dirname, "..", "..");
const versions = new Map([...bank, ...v3ClassQuestions].map((q) => [q.id, q.version]));
const noSignals = { ...DEFAULT_FEATURES, captureSignals: false };
const native = (exchange_id: string, labeler: string, question: string, value: string): Label => ({ schema: "label/1", exchange_id, labeler, question, value, origin: "import:ukp" });

describe("UKP error and response types as bank labels (ukp-taxonomy/1)", () => {
  it("an error type is yes for its mode and class and no for the other covered ones; uncovered modes get nothing", () => {
    const out = ukpBankLabels([native("x", "ukp:a1", "ukp.error_type", "E6"), native("x", "ukp:a2", "ukp.error_type", "E1")]);
    const of = (rater: string) => new Map(out.filter((l) => l.labeler === rater).map((l) => [l.question, l.value]));
    const a1 = of("ukp:a1");
    expect(a1.get("mode.off_topic")).toBe(true);
    expect(a1.get("class.off_topic")).toBe(true);
    expect(a1.get("mode.unanswered_question")).toBe(false);
    expect(a1.get("class.ignored_instruction")).toBe(false);
    expect(a1.has("mode.wrong_language")).toBe(false); // UKP's codebook has no such type
    expect(a1.has("detect.unhappy")).toBe(false);
    expect([...a1.values()].filter((v) => v === true)).toHaveLength(2);
    expect(a1.size).toBe(UKP_MODES.length + UKP_CLASSES.length);
    expect(of("ukp:a2").get("mode.unanswered_question")).toBe(true);
    expect(out.every((l) => l.origin === "map:ukp-taxonomy/1")).toBe(true);
  });
  it("user responses: UR4 correction, UR2 repeat, UR5 confused; UR1 and UR3 are no for all three", () => {
    const vals = (ur: string) => Object.fromEntries(ukpBankLabels([native("x", "ukp:a1", "ukp.user_response_type", ur)]).map((l) => [l.question, l.value]));
    expect(vals("UR4")).toEqual({ "detect.confused": false, "detect.correction": true, "detect.repeat": false });
    expect(vals("UR2")).toEqual({ "detect.confused": false, "detect.correction": false, "detect.repeat": true });
    expect(vals("UR5")).toEqual({ "detect.confused": true, "detect.correction": false, "detect.repeat": false });
    expect(vals("UR3")).toEqual({ "detect.confused": false, "detect.correction": false, "detect.repeat": false });
    expect(ukpBankLabels([native("x", "ukp:a1", "ukp.error_type", "B5")])).toEqual([]);
  });
  const ukp = join(repoRoot, "datasets", "ukp", "labels.jsonl");
  it.skipIf(!existsSync(ukp))("the bundled UKP set is read with the mapping and marked flagged-turns", () => {
    const set = readSet(ukp);
    expect(set).toMatchObject({ name: "ukp", labelMap: "ukp-taxonomy/1", population: "flagged-turns" });
    const yes = (q: string) => new Set(set.labels.filter((l) => l.question === q && l.value === true).map((l) => l.exchange_id)).size;
    expect(yes("mode.unanswered_question")).toBeGreaterThan(30); // E1 is UKP's most frequent type
    expect(yes("mode.off_topic")).toBeGreaterThan(30);
    expect(yes("detect.confused")).toBeGreaterThan(30);
  });
});

describe("synthetic training sets", () => {
  it("refuse seed 7 (the bundled evaluation corpus) and are byte-identical per seed", async () => {
    await expect(syntheticTrainingSet(7, 10)).rejects.toThrow(/seed 7 is the bundled evaluation corpus/);
    const a = await syntheticTrainingSet(11, 6);
    const b = await syntheticTrainingSet(11, 6);
    expect(a).toMatchObject({ name: "synthetic-seed-11", synthetic: { seed: 11, sessions: 6 } });
    expect([a.exchangesSha256, a.labelsSha256]).toEqual([b.exchangesSha256, b.labelsSha256]);
    expect(a.exchanges.every((e) => e.synthetic)).toBe(true);
  });
});

describe("which sets train a question, and the record of it", () => {
  let synth: TrainingSet;
  beforeAll(async () => {
    synth = await syntheticTrainingSet(11, 24);
  });
  // A stand-in for people's labels on every turn (the helper's exchanges are not marked synthetic here).
  const people = (): TrainingSet => {
    const s = syntheticSet(3, 60, 0.1, "people");
    return { ...s, exchanges: s.exchanges.map((e) => ({ ...e, synthetic: false })) };
  };
  // The weights of the synthetic set and the people's, trained once for the two tests that read them (training is deterministic).
  let both: WeightsFile | undefined;
  const trainedOnBoth = (): WeightsFile => (both ??= trainEmbedded([synth, people()], { versions, l2: 1, features: noSignals, minPerClass: 2 }));
  it("real labels over every turn train alone; otherwise synthetic joins, and each question records its sets, seed, items and positives", () => {
    const w = trainedOnBoth();
    const unhappy = w.questions["detect.unhappy@1"]!;
    expect(unhappy.trainedBy).toEqual([expect.objectContaining({ set: "people", synthetic: false, seed: null })]);
    const mode = w.questions["mode.claimed_false_success@1"]!;
    expect(mode.trainedBy).toEqual([expect.objectContaining({ set: "synthetic-seed-11", synthetic: true, seed: 11 })]);
    expect(mode.trainedBy!.reduce((n, t) => n + t.items, 0)).toBe(mode.n);
    expect(mode.trainedBy![0]!.positives).toBeCloseTo(mode.positives, 5);
    expect(w.trainedOn.find((t) => t.set === "synthetic-seed-11")).toMatchObject({ synthetic: { seed: 11, sessions: 24 } });
    expect(w.sourcePolicy).toMatch(/real sets alone/);
    // Classes only on failures: fewer items than the mode questions.
    expect(w.questions["class.false_success@1"]!.n).toBeLessThan(mode.n);
    // Through the file and back, provenance survives.
    expect(parseWeights(serialiseWeights(w)).questions["mode.claimed_false_success@1"]!.trainedBy).toEqual(mode.trainedBy);
  });
  it("flagged-turn real labels do not shut synthetic out", () => {
    const flagged = { ...people(), population: "flagged-turns" as const };
    const w = trainEmbedded([synth, flagged], { versions, l2: 1, features: noSignals, minPerClass: 2 });
    expect(w.questions["detect.unhappy@1"]!.trainedBy!.map((t) => t.set)).toEqual(["people", "synthetic-seed-11"]);
  });
  it("caps the weights per question deterministically, refitting on the kept features", () => {
    const a = trainEmbedded([synth], { versions, l2: 1, features: noSignals, minPerClass: 2, maxFeatures: 50 });
    const b = trainEmbedded([synth], { versions, l2: 1, features: noSignals, minPerClass: 2, maxFeatures: 50 });
    expect(serialiseWeights(a)).toBe(serialiseWeights(b));
    const q = a.questions["mode.off_topic@1"]!;
    expect(q.idx.length).toBeLessThanOrEqual(50);
    expect(q.cappedFrom!).toBeGreaterThan(50);
    expect(q.converged).toBe(true);
    expect(a.maxFeatures).toBe(50);
  });
  it("eval scores a set the weights were not trained on in full, flagged synthetic; a trained-on set on its holdout", async () => {
    const w = trainedOnBoth();
    const other = await syntheticTrainingSet(12, 8);
    const test = { ...other, name: "synthetic", synthetic: undefined };
    const rows = evaluateEmbedded([test, people()], w, createScorer(w, null), { versions, resamples: 20 });
    const mode = rows.find((r) => r.set === "synthetic" && r.question === "mode.claimed_false_success@1")!;
    expect(mode).toMatchObject({ split: "all", synthetic: true });
    expect(mode.items).toBe(test.exchanges.length);
    expect(rows.find((r) => r.set === "people")).toMatchObject({ split: "holdout", synthetic: false });
  });
});

describe("engine train on the command line", () => {
  let t: ReturnType<typeof tempDir>;
  beforeAll(() => (t = tempDir()));
  afterAll(() => t.cleanup());
  it("refuses seed 7 and synthetic --labels sets (exit 2, nothing written)", async () => {
    const set = await syntheticTrainingSet(11, 3);
    const dir = join(t.dir, "synthetic");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "exchanges.jsonl"), set.exchanges.map((e) => `${JSON.stringify(e)}\n`).join(""));
    writeFileSync(join(dir, "labels.jsonl"), set.labels.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const raw = syntheticSet(3, 20, 0.1, "people");
    const people = { ...raw, exchanges: raw.exchanges.map((e) => ({ ...e, synthetic: false })) };
    const pdir = join(t.dir, "people");
    mkdirSync(pdir, { recursive: true });
    writeFileSync(join(pdir, "exchanges.jsonl"), people.exchanges.map((e) => `${JSON.stringify(e)}\n`).join(""));
    writeFileSync(join(pdir, "labels.jsonl"), people.labels.map((l) => `${JSON.stringify(l)}\n`).join(""));
    const out = join(t.dir, "w.json");
    const a = memoryIo({ env: { ERRATA_DIR: t.dir }, cwd: t.dir });
    expect(await run(["engine", "train", "--labels", join(dir, "labels.jsonl"), "--out", out], a.io)).toBe(2);
    expect(a.err()).toMatch(/the synthetic generator's plan labels are not training data here/);
    const b = memoryIo({ env: { ERRATA_DIR: t.dir }, cwd: t.dir });
    expect(await run(["engine", "train", "--labels", join(pdir, "labels.jsonl"), "--synthetic-seed", "7", "--out", out], b.io)).toBe(2);
    expect(b.err()).toMatch(/seed 7 is the bundled evaluation corpus/);
    expect(existsSync(out)).toBe(false);
  });
});
