import type { Answer } from "../../schemas/answer.js";
import type { Engine } from "./base/types.js";
import { BudgetBook, type Budget } from "./base/budget.js";
import type { AnswerCache } from "./base/cache.js";
import { embeddedEngine } from "./embedded/engine.js";
import { loadShippedWeights } from "./embedded/shipped.js";
import type { SignalSource } from "./embedded/signals.js";
import { OpenAILaneSchema, type OpenAILaneConfig } from "./openai/config.js";
import { openaiEngine, type OpenAIEngine } from "./openai/engine.js";
import type { LaneDeps } from "./openai/lane.js";
import { FairPool } from "./base/pool.js";
import { replayEngine } from "./replay/replay-engine.js";
import type { ReplayFilter } from "./replay/replay.js";
import type { WeightsFile } from "./base/schemas.js";

/**
 * `createEngine(config)`: the judgment layer over one lane. Every ask goes: cache (when one is
 * given and `noCache` is not set) -> the lane (for the OpenAI lane: the pool and the caller's
 * budget) -> one Answer per pair, in order. An answer that cannot be used is `unscored` with a
 * reason; only scored answers are cached.
 *
 * Example: `await createEngine().ask([{exchange, question}], {caller: "errata-triage"})`
 * -> `[{schema: "answer/1", lane: "embedded", status: "scored", p_yes: 0.12, …}]`, or
 * unscored with "no weights for question mode.x@1".
 */
interface Common {
  /** Milliseconds since the epoch, for answers' `ts`. Default Date.now. */
  now?: () => number;
  /** The answer cache; null or absent = none. */
  cache?: AnswerCache | null;
}

export type EmbeddedConfig = Common & {
  lane?: "embedded";
  /** Default: the weights shipped in `datasets/weights/`. */
  weights?: WeightsFile | null;
  /** Default: the capture classifier when it is built. */
  signals?: SignalSource | null;
};

export type OpenAIConfig = Common & {
  lane: "openai";
  /** The lane; validated with OpenAILaneSchema, defaults filled. */
  openai: Partial<OpenAILaneConfig> & { model: string };
  apiKey: string;
  /** The owner's home folder, written "~" in prompts. */
  home?: string;
  /** Budgets per named caller, and for callers not named. */
  callers?: Readonly<Record<string, Budget>>;
  defaultCallerBudget?: Budget;
  /** Share a budget book or a pool between engines. */
  budgets?: BudgetBook;
  pool?: FairPool;
  deps?: Partial<LaneDeps>;
};

export type ReplayConfig = Common & { lane: "replay"; answers: readonly Answer[]; filter?: ReplayFilter };

export type EngineConfig = EmbeddedConfig | OpenAIConfig | ReplayConfig;

export function createEngine(config: OpenAIConfig): OpenAIEngine;
export function createEngine(config?: EmbeddedConfig | ReplayConfig): Engine;
export function createEngine(config?: EngineConfig): Engine;
export function createEngine(config: EngineConfig = {}): Engine {
  const now = config.now ?? (() => Date.now());
  const iso = (): string => new Date(now()).toISOString();
  const cache = config.cache ?? null;
  if (config.lane === "openai") {
    const cfg = OpenAILaneSchema.parse({ ...config.openai });
    const budgets = config.budgets ?? new BudgetBook(config.callers ?? {}, config.defaultCallerBudget ?? {}, cfg.budget);
    const deps: LaneDeps = {
      sleep: config.deps?.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
      random: config.deps?.random ?? Math.random,
      now: config.deps?.now ?? (() => performance.now()),
      ...(config.deps?.fetch ? { fetch: config.deps.fetch } : {}),
    };
    return openaiEngine(cfg, config.apiKey, deps, config.pool ?? new FairPool(cfg.concurrency), budgets, cache, iso, config.home);
  }
  if (config.lane === "replay") return replayEngine(config.answers, config.filter ?? {}, iso);
  return embeddedEngine(config.weights === undefined ? loadShippedWeights() : config.weights, config.signals, cache, iso);
}
