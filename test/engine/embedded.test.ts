import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { evaluateEmbedded } from "../../runtime/engine/embedded/evaluate.js";
import { DEFAULT_FEATURES, extractFeatures } from "../../runtime/engine/embedded/features.js";
import { createScorer } from "../../runtime/engine/embedded/scorer.js";
import { isHoldout } from "../../runtime/engine/embedded/split.js";
import { trainEmbedded } from "../../runtime/engine/embedded/train.js";
import { parseWeights, serialiseWeights } from "../../runtime/engine/embedded/weights.js";
import { readLabelledSet } from "../../runtime/engine/embedded/files.js";
import { correction, makeExchange, unhappy } from "./helpers/fixtures.js";
import { syntheticSet } from "./helpers/labelled.js";

const repoRoot = join(import.meta.dirname, "..", "..");
const versions = new Map([["detect.unhappy", 1], ["detect.correction", 1]]);
const noSignals = { ...DEFAULT_FEATURES, captureSignals: false };

describe("embedded features", () => {
  it("are deterministic, namespaced per field, and each block has unit norm", () => {
    const ex = makeExchange("f", { prompt: "wrong file", reply_end: "wrong file", tool_calls: [{ name: "Edit", summary: "wrong file" }] });
    const a = extractFeatures(ex, noSignals, null);
    const b = extractFeatures(ex, noSignals, null);
    expect(Array.from(a.idx)).toEqual(Array.from(b.idx));
    expect(Array.from(a.val)).toEqual(Array.from(b.val));
    const onlyPrompt = extractFeatures(makeExchange("g", { prompt: "wrong file", reply_end: null, previous_ask: null }), noSignals, null);
    const onlyReply = extractFeatures(makeExchange("h", { prompt: "", reply_end: "wrong file", previous_ask: null }), noSignals, null);
    const shared = [...onlyPrompt.idx].filter((j) => onlyReply.idx.includes(j));
    // Only the shape block (first turn / length / ...) may coincide; the n-grams do not.
    expect(shared.length).toBeLessThanOrEqual(3);
    let ss = 0;
    a.val.forEach((v) => (ss += v * v));
    expect(ss).toBeCloseTo(4, 10); // prompt, reply, tools and shape blocks, each of norm 1
    expect(Math.max(...a.idx)).toBeLessThan(1 << DEFAULT_FEATURES.bits);
  });
  it("add the capture signals as their own block when a signal source is given", () => {
    const ex = makeExchange("s", { prompt: "NO. WRONG AGAIN." });
    const source = () => ({ signals: ["correction.en.no_opener", "frustration.caps"], frustration: 2, kind: "correction" });
    const without = extractFeatures(ex, DEFAULT_FEATURES, null);
    const withSignals = extractFeatures(ex, DEFAULT_FEATURES, source);
    expect(withSignals.idx.length).toBe(without.idx.length + 4);
  });
});

describe("embedded training", () => {
  const sets = [syntheticSet(1), syntheticSet(2, 40, 0.1, "synth2")];
  it("is deterministic: the same data give byte-identical weights, stable through parse and serialise", () => {
    const a = serialiseWeights(trainEmbedded(sets, { versions, l2: 1, features: noSignals }));
    const b = serialiseWeights(trainEmbedded([...sets].reverse(), { versions, l2: 1, features: noSignals }));
    expect(a).toBe(b);
    expect(serialiseWeights(parseWeights(a))).toBe(a);
    expect(a.split("\n")[1]).toMatch(/^"features": /); // keys sorted
  });
  it("leaves the holdout sessions out and records the split and the target", () => {
    const w = trainEmbedded(sets, { versions, l2: 1, features: noSignals });
    const train = sets[0]!.exchanges.filter((e) => !isHoldout(e.corpus, e.session_id)).length + sets[1]!.exchanges.filter((e) => !isHoldout(e.corpus, e.session_id)).length;
    expect(w.questions["detect.unhappy@1"]!.n).toBe(train);
    expect(train).toBeLessThan(500);
    expect(w.split.holdoutExcluded).toBe(true);
    expect(w.target).toMatch(/soft target/);
    expect(w.questions["detect.unhappy@1"]!.converged).toBe(true);
  });
  it("skips questions with too few labels or not in the bank, with a reason", () => {
    const base = syntheticSet(3, 10);
    const set = { ...base, labels: [...base.labels, { schema: "label/1" as const, exchange_id: base.exchanges[0]!.id, labeler: "x", question: "detect.nonexistent", value: true, origin: "t" }] };
    const w = trainEmbedded([set], { versions, l2: 1, features: noSignals, minPerClass: 50 });
    expect(w.skipped["detect.unhappy@1"]).toMatch(/too few labelled items/);
    expect(w.skipped["detect.nonexistent"]).toMatch(/not in the bank/);
  });
  it("chooses L2 per question by session-grouped cross-validation when asked", () => {
    const w = trainEmbedded([syntheticSet(1)], { versions, l2: "cv", features: noSignals });
    expect([0.1, 0.3, 1, 3, 10]).toContain(w.questions["detect.unhappy@1"]!.l2);
    expect(w.l2).toBe("cv");
  });
});

