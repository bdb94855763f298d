import { COST_IDS } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import type { Cuts } from "./cuts.js";
import { yesMap } from "./detect.js";

export type Severity = 0 | 1 | 2 | 3;

/**
 * Severity of a failure, 1-3: one for the failure itself, plus one per cost question
 * answered yes (lost time, risky, blocked), capped at 3. Monotone: raising any cost answer's
 * P(yes) never lowers it. Null when a cost answer is missing. (A non-failure is severity 0;
 * see `compose`.)
 *
 * Example: costs {lost_time: 0.9, risky: 0.1, blocked: 0.2} under default cuts → 2.
 */
export function composeSeverity(table: AnswerTable, cuts: Cuts): 1 | 2 | 3 | null {
  const yes = yesMap(table, COST_IDS, cuts);
  if (yes === null) return null;
  const n = COST_IDS.filter((id) => yes.get(id) === true).length;
  return Math.min(3, 1 + n) as 1 | 2 | 3;
}
