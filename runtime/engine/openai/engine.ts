import type { Answer } from "../../../schemas/answer.js";
import { baseAnswer, lookUp, runPairs, scored, unscored, type EngineStats } from "../base/answers.js";
import type { BudgetBook } from "../base/budget.js";
import type { AnswerCache } from "../base/cache.js";
import { cacheKey } from "../base/cache-key.js";
import { exchangeHash } from "../base/hash.js";
import type { FairPool } from "../base/pool.js";
import { judgePrompt, promptHashFor, type AnswerMode } from "../base/prompt.js";
import type { AskOptions, AskPair, Engine } from "../base/types.js";
import { runBatch, type BatchResult } from "./batch.js";
import { runBoundMs, type OpenAILaneConfig } from "./config.js";
import { OpenAILane, type LaneDeps, type ProbeResult } from "./lane.js";

/**
 * The OpenAI lane as an Engine: cache -> probe (once, only when something must be asked) ->
 * pool (per-caller round-robin, concurrency limit) -> budget -> SDK call with retries.
 * With `mode: "auto"` a cached answer under either answer mode counts, so a re-run over a
 * full cache sends nothing at all, not even the probe.
 *
 * Example: `await engine.ask(pairs, {caller: "errata-triage"})` then again -> `stats.calls`
 * unchanged, `stats.cacheHits` += pairs.length.
 */
export interface OpenAIEngine extends Engine {
  readonly stats: EngineStats;
  readonly openaiLane: OpenAILane;
  probe(): Promise<ProbeResult>;
  /** The worst case of asking `pairs` pairs, in ms (config.ts `runBoundMs`): what `engine ask` states. */
  worstCaseMs(pairs: number): number;
  /** Large corpora through the Batch API; resumable from `statePath`. */
  askBatch(pairs: readonly AskPair[], opts: AskOptions & BatchPaths): Promise<Answer[]>;
}

export interface BatchPaths {
  statePath: string;
  requestsPath: string;
  maxPolls?: number;
}

export function openaiEngine(cfg: OpenAILaneConfig, apiKey: string, deps: LaneDeps, pool: FairPool, budgets: BudgetBook, cache: AnswerCache | null, iso: () => string, home: string | undefined): OpenAIEngine {
  const lane = new OpenAILane(cfg, apiKey, deps);
  // Every HTTP request the lane sent (probes, attempts, batch uploads and polls) is a call.
  const stats: EngineStats = {
    get calls() {
      return lane.calls;
    },
    cacheHits: 0,
    refused: 0,
  };
  const modes: AnswerMode[] = cfg.mode === "auto" ? ["logprobs", "structured"] : [cfg.mode];
  const scrub = home === undefined ? {} : { home };
  // Keys are asked for several times per pair (a lookup per mode, then the send): memoise them
  // per pair object for the life of one ask.
  let keyMemo = new WeakMap<AskPair, Map<AnswerMode, string>>();
  const keyFor = (pair: AskPair, mode: AnswerMode): string => {
    let m = keyMemo.get(pair);
    if (!m) keyMemo.set(pair, (m = new Map()));
    let k = m.get(mode);
    if (k === undefined) {
      k = cacheKey({ lane: "openai", model: cfg.model, promptHash: promptHashFor(pair.question, mode), questionId: pair.question.id, questionVersion: pair.question.version, exchangeHash: exchangeHash(pair.exchange), sampling: lane.sampling(mode) });
      m.set(mode, k);
    }
    return k;
  };
  const probe = (): Promise<ProbeResult> => lane.probe();
  const noMode = (pair: AskPair, r: ProbeResult): Answer =>
    unscored(baseAnswer(pair, "openai", cfg.model, promptHashFor(pair.question, modes[0]!), iso()), `the server supports neither logprobs nor structured replies (${r.detail.join("; ")})`);

  return {
    lane: "openai",
    model: cfg.model,
    stats,
    openaiLane: lane,
    probe,
    worstCaseMs: (pairs) => runBoundMs(cfg, pairs),
    async ask(pairs, opts) {
      keyMemo = new WeakMap();
      const inflight = new Map<string, Promise<Answer>>();
      return runPairs(pairs, opts, cache, stats, (pair) => modes.map((m) => keyFor(pair, m)), async (pair) => {
        const pr = await probe();
        const mode = pr.chosen;
        if (mode === null) return { answer: noMode(pair, pr), key: null };
        const key = keyFor(pair, mode);
        // The same question about the same exchange text, asked twice in one batch, is sent once.
        let p = inflight.get(key);
        if (!p) {
          p = pool.run(opts.caller, async () => {
            const prompt = judgePrompt(pair.exchange, pair.question, mode, scrub);
            const outcome = await lane.call(prompt.messages, mode, opts.caller, budgets);
            if (outcome.refused) stats.refused++;
            const base = baseAnswer(pair, "openai", cfg.model, prompt.promptHash, iso());
            const r = outcome.reading;
            return r.ok ? scored(base, r.pYes, r.from, r.raw, outcome.latencyMs, outcome.costUsd) : unscored(base, r.reason, r.raw, outcome.latencyMs, outcome.costUsd);
          });
          inflight.set(key, p);
        }
        const a = await p;
        return { answer: { ...a, exchange_id: pair.exchange.id }, key };
      });
    },
    async askBatch(pairs, opts) {
      const out: (Answer | undefined)[] = new Array(pairs.length);
      const pending = lookUp(pairs, opts, cache, (pair) => modes.map((m) => keyFor(pair, m)), stats, out);
      if (pending.length === 0) return out as Answer[];
      const pr = await probe();
      const mode = pr.chosen;
      if (mode === null) {
        for (const i of pending) out[i] = noMode(pairs[i]!, pr);
        return out as Answer[];
      }
      const requests = pending.map((i) => {
        const pair = pairs[i]!;
        return { customId: keyFor(pair, mode), messages: judgePrompt(pair.exchange, pair.question, mode, scrub).messages };
      });
      const result: BatchResult = await runBatch(lane, requests, {
          mode,
          statePath: opts.statePath,
          requestsPath: opts.requestsPath,
          caller: opts.caller,
          book: budgets,
          sleep: deps.sleep,
          nowIso: iso,
          pollMs: cfg.batchPollMs,
          ...(opts.maxPolls !== undefined ? { maxPolls: opts.maxPolls } : {}),
          onStatus: (_s, c) => opts.onProgress?.(pairs.length - pending.length + c.completed + c.failed, pairs.length),
        });
      stats.refused += result.refused.size;
      pending.forEach((i, k) => {
        const pair = pairs[i]!;
        const req = requests[k] as { customId: string };
        const base = baseAnswer(pair, "openai", cfg.model, promptHashFor(pair.question, mode), iso());
        const refusedWhy = result.refused.get(req.customId);
        const r = result.results.get(req.customId);
        let a: Answer;
        if (refusedWhy !== undefined) a = unscored(base, refusedWhy);
        else if (r === undefined) a = unscored(base, `batch ${result.state.batchId ?? "(none)"} is ${result.state.status}: no result for custom_id ${req.customId}`);
        else a = r.ok ? scored(base, r.pYes, `batch:${r.from}`, r.raw, 0, 0) : unscored(base, r.reason, r.raw);
        out[i] = a;
        if (cache && a.status === "scored") cache.put(req.customId, a);
      });
      cache?.flush();
      return out as Answer[];
    },
  };
}
