import { mulberry32 } from "../core/mulberry32.js";
import { shuffled } from "../core/shuffle.js";
import { CombinerInputError } from "./errors.js";

/**
 * Session-grouped folds: sessions are shuffled with the seed and dealt round-robin into k
 * folds, so no session is split across folds (an exchange's neighbours in its session never
 * leak into its validation fold).
 *
 * Example: sessionFolds(["a", "a", "b", "c"], 2, 1) → [f, f, g, h] with the two "a" items in
 * one fold; the same seed gives the same folds.
 */
export function sessionFolds(sessions: readonly string[], k: number, seed: number): number[] {
  if (!Number.isInteger(k) || k < 2) throw new CombinerInputError("BAD_OPTION", "at least 2 folds", String(k));
  const unique = [...new Set(sessions)].sort();
  if (unique.length < k) throw new CombinerInputError("TOO_FEW", `at least ${k} sessions for ${k} folds`, String(unique.length));
  const fold = new Map<string, number>();
  shuffled(unique, mulberry32(seed)).forEach((s, i) => fold.set(s, i % k));
  return sessions.map((s) => fold.get(s)!);
}

/** The L2 grid searched by default. */
export const DEFAULT_L2_GRID = [0.01, 0.1, 1, 10, 100] as const;

export interface CvPoint {
  l2: number;
  /** Mean over folds of the weighted validation log loss. */
  loss: number;
}

/**
 * Picks the L2 strength with the lowest mean validation loss; ties (within 1e-9) go to the
 * stronger penalty (the simpler model).
 */
export function pickL2(points: readonly CvPoint[]): number {
  let best: CvPoint | null = null;
  for (const p of points) if (best === null || p.loss < best.loss - 1e-9 || (Math.abs(p.loss - best.loss) <= 1e-9 && p.l2 > best.l2)) best = p;
  if (best === null) throw new CombinerInputError("EMPTY", "at least one cross-validation point", "none");
  return best.l2;
}
