import type { Answer } from "../schemas/answer.js";
import type { Question } from "../schemas/question.js";

/**
 * What the composers read: per question id, P(yes), or null when the judge's answer was
 * unscored. An absent key means the question was never asked. Both are "missing" to a
 * composer: never a "no".
 */
export type AnswerTable = ReadonlyMap<string, number | null>;

/**
 * Builds one exchange's table from raw answers. Only answers to the current version of a
 * bank question count (an answer to an older version is stale, so absent). When several
 * answers exist for one question, the last scored one wins; an unscored one stands only
 * when nothing was scored.
 *
 * Example: `[{question_id: "detect.unhappy", question_version: 1, status: "scored",
 * p_yes: 0.8, …}]` → `Map {"detect.unhappy" => 0.8}`.
 */
export function answerTable(answers: readonly Answer[], questions: readonly Question[]): Map<string, number | null> {
  const version = new Map(questions.map((q) => [q.id, q.version]));
  const table = new Map<string, number | null>();
  for (const a of answers) {
    if (version.get(a.question_id) !== a.question_version) continue;
    if (a.status === "scored") table.set(a.question_id, a.p_yes);
    else if (!table.has(a.question_id)) table.set(a.question_id, null);
  }
  return table;
}
