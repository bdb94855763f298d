/**
 * Proper scoring rules for probabilities of a yes/no outcome, with optional sample weights
 * (weighted means; the weights need not sum to one).
 *
 * Example: brierScore([0.9, 0.2, 0.6], [1, 0, 0]) = (0.01 + 0.04 + 0.36) / 3 = 0.136667;
 * logLoss([0.9, 0.2, 0.6], [1, 0, 0]) = (−ln 0.9 − ln 0.8 − ln 0.4) / 3 = 0.414932.
 */
import { CalibrationError } from "./errors.js";

/** Probabilities are clipped to [eps, 1 − eps] in the log loss, as scikit-learn ≥ 1.5 does (float64 eps). */
export const LOG_LOSS_EPS = 2.220446049250313e-16;

export function checkProbabilities(name: string, probabilities: readonly number[], labels: readonly number[], weights?: readonly number[]): void {
  if (probabilities.length === 0) throw new CalibrationError("EMPTY", name, "at least one probability", "none");
  if (labels.length !== probabilities.length) {
    throw new CalibrationError("BAD_SHAPE", name, `${probabilities.length} labels (one per probability)`, String(labels.length));
  }
  if (weights !== undefined && weights.length !== probabilities.length) {
    throw new CalibrationError("BAD_SHAPE", name, `${probabilities.length} weights`, String(weights.length));
  }
  let total = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const p = probabilities[i]!;
    if (!(p >= 0 && p <= 1)) throw new CalibrationError("BAD_VALUE", name, "probabilities in [0, 1]", `${p} at ${i}`);
    const y = labels[i];
    if (y !== 0 && y !== 1) throw new CalibrationError("BAD_VALUE", name, "labels 0 or 1", `${y} at ${i}`);
    const w = weights?.[i] ?? 1;
    if (!(w >= 0) || !Number.isFinite(w)) throw new CalibrationError("BAD_VALUE", name, "non-negative finite weights", `${w} at ${i}`);
    total += w;
  }
  if (!(total > 0)) throw new CalibrationError("BAD_VALUE", name, "a positive total weight", String(total));
}

/** Mean squared difference between probability and outcome (0 best, 1 worst). */
export function brierScore(probabilities: readonly number[], labels: readonly number[], weights?: readonly number[]): number {
  checkProbabilities("brier", probabilities, labels, weights);
  let sum = 0;
  let total = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const w = weights?.[i] ?? 1;
    const d = probabilities[i]! - labels[i]!;
    sum += w * d * d;
    total += w;
  }
  return sum / total;
}

/** Mean negative log-likelihood in nats, probabilities clipped to [eps, 1 − eps]. */
export function logLoss(probabilities: readonly number[], labels: readonly number[], weights?: readonly number[]): number {
  checkProbabilities("logLoss", probabilities, labels, weights);
  let sum = 0;
  let total = 0;
  for (let i = 0; i < probabilities.length; i++) {
    const w = weights?.[i] ?? 1;
    const p = Math.min(1 - LOG_LOSS_EPS, Math.max(LOG_LOSS_EPS, probabilities[i]!));
    sum += w * -(labels[i] === 1 ? Math.log(p) : Math.log(1 - p));
    total += w;
  }
  return sum / total;
}
