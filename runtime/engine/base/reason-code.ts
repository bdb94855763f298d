import type { UnscoredReasonCode } from "../../../schemas/answer.js";

/**
 * The closed reason of an unscored answer, read from its free-text detail. The engine's lanes
 * word their reasons in a few fixed shapes (`lane.ts`, `reply.ts`, `batch.ts`, `budget.ts`,
 * the embedded and replay lanes), so one table serves both the writer (`unscored()` stamps
 * `reason_code` on every new answer) and the reader of records written before the code
 * existed: an old and a new answer with the same detail get the same code.
 *
 * Example: `reasonCodeOf("gave up after 3 attempts: HTTP 503: busy")` -> "unavailable";
 * `reasonCodeOf("timeout: gave up after 1 attempt: DeadlineError: …")` -> "timeout".
 */
const SHAPES: ReadonlyArray<readonly [RegExp, UnscoredReasonCode]> = [
  [/^timeout:/, "timeout"],
  [/budget(?: of caller \S+)? exhausted|^lane budget exhausted/, "budget_exhausted"],
  [/^gave up after \d+ attempts?:/, "unavailable"],
  [/^malformed|no top_logprobs/, "malformed_reply"],
  [/^neither yes nor no/, "no_yes_no"],
  [/^the server supports neither/, "unsupported_server"],
  [/^batch /, "batch_failed"],
  [/^no embedded weights|^no weights for/, "no_weights"],
  [/^no stored answer/, "no_stored_answer"],
  [/P\(yes\) is not a finite number/, "not_a_probability"],
  // A non-retryable API error, as describeError words it: "HTTP 400: …".
  [/^HTTP \d{3}\b/, "refused_request"],
];

export function reasonCodeOf(reason: string): UnscoredReasonCode {
  for (const [shape, code] of SHAPES) if (shape.test(reason)) return code;
  return "other";
}
