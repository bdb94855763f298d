import { z } from "zod";

export const LaneSchema = z.enum(["embedded", "openai", "replay"]);
export type Lane = z.infer<typeof LaneSchema>;

/**
 * A judge's raw answer to one (exchange, question): P(yes) and what it was computed from,
 * or `unscored` with a reason. An unscored answer is never counted as "no".
 */
export const AnswerSchema = z.object({
  schema: z.literal("answer/1"),
  exchange_id: z.string(),
  question_id: z.string(),
  question_version: z.number().int().positive(),
  lane: LaneSchema,
  model: z.string(),
  prompt_hash: z.string(),
  status: z.enum(["scored", "unscored"]),
  /** Probability of yes in [0, 1]; null when unscored. */
  p_yes: z.number().min(0).max(1).nullable(),
  /** How p_yes was computed: "logprobs", "structured", "model" (embedded), "replay". */
  computed_from: z.string().nullable(),
  /** Why the answer could not be used (unscored only). */
  reason: z.string().nullable(),
  /** The raw reply text, truncated to 2,000 characters. */
  raw: z.string(),
  latency_ms: z.number().nonnegative(),
  cost_usd: z.number().nonnegative(),
  ts: z.string(),
});
export type Answer = z.infer<typeof AnswerSchema>;
