/**
 * The engine's public surface: `createEngine(config)` and what callers need beside it.
 *
 * Example: `const engine = createEngine(); await engine.ask(pairs, {caller: "errata-triage"})`
 * -> one `answer/1` per pair from the embedded lane with the shipped weights, offline.
 */
export { createEngine, type EngineConfig, type EmbeddedConfig, type OpenAIConfig, type ReplayConfig } from "./core.js";
export type { OpenAIEngine } from "./openai/engine.js";
export type { AskOptions, AskPair, Engine } from "./base/types.js";
export { BudgetBook, type Budget, type Usage } from "./base/budget.js";
export { FairPool } from "./base/pool.js";
export { openAnswerCache, type AnswerCache } from "./base/cache.js";
export { cacheKey, type CacheKeyFields, type SamplingSettings } from "./base/cache-key.js";
export { exchangeHash } from "./base/hash.js";
export { judgePrompt, promptHashFor, type AnswerMode } from "./base/prompt.js";
export { scrubForJudge } from "./base/scrub.js";
export { loadShippedWeights, shippedWeightsPath } from "./embedded/shipped.js";
export { loadCaptureSignals } from "./embedded/signals.js";
export { readAnswersFile } from "./replay/replay.js";
export { OpenAILaneSchema, type OpenAILaneConfig } from "./openai/config.js";
