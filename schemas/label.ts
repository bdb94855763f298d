import { z } from "zod";

/**
 * One labeller's answer to one question for one exchange.
 *
 * `question` is a bank question id (e.g. "detect.unhappy"), or one of the corpus-native
 * keys below, which importers write beside the bank mapping:
 * - "satisfaction": a 1-5 rating (USS, AB-ReDial overall)
 * - "breakdown": "O" | "T" | "X" (DBDC3)
 * - "class": a v3 failure class name
 * Value: boolean for yes/no questions, number for ratings, string for categories.
 */
export const LabelSchema = z.object({
  schema: z.literal("label/1"),
  exchange_id: z.string(),
  /** A rater id where the data has one, else a positional id such as "ab-redial:r1". */
  labeler: z.string().min(1),
  question: z.string().min(1),
  value: z.union([z.boolean(), z.number().finite(), z.string()]),
  /** Where it came from: "import:<format>" or "sheet:<file>". */
  origin: z.string(),
});
export type Label = z.infer<typeof LabelSchema>;

/** The question id that corpus dissatisfaction labels map onto (rating <= 2 -> true). */
export const DETECT_UNHAPPY = "detect.unhappy";
