import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { BudgetBook, Reservation } from "../base/budget.js";
import { withDeadline } from "../base/deadline.js";
import type { ChatMessage } from "../base/prompt.js";
import { redactTextForWrite } from "../../privacy/index.js";
import { laneTimeoutMs, retryPolicy, type OpenAILaneConfig } from "./config.js";
import { tokenBound } from "./lane.js";
import { describeError, gaveUp, isRetryable, isTimeout, retryWithinBudget } from "./retry.js";

/**
 * The engine's generative lane: one chat completion that writes text (a JSON object), not a
 * yes/no answer. Used by the rules wing's writer on the "max" lane (flex tier, from the
 * engine config). Same policy as the judging lane (retry.ts `retryWithinBudget`): every
 * attempt passes the caller's budget first, retries on 408/409/429/5xx and time-outs with
 * backoff, a whole-response deadline bounds each attempt (the lane's time-out: 15 min on the
 * flex tier) and the call's budget bounds them all. Never throws: a failure is `{ok: false, reason}`.
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
        // Every message redacted as it leaves, as the judging lane's request() does (lane.ts):
        // the callers' texts (a rule, the upgrades queue, exemplars) were redacted when written,
        // but not against a value the owner's store learned since.
        messages: messages.map((m) => ({ role: m.role, content: redactTextForWrite(m.content) })),
        temperature: cfg.temperature,
        max_tokens: maxTokens,
        response_format: { type: "json_object" },
      };
      if (cfg.seed !== undefined) body.seed = cfg.seed;
      if (cfg.serviceTier !== null) body.service_tier = cfg.serviceTier;
      const bound = tokenBound(messages, maxTokens);
      const policy = retryPolicy(cfg);
      let reservation: Reservation | null = null;
      const r = await retryWithinBudget(
        policy,
        deps,
        async (ms) => {
          const held = reservation as Reservation;
          try {
            // The whole response, not only the headers, within the attempt's deadline.
            const res = await withDeadline(ms, (signal) => sdk.chat.completions.create(body, { signal }));
            book.settle(held, res.usage ? res.usage.total_tokens : null);
            return res;
          } catch (e) {
            book.settle(held, e instanceof OpenAI.APIConnectionError || isTimeout(e) ? null : 0);
            throw e;
          }
        },
        () => {
          reservation = book.reserve(opts.caller, bound);
          return reservation.ok ? null : reservation.reason;
        },
      );
      if (!r.ok) {
        if (r.stop === "refused") return { ok: false, reason: r.refusal ?? "", attempts: r.attempts, refused: r.attempts === 0 };
        const why = isRetryable(r.error) ? `gave up after ${gaveUp(r, policy)}: ${describeError(r.error)}` : describeError(r.error);
        return { ok: false, reason: why, attempts: r.attempts, refused: false };
      }
      const res = r.value;
      const price = cfg.price;
      const costUsd = res.usage && price ? (res.usage.prompt_tokens * price.input + res.usage.completion_tokens * price.output) / 1e6 : 0;
      const text = res.choices[0]?.message?.content;
      if (typeof text !== "string" || text.trim() === "") return { ok: false, reason: "malformed reply: no message content", attempts: r.attempts, refused: false };
      return { ok: true, text, attempts: r.attempts, costUsd };
    },
  };
}
