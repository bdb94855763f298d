import { baseAnswer, runPairs, unscored, type EngineStats } from "../base/answers.js";
import type { Answer } from "../../../schemas/answer.js";
import { ReplayLane, type ReplayFilter } from "./replay.js";
import type { Engine } from "../base/types.js";

/**
 * The replay lane as an Engine (no cache: the stored file is the cache).
 *
 * Example: `await replayEngine(rows, {}, iso).ask(pairs, {caller: "x"})` -> the stored answers, `lane: "replay"`.
 */
export function replayEngine(answers: readonly Answer[], filter: ReplayFilter, iso: () => string): Engine & { readonly stats: EngineStats } {
  const lane = new ReplayLane(answers, filter);
  const stats: EngineStats = { calls: 0, cacheHits: 0, refused: 0 };
  return {
    lane: "replay",
    model: lane.model,
    stats,
    ask(pairs, opts) {
      return runPairs(pairs, opts, null, stats, () => [], async (pair) => {
        stats.calls++;
        const r = lane.answer(pair.exchange.id, pair.question.id, pair.question.version);
        return { answer: r.ok ? r.answer : unscored(baseAnswer(pair, "replay", lane.model, "", iso()), r.reason), key: null };
      });
    },
  };
}
