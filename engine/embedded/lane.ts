import type { Exchange } from "../../schemas/exchange.js";
import type { Question } from "../../schemas/question.js";
import { canonicalJson, sha256Hex } from "../hash.js";
import type { FeatureSpec, WeightsFile } from "../schemas.js";
import { createScorer, type Scorer } from "./scorer.js";
import type { SignalSource } from "./signals.js";

/**
 * The embedded lane: answers from the shipped (or given) logistic weights, offline, no key.
 * A question without trained weights is unscored with the reason
 * "no weights for question <id>@<version>", never "no".
 *
 * Example: `lane.answer(ex, detectUnhappy)` -> `{ok: true, pYes: 0.12, raw: "p_yes=0.120000"}`.
 */
export type EmbeddedReading = { ok: true; pYes: number; raw: string } | { ok: false; reason: string };

/** The embedded lane's prompt hash: the feature spec and the question (its id and version). */
export function embeddedPromptHash(features: FeatureSpec | null, q: Pick<Question, "id" | "version">): string {
  return sha256Hex(canonicalJson({ template: "embedded/1", features, question: { id: q.id, version: q.version } }), 16);
}

export class EmbeddedLane {
  readonly model: string;
  private readonly scorer: Scorer | null;
  private readonly memo = new Map<string, Float64Array>();

  constructor(
    readonly weights: WeightsFile | null,
    signals: SignalSource | null,
  ) {
    this.scorer = weights === null ? null : createScorer(weights, signals);
    this.model = this.scorer?.model ?? "hashed-logreg/none";
  }

  get features(): FeatureSpec | null {
    return this.weights?.features ?? null;
  }

  answer(ex: Exchange, q: Pick<Question, "id" | "version">): EmbeddedReading {
    if (this.scorer === null) return { ok: false, reason: "no embedded weights file is available" };
    if (this.scorer.unusable !== null) return { ok: false, reason: this.scorer.unusable };
    const column = this.scorer.column(q.id, q.version);
    if (column === undefined) return { ok: false, reason: `no weights for question ${q.id}@${q.version}` };
    // One feature pass per exchange serves every question asked of it in this batch.
    let probs = this.memo.get(ex.id);
    if (!probs) {
      if (this.memo.size > 4096) this.memo.clear();
      probs = this.scorer.probabilities(ex);
      this.memo.set(ex.id, probs);
    }
    const p = probs[column] as number;
    return { ok: true, pYes: p, raw: `p_yes=${p.toFixed(6)}` };
  }

  /** Forget per-exchange results (between batches: the same id may carry other text). */
  reset(): void {
    this.memo.clear();
  }
}
