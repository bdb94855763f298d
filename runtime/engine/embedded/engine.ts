import type { Answer } from "../../../schemas/answer.js";
import type { Question } from "../../../schemas/question.js";
import { baseAnswer, runPairs, scored, unscored, type EngineStats } from "../base/answers.js";
import type { AnswerCache } from "../base/cache.js";
import { cacheKey, type SamplingSettings } from "../base/cache-key.js";
import { exchangeHash } from "../base/hash.js";
import type { WeightsFile } from "../base/schemas.js";
import type { AskPair, Engine } from "../base/types.js";
import { EmbeddedLane, embeddedPromptHash } from "./lane.js";
import { loadCaptureSignals, type SignalSource } from "./signals.js";

/**
 * The embedded lane as an Engine. Without a cache it answers in a plain loop (no promise per
 * pair); with one it goes through the shared cache loop.
 *
 * Example: `await embeddedEngine(weights, undefined, null, iso).ask(pairs, {caller: "x"})` -> answers in order.
 */
const EMBEDDED_SAMPLING: SamplingSettings = { temperature: 0, maxTokens: 0 };

export function embeddedEngine(weights: WeightsFile | null, signals: SignalSource | null | undefined, cache: AnswerCache | null, iso: () => string): Engine & { readonly stats: EngineStats } {
  const stats: EngineStats = { calls: 0, cacheHits: 0, refused: 0 };
  let lanePromise: Promise<EmbeddedLane> | null = null;
  const getLane = (): Promise<EmbeddedLane> => (lanePromise ??= (async () => new EmbeddedLane(weights, signals !== undefined ? signals : await loadCaptureSignals()))());
  const model = new EmbeddedLane(weights, null).model;
  return {
    lane: "embedded",
    model,
    stats,
    async ask(pairs, opts) {
      const lane = await getLane();
      lane.reset();
      const features = lane.features;
      const hashes = new Map<string, string>();
      const promptHash = (q: Question): string => {
        const k = `${q.id}@${q.version}`;
        let h = hashes.get(k);
        if (h === undefined) hashes.set(k, (h = embeddedPromptHash(features, q)));
        return h;
      };
      const keyOf = (pair: AskPair): string =>
        cacheKey({ lane: "embedded", model, promptHash: promptHash(pair.question), questionId: pair.question.id, questionVersion: pair.question.version, exchangeHash: exchangeHash(pair.exchange), sampling: EMBEDDED_SAMPLING });
      const answerOne = (pair: AskPair, ts: string): Answer => {
        const t0 = performance.now();
        const r = lane.answer(pair.exchange, pair.question);
        const base = baseAnswer(pair, "embedded", model, promptHash(pair.question), ts);
        if (!r.ok) return unscored(base, r.reason);
        stats.calls++;
        return scored(base, r.pYes, "model", r.raw, performance.now() - t0, 0);
      };
      if (cache === null) {
        // No cache: a plain loop with per-question and per-exchange memos and one literal per
        // answer (this path answers tens of thousands of pairs a second).
        const ts = iso();
        const perQuestion = new Map<Question, { column: number; hash: string } | { reason: string; hash: string }>();
        const out: Answer[] = new Array(pairs.length);
        const step = Math.max(1, Math.floor(pairs.length / 100));
        for (let i = 0; i < pairs.length; i++) {
          const { exchange, question } = pairs[i]!;
          let q = perQuestion.get(question);
          if (q === undefined) perQuestion.set(question, (q = { ...lane.columnOf(question), hash: promptHash(question) }));
          if ("reason" in q) {
            out[i] = unscored(baseAnswer(pairs[i]!, "embedded", model, q.hash, ts), q.reason);
          } else {
            const { probs, ms } = lane.probabilitiesOf(exchange);
            const p = probs[q.column]!;
            stats.calls++;
            out[i] = {
              schema: "answer/1",
              exchange_id: exchange.id,
              question_id: question.id,
              question_version: question.version,
              lane: "embedded",
              model,
              prompt_hash: q.hash,
              status: "scored",
              p_yes: p,
              computed_from: "model",
              reason: null,
              raw: `p_yes=${p.toFixed(6)}`,
              latency_ms: ms,
              cost_usd: 0,
              ts,
            };
          }
          if (opts.onProgress && ((i + 1) % step === 0 || i + 1 === pairs.length)) opts.onProgress(i + 1, pairs.length);
        }
        return out;
      }
      return runPairs(pairs, opts, cache, stats, (pair) => [keyOf(pair)], async (pair) => {
        const answer = answerOne(pair, iso());
        return { answer, key: answer.status === "scored" ? keyOf(pair) : null };
      });
    },
  };
}
