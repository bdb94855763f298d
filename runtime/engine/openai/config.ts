import { z } from "zod";
import type { RetryPolicy } from "./retry.js";

/**
 * One OpenAI-compatible lane: server, model, key, service tier, time-out, retries, pool size,
 * answer mode, sampling and budget. Parsed from `errata-engine.json` and the environment by
 * `engine/config.ts`; the defaults here are what a lane gets when a field is not given.
 *
 * Example: `OpenAILaneSchema.parse({baseURL: "http://127.0.0.1:8000/v1", model: "qwen2.5-7b"})`
 * -> `{…, serviceTier: null, timeoutMs: 60000, maxRetries: 4, concurrency: 8, mode: "auto", …}`.
 */
export const BudgetSchema = z.strictObject({
  requests: z.number().int().nonnegative().optional(),
  tokens: z.number().int().nonnegative().optional(),
});

export const ServiceTierSchema = z.enum(["auto", "default", "flex", "scale", "priority"]);

/** OpenAI asks clients of the flex tier to allow up to 15 minutes a request. */
export const FLEX_TIMEOUT_MS = 900_000;
export const DEFAULT_TIMEOUT_MS = 60_000;

export const OpenAILaneSchema = z.strictObject({
  kind: z.literal("openai").default("openai"),
  baseURL: z.string().url().default("https://api.openai.com/v1"),
  model: z.string().min(1),
  /** The key itself (discouraged in a file) or the name of the environment variable holding it. */
  apiKey: z.string().optional(),
  apiKeyEnv: z.string().default("ERRATA_OPENAI_API_KEY"),
  serviceTier: ServiceTierSchema.nullable().default(null),
  /** Per request; default 60 s, or 15 min on the flex tier. */
  timeoutMs: z.number().int().positive().optional(),
  /**
   * One call's time, every attempt and every wait between them included (default twice the
   * time-out): the worst case of a call, whatever the server does. See `runBoundMs`.
   */
  callBudgetMs: z.number().int().positive().optional(),
  /** Retries after the first attempt, on 408, 409, 429, 5xx, time-outs and lost connections, while the call's budget lasts. */
  maxRetries: z.number().int().nonnegative().default(4),
  retryBaseMs: z.number().nonnegative().default(500),
  retryMaxMs: z.number().nonnegative().default(30_000),
  concurrency: z.number().int().positive().default(8),
  mode: z.enum(["auto", "logprobs", "structured"]).default("auto"),
  temperature: z.number().min(0).max(2).default(0),
  topLogprobs: z.number().int().min(1).max(20).default(20),
  maxTokensStructured: z.number().int().positive().default(40),
  seed: z.number().int().optional(),
  budget: BudgetSchema.default({}),
  /** US dollars per million tokens, for the answers' cost field (0 when not given). */
  price: z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
  /** Batch API: how often to poll, and the completion window asked for. */
  batchPollMs: z.number().int().positive().default(30_000),
});
export type OpenAILaneConfig = z.infer<typeof OpenAILaneSchema>;

export function laneTimeoutMs(cfg: OpenAILaneConfig): number {
  return cfg.timeoutMs ?? (cfg.serviceTier === "flex" ? FLEX_TIMEOUT_MS : DEFAULT_TIMEOUT_MS);
}

/** A call's whole budget: `callBudgetMs`, else two time-outs (an attempt, a wait, a second attempt). */
export function laneCallBudgetMs(cfg: OpenAILaneConfig): number {
  return cfg.callBudgetMs ?? 2 * laneTimeoutMs(cfg);
}

export function retryPolicy(cfg: OpenAILaneConfig): RetryPolicy {
  return { timeoutMs: laneTimeoutMs(cfg), callBudgetMs: laneCallBudgetMs(cfg), maxRetries: cfg.maxRetries, retryBaseMs: cfg.retryBaseMs, retryMaxMs: cfg.retryMaxMs };
}

/**
 * The worst case of asking `pairs` pairs on this lane, in ms: the mode probe (two calls at
 * most, one after the other, only in mode "auto"), then the pairs through the pool of
 * `concurrency` slots, each call within the call's budget B. The pool starts a queued call as
 * soon as a slot frees, so the last call starts by (ceil(pairs / concurrency) - 1) x B and
 * ends by ceil(pairs / concurrency) x B. Cached answers and refused calls only shorten it.
 *
 * Example: 3 pairs, timeoutMs 1000, concurrency 8, mode auto -> (2 + 1) x 2000 = 6000.
 */
export function runBoundMs(cfg: OpenAILaneConfig, pairs: number): number {
  if (pairs <= 0) return 0;
  const probes = cfg.mode === "auto" ? 2 : 0;
  return (probes + Math.ceil(pairs / cfg.concurrency)) * laneCallBudgetMs(cfg);
}
