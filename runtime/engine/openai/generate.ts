import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { BudgetBook } from "../base/budget.js";
import type { ChatMessage } from "../base/prompt.js";
import { laneTimeoutMs, type OpenAILaneConfig } from "./config.js";
import { tokenBound } from "./lane.js";
import { backoffMs, describeError, isRetryable, retryAfterMs } from "./retry.js";

/**
 * The engine's generative lane: one chat completion that writes text (a JSON object), not a
 * yes/no answer. Used by the rules wing's writer on the "max" lane (flex tier, from the
 * engine config). Same policy as the judging lane: every attempt passes the caller's budget
 * first, retries on 408/409/429/5xx with backoff, and a whole-response deadline (an
 * AbortSignal, the lane's time-out: 15 min on the flex tier) bounds each attempt. Never throws:
 * a failure is `{ok: false, reason}`.
 *
 * Example: `await lane.generate(messages, {caller: "errata-coverage"})` ->
 * `{ok: true, text: "{\"target\": …}", attempts: 1, costUsd: 0}`.
 */
export interface GenerateDeps {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  fetch?: typeof fetch;
}

export type GenerateOutcome =
  | { ok: true; text: string; attempts: number; costUsd: number }
  | { ok: false; reason: string; attempts: number; refused: boolean };

export interface GenerativeLane {
  readonly model: string;
  readonly serviceTier: string | null;
  generate(messages: readonly ChatMessage[], opts: { caller: string; maxTokens?: number }): Promise<GenerateOutcome>;
}

export const GENERATE_MAX_TOKENS = 800;

export function generativeLane(cfg: OpenAILaneConfig, apiKey: string, book: BudgetBook, deps: GenerateDeps): GenerativeLane {
  const sdkOpts: ConstructorParameters<typeof OpenAI>[0] = { apiKey, baseURL: cfg.baseURL, maxRetries: 0, timeout: laneTimeoutMs(cfg) };
  if (deps.fetch) sdkOpts.fetch = deps.fetch;
  const sdk = new OpenAI(sdkOpts);
  return {
    model: cfg.model,
    serviceTier: cfg.serviceTier,
    async generate(messages, opts) {
      const maxTokens = opts.maxTokens ?? GENERATE_MAX_TOKENS;
      const body: ChatCompletionCreateParamsNonStreaming = {
        model: cfg.model,
        messages: messages.map((m) => ({ role: m.role, content: m.content })),
        temperature: cfg.temperature,
        max_tokens: maxTokens,
        response_format: { type: "json_object" },
      };
      if (cfg.seed !== undefined) body.seed = cfg.seed;
      if (cfg.serviceTier !== null) body.service_tier = cfg.serviceTier;
      const bound = tokenBound(messages, maxTokens);
      let attempts = 0;
      for (let attempt = 0; ; attempt++) {
        const reservation = book.reserve(opts.caller, bound);
        if (!reservation.ok) return { ok: false, reason: reservation.reason, attempts, refused: attempts === 0 };
        attempts++;
        try {
          // The whole response, not only the connection, must arrive within the lane's time-out.
          const res = await sdk.chat.completions.create(body, { signal: AbortSignal.timeout(laneTimeoutMs(cfg)) });
          book.settle(reservation, res.usage ? res.usage.total_tokens : null);
          const price = cfg.price;
          const costUsd = res.usage && price ? (res.usage.prompt_tokens * price.input + res.usage.completion_tokens * price.output) / 1e6 : 0;
          const text = res.choices[0]?.message?.content;
          if (typeof text !== "string" || text.trim() === "") return { ok: false, reason: "malformed reply: no message content", attempts, refused: false };
          return { ok: true, text, attempts, costUsd };
        } catch (e) {
          book.settle(reservation, e instanceof OpenAI.APIConnectionError ? null : 0);
          if (isRetryable(e) && attempt < cfg.maxRetries) {
            const wait = retryAfterMs(e, deps.now());
            await deps.sleep(Math.min(cfg.retryMaxMs, wait ?? backoffMs(attempt, { baseMs: cfg.retryBaseMs, maxMs: cfg.retryMaxMs }, deps.random)));
            continue;
          }
          const why = isRetryable(e) ? `gave up after ${attempts} attempts: ${describeError(e)}` : describeError(e);
          return { ok: false, reason: why, attempts, refused: false };
        }
      }
    },
  };
}
