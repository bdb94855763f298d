import { createHash } from "node:crypto";
import type { AskOptions, AskPair, Engine } from "../../runtime/engine/base/types.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";

/**
 * A deterministic fake Engine for tests: P(yes) is a hash of (prompt, question id) unless a
 * rule overrides it; it records every pair it was sent and every caller name.
 */
export function fakeEngine(rule: (pair: AskPair) => number | null = () => null): Engine & { sent: AskPair[]; callers: string[] } {
  const sent: AskPair[] = [];
  const callers: string[] = [];
  const stats = { calls: 0, cacheHits: 0, refused: 0 };
  return {
    lane: "replay",
    model: "fake-1",
    stats,
    sent,
    callers,
    async ask(pairs: readonly AskPair[], opts: AskOptions): Promise<Answer[]> {
      callers.push(opts.caller);
      return pairs.map((pair) => {
        sent.push(pair);
        stats.calls++;
        const forced = rule(pair);
        const h = createHash("sha256").update(`${pair.exchange.prompt}\u0000${pair.question.id}`).digest();
        const p = forced ?? (h[0] as number) / 255;
        const unscored = Number.isNaN(p);
        return {
          schema: "answer/1",
          exchange_id: pair.exchange.id,
          question_id: pair.question.id,
          question_version: pair.question.version,
          lane: "replay",
          model: "fake-1",
          prompt_hash: "fake",
          ...(unscored ? { status: "unscored" as const, p_yes: null, computed_from: null, reason: "fake: unscored" } : { status: "scored" as const, p_yes: p, computed_from: "replay", reason: null }),
          raw: "FAKE-RAW-REPLY",
          latency_ms: 0,
          cost_usd: 0,
          ts: "2026-11-30T12:00:00.000Z",
        };
      });
    },
  };
}

let counter = 0;
export function exchange(over: Partial<Exchange> = {}): Exchange {
  counter++;
  const id = `ex-${createHash("sha256").update(`x${counter}${JSON.stringify(over)}`).digest("hex").slice(0, 16)}`;
  return {
    schema: "exchange/1",
    id,
    corpus: "test",
    session_id: "sess-0001",
    turn: counter,
    prompt: `prompt ${counter}`,
    prompt_ts: "2026-11-30T11:00:00Z",
    reply_end: `reply ${counter}`,
    reply_ts: "2026-11-30T10:59:00Z",
    previous_ask: null,
    tool_calls: [],
    cwd: null,
    version: null,
    model: null,
    captured: false,
    synthetic: false,
    source_ref: null,
    ...over,
  };
}
