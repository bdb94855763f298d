import type { Question, QuestionGroup } from "../schemas/question.js";
import { blameQuestions } from "./blame.js";
import { costQuestions } from "./cost.js";
import { detectQuestions } from "./detect.js";
import { hashBank } from "./hash.js";
import { modeQuestions } from "./mode.js";
import type { ClassId, ModeId } from "./taxonomy.js";

/**
 * The question bank: every noul in four groups (detect, blame, mode, cost), its hash and
 * lookups. The public surface of `questions/`.
 *
 * Example: `bank.length` → 26 (4 detect, 4 blame, 15 mode, 3 cost);
 * `questionById.get("detect.unhappy")?.group` → `"detect"`.
 */
export const bank: readonly Question[] = [...detectQuestions, ...blameQuestions, ...modeQuestions, ...costQuestions];

export const bankHash: string = hashBank(bank);

export const questionById: ReadonlyMap<string, Question> = new Map(bank.map((q) => [q.id, q]));

export function questionsInGroup(group: QuestionGroup): Question[] {
  return bank.filter((q) => q.group === group);
}

/** The mode question for a failure mode: `mode.<id>`. */
export function modeQuestionId(mode: ModeId): string {
  return `mode.${mode}`;
}

/** The v3 class a mode question maps to, or null for a question that is not a mode question. */
export function classOfQuestion(questionId: string): ClassId | null {
  const q = questionById.get(questionId);
  return q?.group === "mode" && q.maps_to_class !== undefined ? (q.maps_to_class as ClassId) : null;
}

export const DETECT_IDS = ["detect.unhappy", "detect.correction", "detect.repeat", "detect.confused"] as const;
export const BLAME_IDS = ["blame.assistant", "blame.world", "blame.change_of_mind", "blame.host"] as const;
export const COST_IDS = ["cost.lost_time", "cost.risky", "cost.blocked"] as const;

export { hashBank, canonicalBank } from "./hash.js";
export { renderBrief } from "./brief.js";
export { renderTaxonomyPage } from "./taxonomy-page.js";
export * from "./taxonomy.js";
export { v3ClassQuestions, v3Hash } from "./v3.js";
export { recommendationSubject, recommendChecksHash, recommendCheckQuestions, rulesHash, rulesQuestions, ruleSubject } from "./rules.js";
export { causeQuestions, causesHash } from "./causes.js";
export { blameQuestions, costQuestions, detectQuestions, modeQuestions };
export { CLASS_IDS, MODE_IDS, classes, modeById, type ClassId, type ModeId } from "./taxonomy.js";
