/** Calibration: cuts from blind labels, probability calibration, reliability, the shadow gate. Pure. */
export { fitPlatt, plattPredict, type PlattModel, type PlattOptions } from "./platt.js";
export { fitIsotonic, isotonicPredict, pava, type IsotonicModel } from "./isotonic.js";
export { brierScore, logLoss, LOG_LOSS_EPS } from "./scores.js";
export { reliability, expectedCalibrationError, BINNING, type Reliability, type ReliabilityBin } from "./reliability.js";
export { chooseCuts, type CutPoint, type QuestionCuts } from "./cuts.js";
export { cohenKappaFromTable } from "./kappa-table.js";
export {
  clopperPearsonUpper,
  opportunitiesNeeded,
  sequentialEvidence,
  sequentialOpportunitiesNeeded,
  sequentialPassTable,
  judgeShadowLog,
  type ShadowEvent,
  type ShadowVerdict,
} from "./shadow-gate.js";
export { calibrateQuestion, applyCalibrator, metricsOf, plattScore, type PlattInput, type QuestionCalibration, type ChosenCalibrator, type Metrics } from "./probabilities.js";
export { assembleQuestion, cutsForItems, yesNoQuestions, type LabelledItem, type AnswerLike, type LabelLike } from "./labelled.js";
export { mulberry32, shuffled, type RandomSource } from "./random.js";
export { CalibrationError, type CalibrationErrorCode } from "./errors.js";
export { drawForCalibration, bandOf, type DrawableItem, type DrawnItem } from "./draw.js";
export { renderCalibBrief, renderCalibSheet, csvField, type BriefQuestion, type BriefItem } from "./brief.js";
export { rateChangeTest, quadraticSpend, lookSpend, type RateChange, type RateChangeOptions, type RateChangeVerdict, type SessionCell, type LookResult } from "./rate-change.js";
export { holdoutInterval, clusterWilson, wilson, newcombeDifference, type HoldoutInterval, type ArmInterval, type ClusterCount } from "./holdout-interval.js";
export { holdoutPower, type HoldoutPower } from "./holdout-power.js";
export { judgeConsistency, type RepeatedAsk, type QuestionConsistency } from "./consistency.js";
