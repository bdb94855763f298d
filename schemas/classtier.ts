import { z } from "zod";
import { AnswerSchema } from "./answer.js";

/**
 * ClassTier's records in the v4 folder:
 * - `classtier.jsonl`: one cached model-judge answer a line, under the ClassTier prompt hash
 *   (`{schema: "classtier-answer/1", prompt_hash: "sha256:…", answer: {answer/1}}`);
 * - `classtier-level.json`: which class level ships and whether the second look is on, with
 *   the prompt hash it was measured under and the figures (`errata classtier eval --write`).
 */
export const ClassTierAnswerSchema = z.object({
  schema: z.literal("classtier-answer/1"),
  prompt_hash: z.string().min(1),
  answer: AnswerSchema,
});
export type ClassTierAnswer = z.infer<typeof ClassTierAnswerSchema>;

export const ClassTierLevelSchema = z.object({
  schema: z.literal("classtier-level/1"),
  recorded_at: z.string(),
  level: z.enum(["class_head", "model_judge"]),
  second_look: z.boolean(),
  prompt_hash: z.string().min(1),
  judge: z.object({ lane: z.string(), model: z.string() }).nullable(),
  cut: z.number().min(0).max(1),
  class_accuracy: z.object({ model_judge: z.number().nullable(), class_head: z.number().nullable(), items: z.number().int(), judge_unscored: z.number().int() }),
  second_look_figures: z.object({
    passed: z.number(),
    flags: z.number(),
    hits: z.number(),
    precision: z.number().nullable(),
    recall_gain: z.number().nullable(),
    threshold: z.number(),
  }),
  reasons: z.array(z.string()),
  inputs: z.record(z.string(), z.string()),
});
export type ClassTierLevel = z.infer<typeof ClassTierLevelSchema>;
