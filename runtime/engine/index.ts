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
export { type WeightsFile } from "./base/schemas.js";
export { EngineConfigError, apiKeyFor, engineFromConfig, loadEngineSettings } from "./config.js";
export { calibratedCutsFor, DEFAULT_CUTS_ORIGIN, weightsCuts, weightsCutsWithOrigin, type CutsWithOrigin } from "./embedded/cuts.js";
export { crossValidate } from "./embedded/crossval.js";
export { evaluateEmbedded } from "./embedded/evaluate.js";
export { EngineInputError, readExchanges, readQuestions } from "./embedded/files.js";
export { createScorer } from "./embedded/scorer.js";
export { SyntheticSeedError, readSet, syntheticTrainingSet } from "./embedded/sets.js";
export { repoDatasetsDir } from "./embedded/shipped.js";
export { captureSignals } from "./embedded/signals.js";
export { signalsFingerprint, trainEmbedded, trainingExchanges, type TrainingSet } from "./embedded/train.js";
export { parseWeights, serialiseWeights, weightsId } from "./embedded/weights.js";
export { answersSummary, evalTable, weightsSummary } from "./summaries.js";
export { baseAnswer, scored, unscored } from "./base/answers.js";
export { reasonCodeOf } from "./base/reason-code.js";
export { generativeFromConfig } from "./generative.js";
export type { ChatMessage } from "./base/prompt.js";
export { generativeLane, GENERATE_MAX_TOKENS, type GenerateDeps, type GenerateOutcome, type GenerativeLane } from "./openai/generate.js";
export { DeadlineError, withDeadline } from "./base/deadline.js";
