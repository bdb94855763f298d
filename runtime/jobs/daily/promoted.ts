import { existsSync, readFileSync } from "node:fs";
import { answerTable, type Cuts } from "../../../composers/index.js";
import { classDistribution } from "../../../combiner/index.js";
import type { Engine } from "../../engine/index.js";
import { bank, bankHash, questionById, v3ClassQuestions } from "../../../questions/index.js";
import { PromotedSchema, type Promoted } from "../../../schemas/promoted.js";
import type { Question } from "../../../schemas/question.js";
import type { ClassJudge } from "./enrich-embedded.js";

/**
 * The promoted configuration (helper F's `<ledgerDir>/promoted.json`, `promoted/1`), the
 * only configuration the daily run uses. Absent: nothing is promoted and the v4 pass runs in
 * shadow. Present but not a valid `promoted/1`, or promoted under another bank: treated as
 * absent, and `problem` says why (the run prints it).
 *
 * Example: `readPromoted(".../promoted.json")` -> `{promoted: {...}, describe: "bank 3f2a9c1b, class level class_head", problem: null}`.
 */
export interface PromotedInfo {
  promoted: Promoted | null;
  describe: string | null;
  problem: string | null;
}

export function readPromoted(path: string): PromotedInfo {
  if (!existsSync(path)) return { promoted: null, describe: null, problem: null };
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return { promoted: null, describe: null, problem: "promoted.json is not JSON: running in shadow" };
  }
  const parsed = PromotedSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { promoted: null, describe: null, problem: `promoted.json is not a promoted/1 configuration (${issue?.path.join(".") ?? ""}: ${issue?.message ?? "?"}): running in shadow` };
  }
  const p = parsed.data;
  if (p.bank_hash !== bankHash) {
    return { promoted: null, describe: null, problem: `promoted.json was promoted under another question bank (${p.bank_hash.slice(0, 12)}, now ${bankHash.slice(0, 12)}): running in shadow` };
  }
  return { promoted: p, describe: `bank ${p.bank_hash.replace(/^sha256:/, "").slice(0, 8)}, class level ${p.class_level}`, problem: null };
}

/** The cuts of the promoted configuration; none promoted: the composers' defaults. */
export function promotedCuts(p: Promoted | null): Cuts {
  return p?.cuts ?? {};
}

/**
 * The class judge the promoted configuration names: the Combiner's class head over the
 * engine's probabilities when `class_level` is `class_head`; otherwise (composer, or the
 * model judge, which needs the OpenAI lane and a matching prompt hash) the v3 single choice
 * stands in. Returns the judge and who it is.
 */
export function classHeadJudge(engine: Engine, caller: string, head: Pick<NonNullable<Promoted["heads"]["class"]>, "questions" | "classes" | "standardiser" | "W" | "b">): ClassJudge {
  const questions = head.questions.map((id) => questionById.get(id) ?? v3ClassQuestions.find((q) => q.id === id)).filter((q): q is Question => q !== undefined);
  const labeler = `class-head:${engine.lane}/${engine.model}`;
  return async (exchanges) => {
    const pairs = exchanges.flatMap((exchange) => questions.map((question) => ({ exchange, question })));
    const answers = pairs.length > 0 ? await engine.ask(pairs, { caller }) : [];
    const n = questions.length;
    return exchanges.map((_, i) => {
      const slice = answers.slice(i * n, (i + 1) * n);
      if (slice.some((a) => a.status !== "scored")) return { class: null, confidence: null, labeler };
      const top = classDistribution(head, answerTable(slice, [...bank, ...v3ClassQuestions]))[0];
      return top ? { class: top.cls, confidence: top.p, labeler } : { class: null, confidence: null, labeler };
    });
  };
}
