import { z } from "zod";
import { AnswerSchema } from "../../../schemas/answer.js";
import { TRAINING_ITEM_HASH } from "../../../core/training-item.js";

/**
 * The engine's own records that cross a file boundary: cache rows, the weights file,
 * the batch state file and the config file. Types come from these schemas.
 */

/** One cached answer: `{"schema":"engine-cache/1","key":"c7d1…","answer":{…answer/1…}}`. */
export const CacheRowSchema = z.object({
  schema: z.literal("engine-cache/1"),
  key: z.string().regex(/^[0-9a-f]{32}$/),
  answer: AnswerSchema,
});
export type CacheRow = z.infer<typeof CacheRowSchema>;

const Finite = z.number().finite();

/** One question's model: intercept and the non-zero weights as parallel arrays (indices ascending). */
export const QuestionWeightsSchema = z.object({
  intercept: Finite,
  idx: z.array(z.number().int().nonnegative()),
  w: z.array(Finite),
  /** Training items (exchanges), positives (weighted by vote share) and the fit's outcome. */
  n: z.number().int().nonnegative(),
  positives: z.number().nonnegative(),
  converged: z.boolean(),
  iterations: z.number().int().nonnegative(),
  /** The L2 strength this question was fitted with. */
  l2: z.number().positive(),
  /** The cut on P(yes) that maximised kappa against the majority label on the training split. */
  cut: z.number().min(0).max(1),
  /**
   * What trained this question, per set: items and (vote-share) positives on the training side,
   * whether the set is synthetic (and its seed). Absent in weights written before it existed.
   */
  trainedBy: z.array(z.object({ set: z.string(), synthetic: z.boolean(), seed: z.number().int().nullable(), items: z.number().int().nonnegative(), positives: z.number().nonnegative() })).optional(),
  /** Non-zero weights before the cap on features per question (when the cap applied and the model was refitted on the kept features). */
  cappedFrom: z.number().int().nonnegative().optional(),
});
export type QuestionWeights = z.infer<typeof QuestionWeightsSchema>;

export const FeatureSpecSchema = z.object({
  version: z.literal("features/1"),
  /** log2 of the hashed space. */
  bits: z.number().int().min(8).max(24),
  wordNgrams: z.array(z.number().int().positive()),
  charNgrams: z.array(z.number().int().positive()),
  /** Characters kept from the end of the reply. */
  replyEndChars: z.number().int().positive(),
  /** Whether the capture classifier's signals and frustration enter as features. */
  captureSignals: z.boolean(),
});
export type FeatureSpec = z.infer<typeof FeatureSpecSchema>;

/** The embedded lane's weights file (`datasets/weights/embedded.json`). */
export const WeightsFileSchema = z.object({
  schema: z.literal("engine-weights/1"),
  features: FeatureSpecSchema,
  /** A fixed strength, or "cv" (chosen per question; see each question's `l2`). */
  l2: z.union([z.number().positive(), z.literal("cv")]),
  /** Features seen in fewer training exchanges than this were dropped before fitting. */
  minDf: z.number().int().positive(),
  /** How labels became targets, in words. */
  target: z.string(),
  /** How the holdout was split off (excluded from training unless stated). */
  split: z.object({ method: z.string(), holdoutExcluded: z.boolean() }),
  /** The data it was trained on: set name and SHA-256 of the files read. */
  trainedOn: z.array(
    z.object({
      set: z.string(),
      exchangesSha256: z.string(),
      labelsSha256: z.string(),
      items: z.number().int().nonnegative(),
      /** A synthetic set generated at train time: the generator's seed and session count (regenerate to check the hashes). */
      synthetic: z.object({ seed: z.number().int(), sessions: z.number().int().positive() }).optional(),
      /** How corpus-native labels became bank labels (e.g. "ukp-taxonomy/1"). */
      labelMap: z.string().optional(),
      /** "every-turn": labels on every turn of the set; "flagged-turns": only on turns selected for a failure. */
      population: z.enum(["every-turn", "flagged-turns"]).optional(),
      /**
       * Every item trained on, as `trainingItemHash(corpus, exchange_id)` (core/training-item.ts),
       * sorted: lets a scorer mark or refuse holdout items the weights have already seen.
       */
      itemHashes: z.array(z.string().regex(TRAINING_ITEM_HASH)).optional(),
    }),
  ),
  /** Which sets may train a question (in words), when a policy chose among them. */
  sourcePolicy: z.string().optional(),
  /** The most non-zero weights a question keeps (larger models refitted on their top features by |weight|). */
  maxFeatures: z.number().int().positive().optional(),
  /** Keyed "<question id>@<version>". */
  questions: z.record(z.string().regex(/^[a-z]+\.[a-z0-9_]+@\d+$/), QuestionWeightsSchema),
  /**
   * SHA-256 of the capture classifier's verdicts on the training exchanges (null when trained
   * without signals): a different value today means the classifier changed since training.
   */
  signalsFingerprint: z.string().nullable().optional(),
  /** Questions that had labels but could not be fitted, with the reason. */
  skipped: z.record(z.string(), z.string()),
});
export type WeightsFile = z.infer<typeof WeightsFileSchema>;

/** Batch state: enough to resume polling and matching after an interruption. */
export const BatchStateSchema = z.object({
  schema: z.literal("engine-batch/1"),
  /** Hash of the request file's content: a different request set starts a new batch. */
  inputSha256: z.string(),
  model: z.string(),
  inputFileId: z.string().nullable(),
  batchId: z.string().nullable(),
  status: z.string(),
  outputFileId: z.string().nullable(),
  errorFileId: z.string().nullable(),
  createdAt: z.string(),
});
export type BatchState = z.infer<typeof BatchStateSchema>;
