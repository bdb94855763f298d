import { answerTable, type Composition, compose, composeDetect, type Cuts, type DetectVerdict, v3Choice } from "../../composers/index.js";
import { bank, type ClassId, v3ClassQuestions } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { JudgeId } from "./judge.js";

/** Per exchange: the detect verdict, the whole composition, the v3 choice (each null when answers are missing). */
export interface Composed {
  exchange: Exchange;
  detect: DetectVerdict | null;
  composition: Composition | null;
  v3: { class_id: ClassId; p_yes: number } | null;
}

/** Groups one judge's answers by exchange id. */
export function answersByExchange(answers: readonly Answer[], judge: JudgeId): Map<string, Answer[]> {
  const out = new Map<string, Answer[]>();
  for (const a of answers) {
    if (a.lane !== judge.lane || a.model !== judge.model) continue;
    const list = out.get(a.exchange_id);
    if (list) list.push(a);
    else out.set(a.exchange_id, [a]);
  }
  return out;
}

/**
 * Composes every exchange from stored answers under the cuts: no judge is asked.
 *
 * Example: an exchange whose 8 detect and blame answers say unhappy + assistant →
 * `{detect: {is_failure: true, defect: true, …}, composition: null}` until diagnose has
 * stored its mode and cost answers.
 */
export function composeAll(exchanges: readonly Exchange[], answers: readonly Answer[], judge: JudgeId, cuts: Cuts): Composed[] {
  const byEx = answersByExchange(answers, judge);
  return exchanges.map((exchange) => {
    const rows = byEx.get(exchange.id) ?? [];
    const table = answerTable(rows, bank);
    const v3Table = answerTable(rows, v3ClassQuestions);
    return { exchange, detect: composeDetect(table, cuts), composition: compose(table, cuts), v3: v3Choice(v3Table) };
  });
}
