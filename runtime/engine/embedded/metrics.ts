/**
 * Scores for a probability judge against binary truth, and agreement among raters. Pure.
 * Empty or one-class input has an explicit policy: the score is `null` ("insufficient data"),
 * never 0 or NaN.
 *
 * Examples: `auc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])` -> 0.75;
 * `brier([0.9, 0.2], [1, 0])` -> 0.025; `logLoss([0.5], [1])` -> 0.6931…;
 * `cohenKappaBinary([1, 1, 0, 0], [1, 0, 0, 0])` -> 0.5;
 * `fleissKappa` on Fleiss (1971) as printed in Wikipedia's "Fleiss' kappa" -> 0.20993.
 */
import { LOG_LOSS_EPS } from "../../../calibration/index.js";

/** Area under the ROC curve (Mann-Whitney U with ties counted half); null without both classes. */
export function auc(p: readonly number[], y: readonly (0 | 1)[]): number | null {
  const n = p.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (p[a]!) - (p[b]!));
  let pos = 0;
  for (const v of y) pos += v;
  const neg = n - pos;
  if (pos === 0 || neg === 0) return null;
  // Midranks over tied scores.
  let rankSumPos = 0;
  let i = 0;
  while (i < n) {
    let j = i;
    while (j + 1 < n && p[order[j + 1]!] === p[order[i]!]) j++;
    const midrank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (y[order[k]!] === 1) rankSumPos += midrank;
    i = j + 1;
  }
  return (rankSumPos - (pos * (pos + 1)) / 2) / (pos * neg);
}

/** Mean squared error of the probabilities; null when empty. */
export function brier(p: readonly number[], y: readonly (0 | 1)[]): number | null {
  if (p.length === 0) return null;
  let s = 0;
  p.forEach((pi, i) => (s += (pi - (y[i] as number)) ** 2));
  return s / p.length;
}

/** Mean negative log-likelihood, probabilities clipped to [eps, 1 - eps] with calibration's one clip (LOG_LOSS_EPS); null when empty. */
export function logLoss(p: readonly number[], y: readonly (0 | 1)[]): number | null {
  if (p.length === 0) return null;
  const eps = LOG_LOSS_EPS;
  let s = 0;
  p.forEach((pi, i) => {
    const q = Math.min(1 - eps, Math.max(eps, pi));
    s -= y[i] === 1 ? Math.log(q) : Math.log(1 - q);
  });
  return s / p.length;
}

/** Cohen's kappa of two binary raters; null when empty or chance agreement is 1. */
export function cohenKappaBinary(a: readonly (0 | 1)[], b: readonly (0 | 1)[]): number | null {
  const n = a.length;
  if (n === 0) return null;
  let agree = 0;
  let a1 = 0;
  let b1 = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === b[i]) agree++;
    a1 += a[i] as number;
    b1 += b[i] as number;
  }
  const po = agree / n;
  const pe = (a1 / n) * (b1 / n) + (1 - a1 / n) * (1 - b1 / n);
  return pe === 1 ? null : (po - pe) / (1 - pe);
}

/**
 * Fleiss' kappa for items rated by a varying number of raters (each item needs >= 2):
 * `counts[i][c]` = raters who put item i in category c. P_i = (sum_c n_ic^2 - n_i) /
 * (n_i (n_i - 1)), P-bar = mean P_i, p_c = pooled share of all ratings, Pe = sum p_c^2.
 * With a constant number of raters this is Fleiss (1971). Null when Pe = 1 or no item qualifies.
 */
export function fleissKappa(counts: readonly (readonly number[])[]): { kappa: number | null; items: number; po: number | null; pe: number | null } {
  let sumP = 0;
  let items = 0;
  const totals: number[] = [];
  let all = 0;
  for (const row of counts) {
    let ni = 0;
    let sq = 0;
    for (const c of row) {
      ni += c;
      sq += c * c;
    }
    if (ni < 2) continue;
    items++;
    sumP += (sq - ni) / (ni * (ni - 1));
    row.forEach((c, j) => (totals[j] = (totals[j] ?? 0) + c));
    all += ni;
  }
  if (items === 0) return { kappa: null, items: 0, po: null, pe: null };
  const po = sumP / items;
  let pe = 0;
  for (const t of totals) pe += ((t ?? 0) / all) ** 2;
  return { kappa: pe === 1 ? null : (po - pe) / (1 - pe), items, po, pe };
}

/**
 * The cut on p that maximises Cohen's kappa against y; flags p >= cut. Ties between cuts
 * (within 1e-12) go to the higher cut, which flags less: the rule of calibration's
 * `chooseCuts`, so the engine and the calibration loop pick the same cut on the same data.
 * Deterministic. Returns 0.5 when y holds one class.
 */
export function bestKappaCut(p: readonly number[], y: readonly (0 | 1)[]): number {
  const n = p.length;
  let pos = 0;
  for (const v of y) pos += v;
  if (n === 0 || pos === 0 || pos === n) return 0.5;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (p[b]!) - (p[a]!));
  // Sweep cuts from the highest score down: flag everything >= the cut.
  let flagged = 0;
  let flaggedPos = 0;
  let best = 0.5;
  let bestKappa = -Infinity;
  let i = 0;
  while (i < n) {
    const c = p[order[i]!]!;
    while (i < n && p[order[i]!] === c) {
      flagged++;
      flaggedPos += y[order[i]!] as number;
      i++;
    }
    const po = (flaggedPos + (n - flagged - (pos - flaggedPos))) / n;
    const pe = (flagged / n) * (pos / n) + (1 - flagged / n) * (1 - pos / n);
    if (pe === 1) continue;
    const k = (po - pe) / (1 - pe);
    if (k > bestKappa + 1e-12) {
      bestKappa = k;
      best = c;
    }
  }
  return best;
}
