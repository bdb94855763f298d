import { z } from "zod";

/**
 * A fitted Combiner, as written by `errata combiner fit`: the detect head and the class head
 * with everything needed to predict, the bank hash they were fitted under (loading under
 * another bank is refused), the seed and the cross-validation figures.
 *
 * Example: `{schema: "combiner/1", bank_hash: "9c1e…", seed: 1, detect: {l2: 1, cut: 0.42, …},
 * class: {classes: ["fabrication", …], l2: 10, …}}`
 */
const Standardiser = z.object({ means: z.array(z.number()), sds: z.array(z.number().positive()) });
const CvPoint = z.object({ l2: z.number().positive(), loss: z.number() });

export const DetectHeadSchema = z.object({
  target: z.string(),
  questions: z.array(z.string()),
  standardiser: Standardiser,
  coef: z.array(z.number()),
  intercept: z.number(),
  l2: z.number().positive(),
  cut: z.number().min(0).max(1),
  cv: z.array(CvPoint),
  outOfFold: z
    .object({ cut: z.number(), flagged: z.number(), truePositives: z.number(), precision: z.number().nullable(), recall: z.number().nullable(), kappa: z.number().nullable() })
    .nullable(),
  n: z.number().int().nonnegative(),
  positives: z.number().int().nonnegative(),
});

export const ClassHeadSchema = z.object({
  target: z.string(),
  questions: z.array(z.string()),
  classes: z.array(z.string()).min(2),
  standardiser: Standardiser,
  W: z.array(z.array(z.number())),
  b: z.array(z.number()),
  l2: z.number().positive(),
  cv: z.array(CvPoint),
  n: z.number().int().nonnegative(),
});

export const CombinerSchema = z.object({
  schema: z.literal("combiner/1"),
  created_at: z.string(),
  bank_hash: z.string().min(1),
  seed: z.number().int(),
  folds: z.number().int().min(2),
  detect: DetectHeadSchema.nullable(),
  class: ClassHeadSchema.nullable(),
  inputs: z.record(z.string(), z.string()),
  notes: z.array(z.string()),
});
export type CombinerRecord = z.infer<typeof CombinerSchema>;
