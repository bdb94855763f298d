import { COST_IDS } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import type { Cuts } from "./cuts.js";
import { tri } from "./tri.js";

export type Severity = 0 | 1 | 2 | 3;

/**
 * Severity of a failure, 1-3: one for the failure itself, plus one per cost question
 * answered yes (lost time, risky, blocked), capped at 3. Monotone: raising any cost answer's
 * P(yes) never lowers it. Null when missing cost answers leave it undetermined (two known
 * yes already give 3 whatever the third says). A non-failure is severity 0 (see `compose`).
 *
 * Example: costs {lost_time: 0.9, risky: 0.1, blocked: 0.2} under default cuts → 2.
 */
export function composeSeverity(table: AnswerTable, cuts: Cuts): 1 | 2 | 3 | null {
  const answers = COST_IDS.map((id) => tri(table, id, cuts));
  const yes = answers.filter((a) => a === true).length;
  const unknown = answers.filter((a) => a === null).length;
  const low = Math.min(3, 1 + yes);
  const high = Math.min(3, 1 + yes + unknown);
  return low === high ? (low as 1 | 2 | 3) : null;
}
