/**
 * Cohen's kappa of a judge's yes/no against a reference yes/no, from the (weighted) 2×2
 * table. Used by the cut search, which sweeps hundreds of cuts and so works from running
 * counts rather than label arrays; eval/ holds the agreement statistics between labellers.
 * Returns null when kappa is undefined (expected agreement 1: both sides constant).
 *
 * Example: cohenKappaFromTable(2, 0, 1, 3) = (5/6 − 1/2) / (1 − 1/2) = 0.6667.
 */
export function cohenKappaFromTable(tp: number, fp: number, fn: number, tn: number): number | null {
  const n = tp + fp + fn + tn;
  if (!(n > 0)) return null;
  const po = (tp + tn) / n;
  const judgeYes = (tp + fp) / n;
  const refYes = (tp + fn) / n;
  const pe = judgeYes * refYes + (1 - judgeYes) * (1 - refYes);
  if (pe >= 1 - 1e-15) return null;
  return (po - pe) / (1 - pe);
}
