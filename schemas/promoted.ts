import { z } from "zod";
import { ClassHeadSchema, DetectHeadSchema } from "./combiner.js";

/**
 * The promoted configuration: the only research output the runtime reads
 * (`<ledger>/promoted.json`). Written by `errata promote` only after `eval score --check`
 * passed on the holdout; carries the bank hash, the cuts, the Combiner heads, the class level
 * and second-look flag with the prompt hashes they hold for, and the check's figures.
 *
 * Example: `{schema: "promoted/1", bank_hash: "sha256:…", cuts: {"detect.unhappy": 0.41},
 * heads: {detect: {…}, class: null}, class_level: "model_judge", second_look: false,
 * prompt_hashes: {classtier: "sha256:…"}, check: {pass: true, bars: [...], …}}`
 */
const BarResultSchema = z.object({
  id: z.string(),
  description: z.string(),
  pass: z.boolean(),
  figure: z.number().nullable(),
  lower: z.number().nullable(),
  upper: z.number().nullable(),
  threshold: z.number(),
  rule: z.enum(["point", "lower", "upper"]),
  comparison: z.enum([">", ">=", "<="]).optional(),
  name: z.string(),
  reason: z.string().nullable(),
});

const FigureSchema = z.object({ point: z.number().nullable(), lower: z.number().nullable(), upper: z.number().nullable(), emptyReplicates: z.number().int() });

export const PromotedSchema = z.object({
  schema: z.literal("promoted/1"),
  promoted_at: z.string(),
  bank_hash: z.string().min(1),
  /** Per-question cuts for the composers (`composers/cuts.ts` reads `{cuts: {...}}`). */
  cuts: z.record(z.string(), z.number().min(0).max(1)),
  heads: z.object({ detect: DetectHeadSchema.nullable(), class: ClassHeadSchema.nullable() }),
  /** Who names the class at run time: the Combiner's class head, the ClassTier model judge, or the composers. */
  class_level: z.enum(["class_head", "model_judge", "composer"]),
  second_look: z.boolean(),
  /** Prompt hashes the promoted parts were measured under (classtier: the ClassTier prompt). */
  prompt_hashes: z.record(z.string(), z.string()),
  check: z.object({
    pass: z.literal(true),
    split: z.literal("holdout"),
    bars_source: z.string(),
    bars: z.array(BarResultSchema),
    detectors: z.array(z.object({ name: z.string(), scored: z.number().int(), figures: z.record(z.string(), FigureSchema) })),
    items: z.number().int(),
    gold_failures: z.number().int(),
    bootstrap: z.object({ method: z.string(), resamples: z.number().int(), seed: z.number().int(), level: z.number(), sessions: z.number().int() }),
  }),
  sources: z.record(z.string(), z.string()),
});
export type Promoted = z.infer<typeof PromotedSchema>;
