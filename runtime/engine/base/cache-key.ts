import type { Lane } from "../../../schemas/answer.js";
import { canonicalJson, sha256Hex } from "./hash.js";

/**
 * The sampling settings sent with a judge call. Everything here can change a reply, so all of
 * it enters the cache key. (The service tier, time-out, retries and base URL do not change a
 * reply and stay out.)
 */
export interface SamplingSettings {
  temperature: number;
  maxTokens: number;
  topP?: number;
  topLogprobs?: number;
  seed?: number;
}

/** Everything that can change an answer, and nothing else. */
export interface CacheKeyFields {
  lane: Lane;
  model: string;
  promptHash: string;
  questionId: string;
  questionVersion: number;
  /** `exchangeHash(exchange)`: a hash of the fields the prompt reads. */
  exchangeHash: string;
  sampling: SamplingSettings;
}

/**
 * The cache key: 32 hex of SHA-256 over the canonical JSON of exactly these fields. Pure.
 *
 * Example: `cacheKey({lane: "openai", model: "gpt-4o-mini", promptHash: "1f0c…", questionId:
 * "detect.unhappy", questionVersion: 1, exchangeHash: "9a3e…", sampling: {temperature: 0,
 * maxTokens: 1, topLogprobs: 20}})` -> "c7d1…" (the same fields always give the same key).
 */
export function cacheKey(f: CacheKeyFields): string {
  const sampling: Record<string, number> = { temperature: f.sampling.temperature, maxTokens: f.sampling.maxTokens };
  if (f.sampling.topP !== undefined) sampling["topP"] = f.sampling.topP;
  if (f.sampling.topLogprobs !== undefined) sampling["topLogprobs"] = f.sampling.topLogprobs;
  if (f.sampling.seed !== undefined) sampling["seed"] = f.sampling.seed;
  return sha256Hex(
    canonicalJson({
      v: "cache-key/1",
      lane: f.lane,
      model: f.model,
      promptHash: f.promptHash,
      questionId: f.questionId,
      questionVersion: f.questionVersion,
      exchangeHash: f.exchangeHash,
      sampling,
    }),
    32,
  );
}
