import type { Answer, Lane } from "../../../schemas/answer.js";
import type { UnscoredReasonCode } from "../../../schemas/answer.js";
import type { AnswerCache } from "./cache.js";
import { reasonCodeOf } from "./reason-code.js";
import type { AskOptions, AskPair } from "./types.js";

/**
 * Building answers, and the loop every lane shares: look each pair up in the cache, ask the
 * rest, keep the order, report progress, cache what scored.
 *
 * Example: `unscored(base, "no weights for question mode.x@1")` -> `{status: "unscored", p_yes: null, …}`.
 */
export type AnswerBase = Pick<Answer, "schema" | "exchange_id" | "question_id" | "question_version" | "lane" | "model" | "prompt_hash" | "ts">;

const RAW_MAX = 2000;

export function baseAnswer(pair: AskPair, lane: Lane, model: string, promptHash: string, ts: string): AnswerBase {
  return { schema: "answer/1", exchange_id: pair.exchange.id, question_id: pair.question.id, question_version: pair.question.version, lane, model, prompt_hash: promptHash, ts };
}

// Answers are written as one literal in schema order (not a spread of the base): the embedded
// lane makes hundreds of thousands of them, and a literal is several times cheaper.

/**
 * A scored answer. P(yes) is clamped to [0, 1]; a value that is not a finite number (NaN
 * from a broken reading) is no probability at all, so the answer is unscored with that reason.
 */
export function scored(base: AnswerBase, pYes: number, from: string, raw: string, latencyMs: number, costUsd: number): Answer {
  if (!Number.isFinite(pYes)) return unscored(base, `the judge's P(yes) is not a finite number (found ${pYes})`, raw, latencyMs, costUsd);
  return {
    schema: "answer/1",
    exchange_id: base.exchange_id,
    question_id: base.question_id,
    question_version: base.question_version,
    lane: base.lane,
    model: base.model,
    prompt_hash: base.prompt_hash,
    status: "scored",
    p_yes: Math.min(1, Math.max(0, pYes)),
    computed_from: from,
    reason: null,
    raw: raw.length > RAW_MAX ? raw.slice(0, RAW_MAX) : raw,
    latency_ms: latencyMs > 0 ? latencyMs : 0,
    cost_usd: costUsd,
    ts: base.ts,
  };
}

/** An unscored answer; its `reason_code` is read from the reason's shape unless given. */
export function unscored(base: AnswerBase, reason: string, raw = "", latencyMs = 0, costUsd = 0, code: UnscoredReasonCode = reasonCodeOf(reason)): Answer {
  return {
    schema: "answer/1",
    exchange_id: base.exchange_id,
    question_id: base.question_id,
    question_version: base.question_version,
    lane: base.lane,
    model: base.model,
    prompt_hash: base.prompt_hash,
    status: "unscored",
    p_yes: null,
    computed_from: null,
    // A reason is what an unscored answer carries; an empty one would say nothing.
    reason: reason === "" ? "(the judge gave no reason)" : reason,
    reason_code: code,
    raw: raw.length > RAW_MAX ? raw.slice(0, RAW_MAX) : raw,
    latency_ms: latencyMs > 0 ? latencyMs : 0,
    cost_usd: costUsd,
    ts: base.ts,
  };
}

export interface EngineStats {
  calls: number;
  cacheHits: number;
  refused: number;
}

/** Splits pairs into cache hits (filled into `out`) and the indices still to ask. */
export function lookUp(pairs: readonly AskPair[], opts: AskOptions, cache: AnswerCache | null, keysOf: (pair: AskPair) => string[], stats: EngineStats, out: (Answer | undefined)[]): number[] {
  const pending: number[] = [];
  pairs.forEach((pair, i) => {
    if (cache && !opts.noCache) {
      for (const key of keysOf(pair)) {
        const hit = cache.get(key);
        if (hit) {
          stats.cacheHits++;
          out[i] = { ...hit, exchange_id: pair.exchange.id };
          return;
        }
      }
    }
    pending.push(i);
  });
  return pending;
}

export async function runPairs(
  pairs: readonly AskPair[],
  opts: AskOptions,
  cache: AnswerCache | null,
  stats: EngineStats,
  keysOf: (pair: AskPair) => string[],
  ask: (pair: AskPair) => Promise<{ answer: Answer; key: string | null }>,
): Promise<Answer[]> {
  const out: (Answer | undefined)[] = new Array(pairs.length);
  const pending = lookUp(pairs, opts, cache, keysOf, stats, out);
  let done = pairs.length - pending.length;
  if (done > 0) opts.onProgress?.(done, pairs.length);
  try {
    await Promise.all(
      pending.map(async (i) => {
        const { answer, key } = await ask(pairs[i]!);
        out[i] = answer;
        if (cache && key !== null) cache.put(key, answer);
        done++;
        opts.onProgress?.(done, pairs.length);
      }),
    );
  } finally {
    cache?.flush();
  }
  return out as Answer[];
}
