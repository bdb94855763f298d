import { CLASS_IDS, type ClassId } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";

/**
 * The v3 single choice: the class whose `class.<id>` question has the largest P(yes); ties
 * go to the earlier class in CLASS_IDS. Null when any of the 14 answers is missing or
 * unscored (never a guess from a partial set).
 *
 * Example: P(yes) {class.fabrication: 0.7, class.off_topic: 0.4, others 0.1} →
 * `{class_id: "fabrication", p_yes: 0.7}`.
 */
export function v3Choice(table: AnswerTable): { class_id: ClassId; p_yes: number } | null {
  let best: { class_id: ClassId; p_yes: number } | null = null;
  for (const c of CLASS_IDS) {
    const p = table.get(`class.${c}`);
    if (p === undefined || p === null || !Number.isFinite(p)) return null;
    if (best === null || p > best.p_yes) best = { class_id: c, p_yes: p };
  }
  return best;
}
