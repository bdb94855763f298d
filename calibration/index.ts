/** Calibration: cuts from blind labels, probability calibration, reliability, the shadow gate. Pure. */
export { fitPlatt, plattPredict, type PlattModel, type PlattOptions } from "./platt.js";
export { fitIsotonic, isotonicPredict, pava, type IsotonicModel } from "./isotonic.js";
export { brierScore, logLoss, LOG_LOSS_EPS } from "./scores.js";
export { reliability, expectedCalibrationError, type Reliability, type ReliabilityBin } from "./reliability.js";
export { chooseCuts, type CutPoint, type QuestionCuts } from "./cuts.js";
export { cohenKappaFromTable } from "./kappa-table.js";
export {
  clopperPearsonUpper,
  opportunitiesNeeded,
  judgeShadowLog,
  type ShadowEvent,
  type ShadowVerdict,
} from "./shadow-gate.js";
