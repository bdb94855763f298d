import { z } from "zod";

export const LaneSchema = z.enum(["embedded", "openai", "replay"]);
export type Lane = z.infer<typeof LaneSchema>;

/** The fields every answer carries, scored or not. */
const AnswerCommon = {
  schema: z.literal("answer/1"),
  exchange_id: z.string(),
  question_id: z.string(),
  question_version: z.number().int().positive(),
  lane: LaneSchema,
  model: z.string(),
  prompt_hash: z.string(),
  /** The raw reply text, truncated to 2,000 characters. */
  raw: z.string(),
  latency_ms: z.number().nonnegative(),
  cost_usd: z.number().nonnegative(),
  ts: z.string(),
};

const PROBABILITY = 'a probability in [0, 1] (status "scored")';

/**
 * A scored answer: P(yes), a finite number in [0, 1], and how it was computed; no reason.
 * Example: `{status: "scored", p_yes: 0.83, computed_from: "logprobs", reason: null, …}`.
 */
export const ScoredAnswerSchema = z.object({
  ...AnswerCommon,
  status: z.literal("scored"),
  p_yes: z.number({ error: PROBABILITY }).min(0, { error: PROBABILITY }).max(1, { error: PROBABILITY }),
  /** How p_yes was computed: "logprobs", "structured", "batch:…", "model" (embedded), "replay". */
  computed_from: z.string({ error: 'how p_yes was computed (status "scored")' }),
  reason: z.null({ error: 'no reason (status "scored")' }),
});
export type ScoredAnswer = z.infer<typeof ScoredAnswerSchema>;

/**
 * Why an answer is unscored, as a closed union (a report tallies these, never free text):
 *
 * - `timeout`: the call ran out of time (every attempt, or the batch's);
 * - `unavailable`: the server refused or dropped the call on every attempt (429, 5xx, lost connection);
 * - `refused_request`: the server rejected the request itself (a 4xx other than 408/409/429);
 * - `malformed_reply`: the reply could not be read (not a chat completion, not JSON, no content);
 * - `no_yes_no`: the reply was read but held neither "yes" nor "no" among its top tokens;
 * - `unsupported_server`: the server offers neither log-probabilities nor structured replies;
 * - `budget_exhausted`: a caller's or lane's budget refused the call before it was made;
 * - `batch_failed`: a batch request failed or the batch ended without its result;
 * - `no_weights`: the offline lane has no weights for the question (or none at all);
 * - `no_stored_answer`: the replay lane holds no answer for the pair;
 * - `not_a_probability`: the judge's P(yes) was not a finite number;
 * - `other`: none of these (the free-text `reason` says what).
 */
export const UNSCORED_REASON_CODES = [
  "timeout",
  "unavailable",
  "refused_request",
  "malformed_reply",
  "no_yes_no",
  "unsupported_server",
  "budget_exhausted",
  "batch_failed",
  "no_weights",
  "no_stored_answer",
  "not_a_probability",
  "other",
] as const;
export const UnscoredReasonCodeSchema = z.enum(UNSCORED_REASON_CODES);
export type UnscoredReasonCode = z.infer<typeof UnscoredReasonCodeSchema>;

/**
 * An unscored answer: why the judge's answer could not be used, and no probability. It is
 * never counted as "no". `reason_code` is the closed reason; `reason` the free-text detail.
 * Records written before the code existed have none: readers derive it from the detail
 * (`reasonCodeOf` in runtime/engine), the same function writers use. Example:
 * `{status: "unscored", p_yes: null, computed_from: null, reason_code: "unavailable",
 * reason: "gave up after 3 attempts: HTTP 503", …}`.
 */
export const UnscoredAnswerSchema = z.object({
  ...AnswerCommon,
  status: z.literal("unscored"),
  p_yes: z.null({ error: 'no probability (status "unscored")' }),
  computed_from: z.null({ error: 'nothing computed (status "unscored")' }),
  reason: z.string({ error: 'a reason (status "unscored")' }).min(1, { error: 'a non-empty reason (status "unscored")' }),
  reason_code: UnscoredReasonCodeSchema.optional(),
});
export type UnscoredAnswer = z.infer<typeof UnscoredAnswerSchema>;

/**
 * A judge's raw answer to one (exchange, question), a closed union on `status`: scored
 * carries P(yes), unscored carries a reason. A row that fits neither (a scored answer with
 * no number, an unscored one with a probability or no reason) is not an answer: readers
 * report it with file and line and skip it, never guess which was meant.
 */
export const AnswerSchema = z.discriminatedUnion("status", [ScoredAnswerSchema, UnscoredAnswerSchema], {
  error: 'status "scored" or "unscored"',
});
export type Answer = z.infer<typeof AnswerSchema>;
