import type { Answer, Lane } from "../schemas/answer.js";
import type { Exchange } from "../schemas/exchange.js";
import type { Question } from "../schemas/question.js";
import { BudgetBook, type Budget } from "./budget.js";
import { openAnswerCache, type AnswerCache } from "./cache.js";
import { cacheKey, type SamplingSettings } from "./cache-key.js";
import { EmbeddedLane, embeddedPromptHash } from "./embedded/lane.js";
import { loadShippedWeights } from "./embedded/shipped.js";
import { loadCaptureSignals, type SignalSource } from "./embedded/signals.js";
import { exchangeHash } from "./hash.js";
import { OpenAILaneSchema, type OpenAILaneConfig } from "./openai/config.js";
import { OpenAILane, type LaneDeps } from "./openai/lane.js";
import { FairPool } from "./pool.js";
import { judgePrompt, promptHashFor, type AnswerMode } from "./prompt.js";
import { ReplayLane, type ReplayFilter } from "./replay.js";
import type { AskOptions, AskPair, Engine } from "./types.js";
import type { WeightsFile } from "./schemas.js";

/**
 * `createEngine(config)`: the judgment layer over one lane. Every ask goes: cache (when one is
 * given and `noCache` is not set) -> the lane (through the pool and the caller's budget for the
 * OpenAI lane) -> one Answer per pair, in order. An answer that cannot be used is `unscored`
 * with a reason; only scored answers are cached.
 *
 * Example: `await createEngine().ask([{exchange, question}], {caller: "errata-triage"})`
 * -> `[{schema: "answer/1", lane: "embedded", status: "scored", p_yes: 0.12, …}]` (or unscored,
 * "no weights for question mode.x@1").
 */
interface Common {
  /** Milliseconds since the epoch, for answers' `ts`. Default Date.now. */
  now?: () => number;
  /** The answer cache; null or absent = none. */
  cache?: AnswerCache | null;
  /** Budgets per named caller, and for callers not named. */
  callers?: Readonly<Record<string, Budget>>;
  defaultCallerBudget?: Budget;
  /** Share a budget book (and so budgets) between engines. */
  budgets?: BudgetBook;
}

export type EngineConfig =
  | (Common & { lane?: "embedded"; weights?: WeightsFile | null; signals?: SignalSource | null })
  | (Common & {
      lane: "openai";
      /** The lane (validated with OpenAILaneSchema; defaults filled). */
      openai: Partial<OpenAILaneConfig> & { model: string };
      apiKey: string;
      /** The owner's home folder, scrubbed from prompts ("~"). */
      home?: string;
      pool?: FairPool;
      deps?: Partial<LaneDeps>;
    })
  | (Common & { lane: "replay"; answers: readonly Answer[]; filter?: ReplayFilter });

const RAW_MAX = 2000;

function baseAnswer(pair: AskPair, lane: Lane, model: string, promptHash: string, ts: string): Omit<Answer, "status" | "p_yes" | "computed_from" | "reason" | "raw" | "latency_ms" | "cost_usd"> {
  return { schema: "answer/1", exchange_id: pair.exchange.id, question_id: pair.question.id, question_version: pair.question.version, lane, model, prompt_hash: promptHash, ts };
}

function scored(base: ReturnType<typeof baseAnswer>, pYes: number, from: string, raw: string, latencyMs: number, costUsd: number): Answer {
  return { ...base, status: "scored", p_yes: Math.min(1, Math.max(0, pYes)), computed_from: from, reason: null, raw: raw.slice(0, RAW_MAX), latency_ms: Math.max(0, latencyMs), cost_usd: costUsd };
}

function unscored(base: ReturnType<typeof baseAnswer>, reason: string, raw = "", latencyMs = 0, costUsd = 0): Answer {
  return { ...base, status: "unscored", p_yes: null, computed_from: null, reason, raw: raw.slice(0, RAW_MAX), latency_ms: Math.max(0, latencyMs), cost_usd: costUsd };
}

const EMBEDDED_SAMPLING: SamplingSettings = { temperature: 0, maxTokens: 0 };

