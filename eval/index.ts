/**
 * The evaluation toolkit's public surface: agreement, the gold-set sampler and its
 * inclusion probabilities, the session split, design-weighted scoring with paired
 * session-block bootstrap intervals, PPI++ for the corpus failure rate, and the check gate.
 * Pure: no disk, network, clock, environment or Math.random; randomness comes from seeds.
 */
export * from "./errors.js";
export * from "./prng.js";
export * from "./quantile.js";
export * from "./categories.js";
export * from "./session-block-bootstrap.js";
export * from "./combine-statistics.js";
export * from "./fleiss-kappa.js";
export * from "./cohen-kappa.js";
export * from "./krippendorff-alpha.js";
export * from "./raw-agreement.js";
export * from "./majority.js";
export * from "./agreement-report.js";
export * from "./split.js";
export * from "./sample-gold.js";
export * from "./inclusion-monte-carlo.js";
export * from "./detection-metrics.js";
export * from "./ppi-mean.js";
export * from "./check-gate.js";
export * from "./training-overlap.js";
export * from "./score-report.js";
export * from "./answer-spec.js";
export * from "./sheet.js";
export { agreementReport, type AgreementLabel, type QuestionAgreement } from "./agreement-report.js";
export { parseAnswerSpec, type AnswerSpec } from "./answer-spec.js";
export { DEFAULT_BARS, checkBars, type BarResult } from "./check-gate.js";
export { cohenKappa } from "./cohen-kappa.js";
export { METRICS } from "./detection-metrics.js";
export { EvalInputError } from "./errors.js";
export { inclusionMonteCarlo } from "./inclusion-monte-carlo.js";
export { majorityVote } from "./majority.js";
export { mulberry32 } from "./prng.js";
export { quantileSorted } from "./quantile.js";
export { drawWithPlan, planSample, sampleGold, type GoldCandidate } from "./sample-gold.js";
export { scoreDetectors, type ScoreReport } from "./score-report.js";
export { buildSheet, validateSheet, type SheetItem } from "./sheet.js";
export { DEFAULT_SPLIT_SALT, splitOfSession, type SplitSide } from "./split.js";
export * from "./ppi-design.js";
export * from "./ppi-coverage.js";
export * from "./active.js";
export * from "./active-error.js";
export * from "./active-draws.js";
export * from "./judge-bias.js";
export * from "./adjudication.js";
export * from "./adjudication-report.js";
