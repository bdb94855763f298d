/**
 * The Combiner's features for one exchange: for every question in a fixed list, the engine's
 * P(yes), its logit (p clipped to [1e-4, 1 − 1e-4], so |logit| ≤ 9.21), and a missing flag
 * (1 when the answer is absent or unscored; p and logit are then 0.5 and 0, never a "no").
 * Standardised with the fit rows' means and standard deviations, stored with the model.
 *
 * Example: rawFeatures(new Map([["detect.unhappy", 0.9]]), ["detect.unhappy", "blame.world"])
 * → [0.9, 2.1972, 0, 0.5, 0, 1].
 */
import { CombinerInputError } from "./errors.js";
export type AnswerTable = ReadonlyMap<string, number | null>;

const CLIP = 1e-4;

export function logit(p: number): number {
  const q = Math.min(1 - CLIP, Math.max(CLIP, p));
  return Math.log(q / (1 - q));
}

export function featureNames(questions: readonly string[]): string[] {
  return questions.flatMap((q) => [`${q}:p`, `${q}:logit`, `${q}:missing`]);
}

export function rawFeatures(table: AnswerTable, questions: readonly string[]): number[] {
  const out: number[] = [];
  for (const q of questions) {
    const p = table.get(q);
    if (p === undefined || p === null || !Number.isFinite(p)) out.push(0.5, 0, 1);
    else out.push(p, logit(p), 0);
  }
  return out;
}

export interface Standardiser {
  means: number[];
  sds: number[];
}

/** Means and standard deviations per column (sd 1 for a constant column, so it stays 0). */
export function fitStandardiser(rows: readonly (readonly number[])[]): Standardiser {
  if (rows.length === 0) throw new CombinerInputError("EMPTY", "at least one row to standardise", "none");
  const d = rows[0]!.length;
  const means = new Array<number>(d).fill(0);
  const sds = new Array<number>(d).fill(0);
  for (const r of rows) for (let j = 0; j < d; j++) means[j] = means[j]! + r[j]! / rows.length;
  for (const r of rows) for (let j = 0; j < d; j++) sds[j] = sds[j]! + (r[j]! - means[j]!) ** 2 / rows.length;
  return { means, sds: sds.map((v) => (v > 1e-12 ? Math.sqrt(v) : 1)) };
}

export function standardise(row: readonly number[], s: Standardiser): number[] {
  return row.map((v, j) => (v - s.means[j]!) / s.sds[j]!);
}
