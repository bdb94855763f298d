import { cohenKappaFromTable } from "./kappa-table.js";
import { CalibrationError } from "./errors.js";

/**
 * Per-question cuts from blind labels. A judge says "yes" when its probability is at or above
 * the cut. Two cuts are reported side by side:
 * - the kappa cut: the cut whose yes/no agrees best with the labellers' majority (Cohen's
 *   kappa; ties broken towards the higher cut, which flags less);
 * - the precision cut: among cuts whose precision reaches the target, the one with the highest
 *   recall (ties towards the higher cut); null when no cut reaches it.
 * Counts are weighted by the sample weights (inverse inclusion probabilities give the Hajek
 * ratios of DESIGN.md); unit weights by default.
 *
 * Example: p = [0.9, 0.8, 0.7, 0.4, 0.3, 0.1], majority = [1, 1, 0, 1, 0, 0], target 0.9:
 * kappa cut 0.8 (precision 1, recall 0.667, kappa 0.667); precision cut 0.8.
 */
export interface CutPoint {
  cut: number;
  /** Weighted counts at this cut. */
  flagged: number;
  truePositives: number;
  /** null when nothing is flagged. */
  precision: number | null;
  /** null when there are no positives. */
  recall: number | null;
  kappa: number | null;
}

export interface QuestionCuts {
  n: number;
  positives: number;
  kappaCut: CutPoint | null;
  precisionTarget: number;
  precisionCut: CutPoint | null;
  /** Why a cut is null, if one is. */
  notes: string[];
  /** Every candidate cut, highest first: the data for a precision-recall or kappa plot. */
  curve: CutPoint[];
}

export function chooseCuts(
  probabilities: readonly number[],
  majority: readonly (0 | 1)[],
  options: { precisionTarget: number; weights?: readonly number[] },
): QuestionCuts {
  const n = probabilities.length;
  if (n === 0) throw new CalibrationError("EMPTY", "cuts", "at least one labelled probability", "none");
  if (majority.length !== n) throw new CalibrationError("BAD_SHAPE", "cuts", `${n} majority labels`, String(majority.length));
  const { weights, precisionTarget } = options;
  if (weights !== undefined && weights.length !== n) throw new CalibrationError("BAD_SHAPE", "cuts", `${n} weights`, String(weights.length));
  if (!(precisionTarget > 0 && precisionTarget <= 1)) throw new CalibrationError("BAD_OPTION", "cuts", "a precision target in (0, 1]", String(precisionTarget));
  let total = 0;
  let positives = 0;
  for (let i = 0; i < n; i++) {
    const p = probabilities[i]!;
    if (!(p >= 0 && p <= 1)) throw new CalibrationError("BAD_VALUE", "cuts", "probabilities in [0, 1]", `${p} at ${i}`);
    const w = weights?.[i] ?? 1;
    if (!(w >= 0) || !Number.isFinite(w)) throw new CalibrationError("BAD_VALUE", "cuts", "non-negative finite weights", `${w} at ${i}`);
    total += w;
    if (majority[i] === 1) positives += w;
  }
  const order = probabilities.map((_, i) => i).sort((i, j) => probabilities[j]! - probabilities[i]!);
  const curve: CutPoint[] = [];
  let flagged = 0;
  let tp = 0;
  for (let k = 0; k < n; k++) {
    const i = order[k]!;
    const w = weights?.[i] ?? 1;
    flagged += w;
    if (majority[i] === 1) tp += w;
    const next = order[k + 1];
    if (next !== undefined && probabilities[next] === probabilities[i]) continue;
    const fp = flagged - tp;
    const fn = positives - tp;
    const tn = total - flagged - fn;
    curve.push({
      cut: probabilities[i]!,
      flagged,
      truePositives: tp,
      // Weighted sums added in another order can leave tp a rounding error above its total.
      precision: flagged > 0 ? Math.min(1, tp / flagged) : null,
      recall: positives > 0 ? Math.min(1, tp / positives) : null,
      kappa: cohenKappaFromTable(tp, fp, fn, tn),
    });
  }
  const notes: string[] = [];
  let kappaCut: CutPoint | null = null;
  for (const c of curve) if (c.kappa !== null && (kappaCut === null || c.kappa > kappaCut.kappa! + 1e-12)) kappaCut = c;
  if (kappaCut === null) notes.push("kappa undefined at every cut (the labels or the flags are all one value)");
  let precisionCut: CutPoint | null = null;
  for (const c of curve) {
    if (c.precision === null || c.precision < precisionTarget - 1e-12) continue;
    if (precisionCut === null || (c.recall ?? 0) > (precisionCut.recall ?? 0) + 1e-12) precisionCut = c;
  }
  if (precisionCut === null) notes.push(`no cut reaches precision ${precisionTarget}`);
  return { n, positives, kappaCut, precisionTarget, precisionCut, notes, curve };
}
