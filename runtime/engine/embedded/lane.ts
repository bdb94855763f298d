import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";
import { canonicalJson, sha256Hex } from "../base/hash.js";
import type { FeatureSpec, WeightsFile } from "../base/schemas.js";
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
  private readonly memo = new Map<Exchange, { probs: Float64Array; ms: number }>();

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

  /** The column of a question's model, or why it cannot be answered. */
  columnOf(q: Pick<Question, "id" | "version">): { column: number } | { reason: string } {
    if (this.scorer === null) return { reason: "no embedded weights file is available" };
    if (this.scorer.unusable !== null) return { reason: this.scorer.unusable };
    const column = this.scorer.column(q.id, q.version);
    return column === undefined ? { reason: `no weights for question ${q.id}@${q.version}` } : { column };
  }

  /**
   * Every question's P(yes) for one exchange and the time it took; one feature pass per
   * exchange serves all the questions asked of it in a batch.
   */
  probabilitiesOf(ex: Exchange): { probs: Float64Array; ms: number } {
    let m = this.memo.get(ex);
    if (!m) {
      if (this.memo.size > 4096) this.memo.clear();
      const t0 = performance.now();
      const probs = (this.scorer as Scorer).probabilities(ex);
      m = { probs, ms: performance.now() - t0 };
      this.memo.set(ex, m);
    }
    return m;
  }

  answer(ex: Exchange, q: Pick<Question, "id" | "version">): EmbeddedReading {
    const c = this.columnOf(q);
    if ("reason" in c) return { ok: false, reason: c.reason };
    const p = this.probabilitiesOf(ex).probs[c.column]!;
    return { ok: true, pYes: p, raw: `p_yes=${p.toFixed(6)}` };
  }

  /** Forget per-exchange results (between batches: the same id may carry other text). */
  reset(): void {
    this.memo.clear();
  }
}
