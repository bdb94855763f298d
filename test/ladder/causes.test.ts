// The cause nouls and their offline answer: the small cause model, trained on the synthetic
// train phrasings and measured on the held-out ones (synthetic, and said so).
import { describe, expect, it } from "vitest";
import { causeQuestions, causesHash } from "../../questions/index.js";
import { causeModel, causeQuality, trainCauseModel } from "../../runtime/ladder/causes.js";
import { causeItems } from "../../runtime/ladder/cause-data.js";
import { CAUSES } from "../../schemas/rule-ledger.js";
import { QuestionSchema } from "../../schemas/question.js";

describe("the cause nouls", () => {
  it("one valid noul per cause class, in the classes' order, with their own hash", () => {
    expect(causeQuestions.map((q) => q.id)).toEqual(CAUSES.map((c) => `cause.${c}`));
    for (const q of causeQuestions) expect(QuestionSchema.safeParse(q).success).toBe(true);
    expect(causesHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("the train and held-out phrasings are disjoint (the held-out figure is on unseen wordings)", () => {
    const train = new Set(causeItems("train", 1, 10).map((i) => i.prompt.replace(/\b(pnpm|yarn|uv|bun|ruff|npm|pip|poetry|black|Finnish|Spanish|German|Japanese)\b/g, "_")));
    const held = causeItems("heldout", 1, 10).map((i) => i.prompt.replace(/\b(pnpm|yarn|uv|bun|ruff|npm|pip|poetry|black|Finnish|Spanish|German|Japanese)\b/g, "_"));
    expect(held.filter((p) => train.has(p))).toEqual([]);
  });

  it("the model answers the bank's own examples and is deterministic", () => {
    const m = causeModel();
    const again = trainCauseModel();
    expect(again.weights.W).toEqual(m.weights.W);
    const wrong: string[] = [];
    causeQuestions.forEach((q, k) => {
      for (const ex of q.positive) if (m.classify(ex.prompt, ex.reply_end) !== CAUSES[k]) wrong.push(`${q.id}: ${ex.prompt}`);
    });
    // The bank's examples are a third, independent set of wordings: most, not all, must land.
    process.stdout.write(`cause model on the bank's 10 positive examples: ${10 - wrong.length} right${wrong.length ? `; wrong: ${wrong.join(" | ")}` : ""}\n`);
    expect(wrong.length).toBeLessThanOrEqual(3);
  });

  it("held-out quality (synthetic): accuracy and macro-F1 reported, above chance by a wide margin", () => {
    const q = causeQuality(causeModel());
    process.stdout.write(`cause model, held-out synthetic phrasings: ${q.items} items, accuracy ${q.accuracy.toFixed(3)}, macro-F1 ${q.macroF1.toFixed(3)}\n`);
    expect(q.data).toBe("synthetic");
    expect(q.items).toBe(60);
    expect(q.accuracy).toBeGreaterThan(0.6); // chance is 0.2
  });
});