describe("the embedded lane as an engine", () => {
  const weights = trainEmbedded([syntheticSet(1), syntheticSet(4)], { versions, l2: 1, features: noSignals });
  it("answers with a probability, in order, and separates complaints from thanks", async () => {
    const engine = createEngine({ lane: "embedded", weights, signals: null });
    const bad = makeExchange("b1", { prompt: "No, that's wrong. (12)", reply_end: "I replaced the file with a new version." });
    const good = makeExchange("g1", { prompt: "Thanks, looks good. (7)", reply_end: "Done: the change is in src/app.ts." });
    const answers = await engine.ask([{ exchange: bad, question: unhappy }, { exchange: good, question: unhappy }], { caller: "t" });
    expect(answers.map((a) => a.exchange_id)).toEqual([bad.id, good.id]);
    expect(answers.every((a) => a.status === "scored" && a.lane === "embedded" && a.computed_from === "model")).toBe(true);
    expect(answers[0]!.p_yes!).toBeGreaterThan(0.7);
    expect(answers[1]!.p_yes!).toBeLessThan(0.3);
    expect(engine.model).toMatch(/^hashed-logreg\/[0-9a-f]{12}$/);
  });
  it("answers unscored (never no) for a question without weights, or a version it was not trained on", async () => {
    const engine = createEngine({ lane: "embedded", weights, signals: null });
    const ex = makeExchange("u");
    const [a, b] = await engine.ask([{ exchange: ex, question: correction }, { exchange: ex, question: { ...unhappy, version: 2 } }], { caller: "t" });
    expect(a).toMatchObject({ status: "unscored", p_yes: null, reason: "no weights for question detect.correction@1" });
    expect(b).toMatchObject({ status: "unscored", reason: "no weights for question detect.unhappy@2" });
  });
  it("refuses to score with weights that need the capture signals when they are missing", async () => {
    const withSignals = { ...weights, features: { ...weights.features, captureSignals: true } };
    const [a] = await createEngine({ lane: "embedded", weights: withSignals, signals: null }).ask([{ exchange: makeExchange("z"), question: unhappy }], { caller: "t" });
    expect(a!.status).toBe("unscored");
    expect(a!.reason).toMatch(/capture classifier's signals/);
  });
  it("with no weights at all, every answer is unscored", async () => {
    const [a] = await createEngine({ lane: "embedded", weights: null }).ask([{ exchange: makeExchange("n"), question: unhappy }], { caller: "t" });
    expect(a).toMatchObject({ status: "unscored", reason: "no embedded weights file is available" });
  });
});

const abLabels = join(repoRoot, "datasets", "ab-redial", "labels.jsonl");
describe.skipIf(!existsSync(abLabels))("on the bundled AB-ReDial data", () => {
  it("a model trained on the training sessions ranks the holdout's unhappy turns well (AUC > 0.7)", () => {
    const set = readLabelledSet(abLabels);
    const w = trainEmbedded([set], { versions, l2: 1, features: noSignals });
    const rows = evaluateEmbedded([set], w, createScorer(w, null), { versions });
    const row = rows.find((r) => r.question === "detect.unhappy@1")!;
    expect(row.items).toBeGreaterThan(80);
    expect(row.auc!).toBeGreaterThan(0.7);
    expect(row.brier!).toBeLessThan(0.13);
    expect(row.labellersFleiss!).toBeGreaterThan(0.2);
  });
});
