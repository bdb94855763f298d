import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { DETECT_UNHAPPY } from "../../schemas/label.js";
import { QuestionSchema, type Question } from "../../schemas/question.js";
import {
  BLAME_IDS,
  bank,
  bankHash,
  CLASS_IDS,
  classById,
  classes,
  classOfQuestion,
  COST_IDS,
  DETECT_IDS,
  hashBank,
  MODE_IDS,
  modes,
  questionById,
  questionsInGroup,
  renderTaxonomyPage,
} from "../../questions/index.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("question bank integrity", () => {
  it("every question parses with the shared schema", () => {
    for (const q of bank) expect(QuestionSchema.safeParse(q).success, q.id).toBe(true);
  });

  it("ids are unique and prefixed with their group", () => {
    const ids = bank.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const q of bank) expect(q.id.startsWith(`${q.group}.`), q.id).toBe(true);
  });

  it("has the four groups, with detect.unhappy for corpus dissatisfaction labels", () => {
    expect(questionById.get(DETECT_UNHAPPY)?.group).toBe("detect");
    expect(questionsInGroup("detect").map((q) => q.id)).toEqual([...DETECT_IDS]);
    expect(questionsInGroup("blame").map((q) => q.id)).toEqual([...BLAME_IDS]);
    expect(questionsInGroup("cost").map((q) => q.id)).toEqual([...COST_IDS]);
    expect(questionsInGroup("mode")).toHaveLength(15);
  });

  it("has one mode question per failure mode, each mapped to its mode's v3 class", () => {
    expect(modes.map((m) => m.id)).toEqual([...MODE_IDS]);
    for (const m of modes) {
      const q = questionById.get(`mode.${m.id}`);
      expect(q?.maps_to_class, m.id).toBe(m.class_id);
      expect(classOfQuestion(`mode.${m.id}`)).toBe(m.class_id);
    }
    for (const q of bank) {
      if (q.group === "mode") expect(classById.has(q.maps_to_class as never), q.id).toBe(true);
      else expect(q.maps_to_class, q.id).toBeUndefined();
    }
  });

  it("has 14 classes, each reached by at least one mode", () => {
    expect(classes.map((c) => c.id)).toEqual([...CLASS_IDS]);
    expect(CLASS_IDS).toHaveLength(14);
    expect(MODE_IDS).toHaveLength(15);
    for (const c of CLASS_IDS) expect(modes.some((m) => m.class_id === c), c).toBe(true);
  });

  it("every question has at least two positive and two negative examples, all distinct", () => {
    for (const q of bank) {
      expect(q.positive.length, q.id).toBeGreaterThanOrEqual(2);
      expect(q.negative.length, q.id).toBeGreaterThanOrEqual(2);
      const keys = [...q.positive, ...q.negative].map((e) => `${e.reply_end}|${e.prompt}`);
      expect(new Set(keys).size, q.id).toBe(keys.length);
    }
  });
});

describe("bank hash", () => {
  const edit = (id: string, change: Partial<Question>): Question[] =>
    bank.map((q) => (q.id === id ? { ...q, ...change } : q));

  it("is stable: recomputing, and reordering the bank, give the same hash", () => {
    expect(hashBank(bank)).toBe(bankHash);
    expect(hashBank([...bank].reverse())).toBe(bankHash);
    expect(bankHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it("is the sha256 of the canonical form (empty bank: sha256 of '[]')", () => {
    expect(hashBank([])).toBe("sha256:4f53cda18c2baa0c0354bb5f9a3ecbe5ed12ab4d8e11ba873c2f11161202b945");
  });

  it("changes when any question's text or version changes", () => {
    for (const q of bank) {
      expect(hashBank(edit(q.id, { text: `${q.text} ` })), q.id).not.toBe(bankHash);
      expect(hashBank(edit(q.id, { version: q.version + 1 })), q.id).not.toBe(bankHash);
    }
    expect(hashBank(bank.slice(1))).not.toBe(bankHash);
  });

  it("does not change when only labelling guidance or examples change", () => {
    expect(hashBank(edit("detect.unhappy", { guidance: "other guidance" }))).toBe(bankHash);
  });
});

describe("taxonomy page", () => {
  it("docs/taxonomy.md is what the generator writes (run `errata v4 taxonomy --out docs/taxonomy.md`)", () => {
    const committed = readFileSync(path.join(repoRoot, "docs/taxonomy.md"), "utf8");
    expect(committed).toBe(renderTaxonomyPage());
  });

  it("gives every class and mode a definition, an example and a counterexample", () => {
    const page = renderTaxonomyPage();
    for (const x of [...classes, ...modes]) {
      expect(page).toContain(`### \`${x.id}\``);
      expect(page).toContain(x.definition);
    }
    expect(page.match(/- Example: /g)).toHaveLength(29);
    expect(page.match(/- Counterexample: /g)).toHaveLength(29);
  });
});

// The taxonomy cites counts from the UKP annotated dialogs; check them against the data.
const shared = process.env["ERRATA_SHARED_DATASETS"] ?? path.resolve(repoRoot, "../shared/datasets");
const ukp = path.join(shared, "ukp-free-text-feedback/data/analysis/filtered_dialogs");
describe.skipIf(!existsSync(ukp))("taxonomy evidence on the UKP free-text feedback data", () => {
  it("the error and user-response counts the taxonomy cites match the annotated dialogs", () => {
    const errors = new Map<string, number>();
    const reactions = new Map<string, number>();
    for (const set of readdirSync(ukp)) {
      const dir = path.join(ukp, set, "checked");
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir)) {
        const d = JSON.parse(readFileSync(path.join(dir, f), "utf8")) as {
          annotations?: { error_type?: string; user_reaction?: string }[];
        };
        for (const a of d.annotations ?? []) {
          if (a.error_type) errors.set(a.error_type, (errors.get(a.error_type) ?? 0) + 1);
          if (a.user_reaction) reactions.set(a.user_reaction, (reactions.get(a.user_reaction) ?? 0) + 1);
        }
      }
    }
    expect(errors.get("E1")).toBe(69);
    expect(errors.get("E6")).toBe(59);
    expect(reactions.get("UR5")).toBe(86);
    expect(reactions.get("UR4")).toBe(42);
    // Every error type seen in the data is cited as evidence by some class or mode.
    const cited = [...classes, ...modes].flatMap((x) => x.evidence).join(" ");
    for (const e of errors.keys()) expect(cited, e).toContain(`UKP ${e} `);
  });
});

describe("v3 single-choice questions", () => {
  it("one yes/no question per class, outside the bank, with its own hash", async () => {
    const { v3ClassQuestions, v3Hash, bank: b, bankHash: h } = await import("../../questions/index.js");
    expect(v3ClassQuestions.map((q) => q.maps_to_class)).toEqual([...CLASS_IDS]);
    expect(v3ClassQuestions.map((q) => q.id)).toEqual(CLASS_IDS.map((c) => `class.${c}`));
    for (const q of v3ClassQuestions) expect(QuestionSchema.safeParse(q).success, q.id).toBe(true);
    expect(b.some((q) => q.id.startsWith("class."))).toBe(false);
    expect(v3Hash).not.toBe(h);
  });
});
