import { sigmoid } from "../../../learn/index.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { WeightsFile } from "../base/schemas.js";
import { extractFeatures } from "./features.js";
import type { SignalSource } from "./signals.js";
import { compileWeights, scoreAll, weightsId, type CompiledWeights } from "./weights.js";

/**
 * Scores exchanges with the embedded weights: features once per exchange, then every
 * question's margin in one pass over the features.
 *
 * Example: `const s = createScorer(weights, signals); s.probabilities(ex).get("detect.unhappy@1")` -> 0.12.
 */
export interface Scorer {
  readonly model: string;
  readonly compiled: CompiledWeights;
  /** Null when the weights can be used; else why not (e.g. they need the capture signals). */
  readonly unusable: string | null;
  has(questionId: string, version: number): boolean;
  /** The column of "<id>@<version>" in `probabilities`, or undefined. */
  column(id: string, version: number): number | undefined;
  /** P(yes) of every question (by column) for one exchange. */
  probabilities(ex: Exchange): Float64Array;
  /** P(yes) per "<id>@<version>" for one exchange. */
  probabilityMap(ex: Exchange): Map<string, number>;
}

export function createScorer(weights: WeightsFile, signals: SignalSource | null): Scorer {
  const compiled = compileWeights(weights);
  const unusable =
    weights.features.captureSignals && signals === null
      ? "the weights were trained with the capture classifier's signals, which are not available in this build"
      : null;
  const margins = new Float64Array(compiled.nQuestions);
  const keys = [...compiled.columns.keys()];
  return {
    model: weightsId(weights),
    compiled,
    unusable,
    has: (id, version) => compiled.columns.has(`${id}@${version}`),
    column: (id, version) => compiled.columns.get(`${id}@${version}`),
    probabilities(ex) {
      const f = extractFeatures(ex, weights.features, weights.features.captureSignals ? signals : null);
      scoreAll(compiled, f.idx, f.val, margins);
      const out = new Float64Array(margins.length);
      for (let c = 0; c < margins.length; c++) out[c] = sigmoid(margins[c]!);
      return out;
    },
    probabilityMap(ex) {
      const p = this.probabilities(ex);
      return new Map(keys.map((k, c) => [k, p[c]!]));
    },
  };
}
