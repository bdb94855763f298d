import { z } from "zod";

/**
 * Records written by `errata calibrate`: candidate configurations (never the promoted one),
 * generic calibration items for any yes/no question, and shadow-log lines.
 *
 * Example candidate: `{schema: "calibration-cuts/1", bank_hash: "9c1e…", rule: "kappa",
 * cuts: {"detect.unhappy": 0.41}, questions: [{question: "detect.unhappy", n: 120, …}]}`.
 */
const prob = z.number().min(0).max(1);

export const CutPointSchema = z.object({
  cut: prob,
  flagged: z.number().nonnegative(),
  truePositives: z.number().nonnegative(),
  precision: prob.nullable(),
  recall: prob.nullable(),
  kappa: z.number().min(-1 - 1e-9).max(1 + 1e-9).nullable(),
});

export const QuestionCutsSchema = z.object({
  question: z.string().min(1),
  n: z.number().int().nonnegative(),
  positives: z.number().nonnegative(),
  /** Items left out: no majority (a tie) or no scored answer. */
  excluded: z.object({ no_majority: z.number().int().nonnegative(), unscored: z.number().int().nonnegative() }),
  kappa_cut: CutPointSchema.nullable(),
  precision_target: prob,
  precision_cut: CutPointSchema.nullable(),
  notes: z.array(z.string()),
});
export type QuestionCutsRecord = z.infer<typeof QuestionCutsSchema>;

export const CutsCandidateSchema = z.object({
  schema: z.literal("calibration-cuts/1"),
  created_at: z.string(),
  bank_hash: z.string().nullable(),
  /** Which of the two cuts fills `cuts` ("kappa" or "precision"); both stay in `questions`. */
  rule: z.enum(["kappa", "precision"]),
  /** The registry the composers read (`composers/cuts.ts` parseCuts accepts this object). */
  cuts: z.record(z.string(), prob),
  questions: z.array(QuestionCutsSchema),
  inputs: z.record(z.string(), z.string()),
});
export type CutsCandidate = z.infer<typeof CutsCandidateSchema>;

/**
 * The judge's calibrated cuts (`<v4 dir>/cuts.json`), written by `errata calibrate use` from a
 * calibration candidate (or the cuts recorded with the judge's weights) and read by every
 * report by default when nothing is promoted (runtime/judgments/cuts.ts). Each question keeps
 * where its cut came from. `judge` null: cuts for whichever judge answered.
 *
 * Example: `{schema: "judge-cuts/1", written_at: "2026-12-06T05:30:00.000Z", judge: {lane:
 * "embedded", model: "hashed-logreg/bc69…"}, cuts: {"detect.unhappy": 0.27, "rules.rule_covers":
 * 0.41}, origins: {"detect.unhappy": "the weights …", "rules.rule_covers": "candidates/rules.rule_covers-….json"}}`
 */
export const JudgeCutsSchema = z.object({
  schema: z.literal("judge-cuts/1"),
  written_at: z.string(),
  judge: z.object({ lane: z.string(), model: z.string() }).nullable(),
  cuts: z.record(z.string(), prob),
  origins: z.record(z.string(), z.string()),
});
export type JudgeCuts = z.infer<typeof JudgeCutsSchema>;

export const PlattParamsSchema = z.object({ method: z.literal("platt"), a: z.number(), b: z.number() });
export const IsotonicParamsSchema = z.object({ method: z.literal("isotonic"), x: z.array(z.number()), y: z.array(prob) });
export const CalibratorSchema = z.discriminatedUnion("method", [
  PlattParamsSchema,
  IsotonicParamsSchema,
  z.object({ method: z.literal("none") }),
]);
export type Calibrator = z.infer<typeof CalibratorSchema>;

export const ProbabilityMetricsSchema = z.object({ ece: z.number(), brier: z.number(), log_loss: z.number() });

export const ProbabilitiesCandidateSchema = z.object({
  schema: z.literal("calibration-probabilities/1"),
  created_at: z.string(),
  bank_hash: z.string().nullable(),
  /** What the calibrators read: Platt reads logit(p) (clipped to ±20) by default, isotonic reads p. */
  platt_input: z.enum(["logit", "probability"]),
  questions: z.array(
    z.object({
      question: z.string(),
      n_fit: z.number().int().nonnegative(),
      n_eval: z.number().int().nonnegative(),
      chosen: CalibratorSchema,
      platt: PlattParamsSchema.nullable(),
      isotonic: IsotonicParamsSchema.nullable(),
      /** Scored on the evaluation items (the holdout when there is one, else the fit items, said in `evaluated_on`). */
      metrics: z.object({ raw: ProbabilityMetricsSchema, platt: ProbabilityMetricsSchema.nullable(), isotonic: ProbabilityMetricsSchema.nullable() }).nullable(),
      evaluated_on: z.enum(["holdout", "fit"]),
      notes: z.array(z.string()),
    }),
  ),
  inputs: z.record(z.string(), z.string()),
});
export type ProbabilitiesCandidate = z.infer<typeof ProbabilitiesCandidateSchema>;

/**
 * One item to calibrate a yes/no question on, for any question (a bank question, or the rules
 * pass's rule_covers and same_root_cause): what labellers see (`shown`), and the judge's P(yes).
 */
export const CalibItemSchema = z.object({
  schema: z.literal("calib-item/1"),
  item_id: z.string().min(1),
  session_id: z.string().min(1),
  question: z.string().min(1),
  p_yes: prob.nullable(),
  /** Fields shown to labellers, in order (e.g. {"failure": "...", "rule": "..."}). Never the probability. */
  shown: z.record(z.string(), z.string()),
});
export type CalibItem = z.infer<typeof CalibItemSchema>;

/** A drawn item: the item plus its band and inclusion probability (for Hajek weights). */
export const CalibDrawRowSchema = z.object({
  schema: z.literal("calib-draw/1"),
  item_id: z.string(),
  session_id: z.string(),
  question: z.string(),
  p_yes: prob.nullable(),
  band: z.number().int().nonnegative(),
  inclusion_probability: z.number().positive().max(1),
  shown: z.record(z.string(), z.string()),
  seed: z.number().int(),
});
export type CalibDrawRow = z.infer<typeof CalibDrawRowSchema>;

/** The generic fit result: one question's cuts and calibrators, a candidate for review. */
export const QuestionCandidateSchema = z.object({
  schema: z.literal("calibration-question/1"),
  created_at: z.string(),
  question: z.string(),
  cuts: QuestionCutsSchema,
  platt: PlattParamsSchema.nullable(),
  isotonic: IsotonicParamsSchema.nullable(),
  metrics: ProbabilityMetricsSchema.nullable(),
  inputs: z.record(z.string(), z.string()),
});
export type QuestionCandidate = z.infer<typeof QuestionCandidateSchema>;

/** One line of a shadow log (see calibration/shadow-gate.ts for how it is read). */
export const ShadowEventSchema = z.object({
  schema: z.literal("shadow/1"),
  check: z.string().min(1),
  session_id: z.string().min(1),
  ts: z.iso.datetime({ offset: true }),
  eligible: z.boolean(),
  violation: z.boolean(),
  fired: z.boolean(),
});
export type ShadowEventRecord = z.infer<typeof ShadowEventSchema>;
