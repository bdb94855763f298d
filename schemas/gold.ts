import { z } from "zod";

/**
 * The gold set written by `errata eval sample`: one `gold-item/1` line per drawn exchange
 * in `gold.jsonl`, and a `gold-manifest/1` JSON file beside it with the design.
 *
 * Example line: `{"schema": "gold-item/1", "exchange_id": "ex-…", "session_id": "F1#2",
 * "stratum": "failure", "inclusion_probability": 0.25, "inclusion_method": "exact",
 * "design_weight": 4, "weight": 3.87, "split": "holdout"}`
 */
export const StratumSchema = z.enum(["failure", "other", "unscored"]);
export const SplitSideSchema = z.enum(["fit", "holdout"]);

export const GoldItemSchema = z.object({
  schema: z.literal("gold-item/1"),
  exchange_id: z.string().min(1),
  session_id: z.string().min(1),
  stratum: StratumSchema,
  inclusion_probability: z.number().gt(0).max(1),
  inclusion_method: z.enum(["exact", "monte-carlo"]),
  /** Standard error of a Monte Carlo probability; 0 when exact. */
  inclusion_se: z.number().min(0),
  /** 1 / inclusion probability. */
  design_weight: z.number().min(1),
  /** Design weight calibrated within the stratum to the corpus count (Hajek). */
  weight: z.number().positive(),
  split: SplitSideSchema,
});
export type GoldItem = z.infer<typeof GoldItemSchema>;

const Counts = z.object({ failure: z.number().int().min(0), other: z.number().int().min(0), unscored: z.number().int().min(0) });

export const GoldManifestSchema = z.object({
  schema: z.literal("gold-manifest/1"),
  created: z.string(),
  seed: z.number().int(),
  n: z.number().int().positive(),
  per_session: z.number().int().min(2),
  failures: z.number().int().min(0),
  holdout_share: z.number().min(0).max(1),
  split_salt: z.string(),
  method: z.string(),
  corpus: Counts.extend({ items: z.number().int().min(0), sessions: z.number().int().min(0) }),
  pool: Counts,
  drawn: Counts,
  shortfall: z.object({ failure: z.number().int().min(0), total: z.number().int().min(0) }),
  split: z.object({ fit: z.number().int().min(0), holdout: z.number().int().min(0), fit_sessions: z.number().int().min(0), holdout_sessions: z.number().int().min(0) }),
  sources: z.object({ exchanges: z.array(z.string()), failures: z.array(z.string()), failure_detector: z.string().nullable() }),
  monte_carlo_check: z
    .object({
      replicates: z.number().int().positive(),
      seed: z.number().int(),
      max_abs_z: z.number(),
      max_se: z.number(),
      /** Eligible items compared (every corpus item, drawn or not), and how many have probability 0. */
      items: z.number().int().min(0).optional(),
      zero_probability: z.number().int().min(0).optional(),
    })
    .nullable(),
});
export type GoldManifest = z.infer<typeof GoldManifestSchema>;
