import type { WeightsFile } from "../base/schemas.js";
import { loadShippedWeights } from "./shipped.js";
import { weightsId } from "./weights.js";

/**
 * The cuts recorded with the embedded lane's weights, as composer cuts (question id -> cut):
 * each question's `cut` is the one that maximised Cohen's kappa against the raters' majority
 * on its training side (`train.ts`). They belong to that model's probabilities only, so they
 * apply to answers whose judge is that model (lane "embedded", model = the weights' id), never
 * to another lane's P(yes). Callers prefer a cuts file, then the promoted configuration's cuts,
 * then these; a question with none of them composes at the composers' default 0.5, and every
 * report says which applied (`origin`).
 *
 * Example: `calibratedCutsFor({lane: "embedded", model: "hashed-logreg/9f0c…"})` with the shipped
 * weights of that id -> `{cuts: {"detect.unhappy": 0.27, …}, origin: "calibrated with the weights
 * hashed-logreg/9f0c… (training-side kappa cut per question)"}`; another model -> null.
 */
export interface CutsWithOrigin {
  cuts: Readonly<Record<string, number>>;
  origin: string;
}

/** `{question id: cut}` from a weights file's "<id>@<version>" keys (one version per id; the highest wins). */
export function weightsCuts(weights: WeightsFile): Record<string, number> {
  const best = new Map<string, { version: number; cut: number }>();
  for (const [key, q] of Object.entries(weights.questions)) {
    const at = key.lastIndexOf("@");
    const id = at > 0 ? key.slice(0, at) : key;
    const version = at > 0 ? Number(key.slice(at + 1)) : 0;
    const seen = best.get(id);
    if (seen === undefined || version > seen.version) best.set(id, { version, cut: q.cut });
  }
  return Object.fromEntries([...best.entries()].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([id, v]) => [id, v.cut]));
}

export function weightsCutsWithOrigin(weights: WeightsFile): CutsWithOrigin {
  return { cuts: weightsCuts(weights), origin: `calibrated with the weights ${weightsId(weights)} (training-side kappa cut per question)` };
}

/** The cuts recorded with the weights of the judge that gave the answers; null when the judge is not the shipped embedded model. */
export function calibratedCutsFor(judge: { lane: string; model: string } | null, weights: WeightsFile | null = loadShippedWeights()): CutsWithOrigin | null {
  if (judge === null || judge.lane !== "embedded" || weights === null || judge.model !== weightsId(weights)) return null;
  return weightsCutsWithOrigin(weights);
}

/** The origin printed when no cut applies but the composers' default. */
export const DEFAULT_CUTS_ORIGIN = "default 0.5 for every question (no cuts file, no promoted configuration, no cuts recorded for this judge)";
