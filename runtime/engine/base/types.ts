import type { Answer, Lane } from "../../../schemas/answer.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";

/** One thing to ask: a question about an exchange. */
export interface AskPair {
  exchange: Exchange;
  question: Question;
}

export interface AskOptions {
  /** The named caller whose budget pays, e.g. "errata-triage", "errata-coverage". */
  caller: string;
  /** Force asking even when the cache holds an answer. */
  noCache?: boolean;
  /** Called as answers arrive, for progress on stderr. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * The judgment layer. Every judge runs through it: ask a batch of (exchange, question)
 * pairs and get one Answer per pair, in order. An answer that cannot be used is
 * `status: "unscored"` with a reason, never a "no".
 */
export interface Engine {
  readonly lane: Lane;
  readonly model: string;
  ask(pairs: readonly AskPair[], opts: AskOptions): Promise<Answer[]>;
  /** How many calls were actually sent (cache hits excluded), for tests and reports. */
  readonly stats: { calls: number; cacheHits: number; refused: number };
}
