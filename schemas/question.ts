import { z } from "zod";

export const QuestionGroupSchema = z.enum(["detect", "blame", "mode", "cost", "rules"]);
export type QuestionGroup = z.infer<typeof QuestionGroupSchema>;

/** An example exchange for a question, in the brief and in tests. */
export const QuestionExampleSchema = z.object({
  reply_end: z.string().nullable(),
  prompt: z.string(),
  note: z.string().optional(),
});

/**
 * A noul: one small yes/no question asked of a judge about an exchange.
 * Example: `{id: "detect.unhappy", version: 1, group: "detect", text: "Is the person unhappy
 * with the assistant's previous reply?", …}`
 */
export const QuestionSchema = z.object({
  id: z.string().regex(/^[a-z]+\.[a-z0-9_]+$/),
  version: z.number().int().positive(),
  group: QuestionGroupSchema,
  /** The text asked of a judge. */
  text: z.string().min(1),
  /** Guidance for labellers. */
  guidance: z.string().min(1),
  positive: z.array(QuestionExampleSchema).min(2),
  negative: z.array(QuestionExampleSchema).min(2),
  /** For mode questions: the v3 class it maps to. */
  maps_to_class: z.string().optional(),
});
export type Question = z.infer<typeof QuestionSchema>;
