import { fitIsotonic, isotonicPredict, type IsotonicModel } from "./isotonic.js";
import { fitPlatt, plattPredict, type PlattModel } from "./platt.js";
import { brierScore, logLoss } from "./scores.js";
import { expectedCalibrationError } from "./reliability.js";

/**
 * Calibrating one question's probabilities against labels: fit Platt and isotonic on the fit
 * items, score raw, Platt and isotonic on the evaluation items (ECE with 10 equal-mass bins,
 * Brier, log loss) and choose one.
 *
 * Where we differ from scikit-learn: Platt reads logit(p) (p clipped to [1e-9, 1 − 1e-9])
 * by default, not p itself as sklearn does for a classifier with predict_proba, so that an
 * already-calibrated judge is the fixed point a = −1, b = 0. Pass input "probability" for
 * sklearn's behaviour.
 *
 * Choice: on a holdout, the lowest log loss among raw, Platt and isotonic (ties to the
 * simpler); scored on the fit items only, isotonic's in-sample fit flatters it, so the rule
 * is Platt when it beats raw, else raw.
 *
 * Example: a judge that says 0.9 for items that are yes half the time gets a Platt map that
 * brings 0.9 down to about 0.5.
 */
export type PlattInput = "logit" | "probability";

export interface Metrics {
  ece: number;
  brier: number;
  log_loss: number;
}

export type ChosenCalibrator = { method: "none" } | PlattModel | IsotonicModel;

export interface QuestionCalibration {
  n_fit: number;
  n_eval: number;
  chosen: ChosenCalibrator;
  platt: PlattModel | null;
  isotonic: IsotonicModel | null;
  metrics: { raw: Metrics; platt: Metrics | null; isotonic: Metrics | null } | null;
  evaluated_on: "holdout" | "fit";
  notes: string[];
}

const CLIP = 1e-9;

export function plattScore(p: number, input: PlattInput): number {
  if (input === "probability") return p;
  const q = Math.min(1 - CLIP, Math.max(CLIP, p));
  return Math.log(q / (1 - q));
}

/** Applies a calibrator to one raw probability. */
export function applyCalibrator(cal: ChosenCalibrator, p: number, input: PlattInput): number {
  if (cal.method === "platt") return plattPredict(cal, plattScore(p, input));
  if (cal.method === "isotonic") return Math.min(1, Math.max(0, isotonicPredict(cal, p)));
  return p;
}

export function metricsOf(p: readonly number[], y: readonly (0 | 1)[], w?: readonly number[]): Metrics {
  return { ece: expectedCalibrationError(p, y, w), brier: brierScore(p, y, w), log_loss: logLoss(p, y, w) };
}

export interface LabelledProbability {
  p: number;
  y: 0 | 1;
  w: number;
}

export function calibrateQuestion(
  fit: readonly LabelledProbability[],
  evaluation: readonly LabelledProbability[] | null,
  input: PlattInput = "logit",
): QuestionCalibration {
  const notes: string[] = [];
  const positives = fit.filter((r) => r.y === 1).length;
  const negatives = fit.length - positives;
  const evalSet = evaluation && evaluation.length > 0 ? evaluation : fit;
  const evaluatedOn = evaluation && evaluation.length > 0 ? "holdout" : "fit";
  if (evaluatedOn === "fit") notes.push("no holdout items: metrics are in-sample");
  if (positives < 2 || negatives < 2) {
    notes.push(`too few labels to fit (expected at least 2 yes and 2 no, found ${positives} yes and ${negatives} no)`);
    const metrics = evalSet.length > 0 ? { raw: metricsOf(evalSet.map((r) => r.p), evalSet.map((r) => r.y), evalSet.map((r) => r.w)), platt: null, isotonic: null } : null;
    return { n_fit: fit.length, n_eval: evalSet.length, chosen: { method: "none" }, platt: null, isotonic: null, metrics, evaluated_on: evaluatedOn, notes };
  }
  const platt = fitPlatt(fit.map((r) => plattScore(r.p, input)), fit.map((r) => r.y), fit.map((r) => r.w));
  const isotonic = fitIsotonic(fit.map((r) => r.p), fit.map((r) => r.y), fit.map((r) => r.w));
  const y = evalSet.map((r) => r.y);
  const w = evalSet.map((r) => r.w);
  const raw = metricsOf(evalSet.map((r) => r.p), y, w);
  const pm = metricsOf(evalSet.map((r) => applyCalibrator(platt, r.p, input)), y, w);
  const im = metricsOf(evalSet.map((r) => applyCalibrator(isotonic, r.p, input)), y, w);
  let chosen: ChosenCalibrator = { method: "none" };
  if (evaluatedOn === "holdout") {
    let best = raw.log_loss;
    if (pm.log_loss < best - 1e-12) {
      chosen = platt;
      best = pm.log_loss;
    }
    if (im.log_loss < best - 1e-12) chosen = isotonic;
  } else if (pm.log_loss < raw.log_loss - 1e-12) chosen = platt;
  return { n_fit: fit.length, n_eval: evalSet.length, chosen, platt, isotonic, metrics: { raw, platt: pm, isotonic: im }, evaluated_on: evaluatedOn, notes };
}