export function createEngine(config: EngineConfig = {}): Engine & { readonly budgets: BudgetBook; readonly cache: AnswerCache | null; readonly pool: FairPool | null } {
  const now = config.now ?? (() => Date.now());
  const cache = config.cache ?? null;
  const budgets = config.budgets ?? new BudgetBook(config.callers ?? {}, config.defaultCallerBudget ?? {}, config.lane === "openai" ? (OpenAILaneSchema.parse({ ...config.openai }).budget as Budget) : {});
  const stats = { calls: 0, cacheHits: 0, refused: 0 };
  const iso = (): string => new Date(now()).toISOString();

  /** Shared: look each pair up in the cache, ask the rest, keep order, report progress. */
  async function runPairs(
    pairs: readonly AskPair[],
    opts: AskOptions,
    keysOf: (pair: AskPair) => string[],
    ask: (pair: AskPair, indices: number[]) => Promise<{ answer: Answer; key: string | null }>,
  ): Promise<Answer[]> {
    const out: (Answer | undefined)[] = new Array(pairs.length);
    let done = 0;
    const progress = (): void => opts.onProgress?.(done, pairs.length);
    const pending: number[] = [];
    pairs.forEach((pair, i) => {
      if (cache && !opts.noCache) {
        for (const key of keysOf(pair)) {
          const hit = cache.get(key);
          if (hit) {
            stats.cacheHits++;
            out[i] = { ...hit, exchange_id: pair.exchange.id };
            done++;
            return;
          }
        }
      }
      pending.push(i);
    });
    if (done > 0) progress();
    await Promise.all(
      pending.map(async (i) => {
        const pair = pairs[i] as AskPair;
        const { answer, key } = await ask(pair, [i]);
        out[i] = answer;
        if (cache && key !== null) cache.put(key, answer);
        done++;
        progress();
      }),
    );
    cache?.flush();
    return out as Answer[];
  }

  if (config.lane === "openai") {
    const cfg = OpenAILaneSchema.parse({ ...config.openai });
    const deps: LaneDeps = {
      sleep: config.deps?.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      random: config.deps?.random ?? Math.random,
      now: config.deps?.now ?? (() => performance.now()),
      ...(config.deps?.fetch ? { fetch: config.deps.fetch } : {}),
    };
    const lane = new OpenAILane(cfg, config.apiKey, deps);
    const pool = config.pool ?? new FairPool(cfg.concurrency);
    const home = config.home;
    const modes: AnswerMode[] = cfg.mode === "auto" ? ["logprobs", "structured"] : [cfg.mode];
    const keyFor = (pair: AskPair, mode: AnswerMode): string =>
      cacheKey({ lane: "openai", model: cfg.model, promptHash: promptHashFor(pair.question, mode), questionId: pair.question.id, questionVersion: pair.question.version, exchangeHash: exchangeHash(pair.exchange), sampling: lane.sampling(mode) });
    return {
      lane: "openai",
      model: cfg.model,
      stats,
      budgets,
      cache,
      pool,
      openaiLane: lane,
      async ask(pairs, opts) {
        const inflight = new Map<string, Promise<Answer>>();
        return runPairs(
          pairs,
          opts,
          (pair) => modes.map((m) => keyFor(pair, m)),
          async (pair) => {
            const probe = await lane.probe();
            const mode = probe.chosen;
            if (mode === null) {
              return { answer: unscored(baseAnswer(pair, "openai", cfg.model, promptHashFor(pair.question, modes[0] as AnswerMode), iso()), `the server supports neither logprobs nor structured replies (${probe.detail.join("; ")})`), key: null };
            }
            const key = keyFor(pair, mode);
            // The same (prompt, exchange text) asked twice in one batch is sent once.
            let p = inflight.get(key);
            if (!p) {
              p = pool.run(opts.caller, async () => {
                const prompt = judgePrompt(pair.exchange, pair.question, mode, home === undefined ? {} : { home });
                const outcome = await lane.call(prompt.messages, mode, opts.caller, budgets);
                if (outcome.refused) stats.refused++;
                else stats.calls += outcome.attempts;
                const base = baseAnswer(pair, "openai", cfg.model, prompt.promptHash, iso());
                const r = outcome.reading;
                return r.ok ? scored(base, r.pYes, r.from, r.raw, outcome.latencyMs, outcome.costUsd) : unscored(base, r.reason, r.raw, outcome.latencyMs, outcome.costUsd);
              });
              inflight.set(key, p);
            }
            const a = await p;
            return { answer: { ...a, exchange_id: pair.exchange.id }, key };
          },
        );
      },
    } as Engine & { budgets: BudgetBook; cache: AnswerCache | null; pool: FairPool; openaiLane: OpenAILane };
  }

  if (config.lane === "replay") {
    const lane = new ReplayLane(config.answers, config.filter ?? {});
    return {
      lane: "replay",
      model: lane.model,
      stats,
      budgets,
      cache: null,
      pool: null,
      async ask(pairs, opts) {
        return runPairs(pairs, { ...opts, noCache: true }, () => [], async (pair) => {
          stats.calls++;
          const r = lane.answer(pair.exchange.id, pair.question.id, pair.question.version);
          return { answer: r.ok ? r.answer : unscored(baseAnswer(pair, "replay", lane.model, "", iso()), r.reason), key: null };
        });
      },
    };
  }

  // The embedded lane (the default).
  const weights = config.weights === undefined ? loadShippedWeights() : config.weights;
  let lanePromise: Promise<EmbeddedLane> | null = null;
  const getLane = (): Promise<EmbeddedLane> =>
    (lanePromise ??= (async () => new EmbeddedLane(weights, config.signals !== undefined ? config.signals : await loadCaptureSignals()))());
  const model = weights === null ? "hashed-logreg/none" : new EmbeddedLane(weights, null).model;
  return {
    lane: "embedded",
    model,
    stats,
    budgets,
    cache,
    pool: null,
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
        // No cache: a plain loop (the lane is in-process and fast; no promise per pair).
        const ts = iso();
        const out: Answer[] = new Array(pairs.length);
        const step = Math.max(1, Math.floor(pairs.length / 100));
        for (let i = 0; i < pairs.length; i++) {
          out[i] = answerOne(pairs[i] as AskPair, ts);
          if (opts.onProgress && ((i + 1) % step === 0 || i + 1 === pairs.length)) opts.onProgress(i + 1, pairs.length);
        }
        return out;
      }
      return runPairs(pairs, opts, (pair) => [keyOf(pair)], async (pair) => {
        const answer = answerOne(pair, iso());
        return { answer, key: answer.status === "scored" ? keyOf(pair) : null };
      });
    },
  };
}

export type { Exchange, Question };
export { openAnswerCache };
