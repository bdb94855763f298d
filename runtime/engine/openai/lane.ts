import OpenAI from "openai";
import type { ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { BudgetBook, Reservation } from "../base/budget.js";
import type { SamplingSettings } from "../base/cache-key.js";
import type { AnswerMode, ChatMessage } from "../base/prompt.js";
import { redactTextForWrite } from "../../privacy/index.js";
import { laneTimeoutMs, retryPolicy, type OpenAILaneConfig } from "./config.js";
import { hasTopLogprobs, readLogprobs, readStructured, STRUCTURED_RESPONSE_FORMAT, type ReplyReading } from "./reply.js";
import { withDeadline } from "../base/deadline.js";
import { connectionError, describeError, gaveUp, isRetryable, isTimeout, retryWithinBudget } from "./retry.js";

/**
 * The OpenAI-compatible lane: the official `openai` SDK pointed at any base URL. One call per
 * (exchange, question); every attempt (retries included) passes the caller's budget first.
 * Time, sleep, randomness (jitter) and the transport are injected, for tests.
 *
 * Example: `await lane.probe()` against vLLM -> `{logprobs: true, structured: true, chosen: "logprobs"}`.
 */
export interface LaneDeps {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
  fetch?: typeof fetch;
}

export interface CallOutcome {
  reading: ReplyReading;
  latencyMs: number;
  costUsd: number;
  /** Attempts sent (0 when refused before the first). */
  attempts: number;
  /** True when the budget refused the call before anything was sent. */
  refused: boolean;
}

export interface ProbeResult {
  logprobs: boolean;
  structured: boolean;
  chosen: AnswerMode | null;
  detail: string[];
}

const PROBE_MESSAGES: ChatMessage[] = [{ role: "user", content: "Is two plus two equal to four? Reply with exactly one word: yes or no." }];
const PROBE_STRUCTURED: ChatMessage[] = [{ role: "user", content: 'Is two plus two equal to four? Reply with JSON only: {"answer": "yes" or "no", "confidence": 0 to 1}.' }];

/** An upper bound of the tokens a call can use: UTF-8 bytes of the messages (a token is at least one byte) plus overhead and the completion limit. */
export function tokenBound(messages: readonly ChatMessage[], maxTokens: number): number {
  let bytes = 0;
  for (const m of messages) bytes += Buffer.byteLength(m.content, "utf8") + 8;
  return bytes + 16 + maxTokens;
}

export class OpenAILane {
  readonly sdk: OpenAI;
  /** HTTP attempts sent, probes included. */
  calls = 0;
  private probed: Promise<ProbeResult> | null = null;

  constructor(
    readonly cfg: OpenAILaneConfig,
    apiKey: string,
    private readonly deps: LaneDeps,
  ) {
    const opts: ConstructorParameters<typeof OpenAI>[0] = { apiKey, baseURL: cfg.baseURL, maxRetries: 0, timeout: laneTimeoutMs(cfg) };
    if (deps.fetch) opts.fetch = deps.fetch;
    this.sdk = new OpenAI(opts);
  }

  sampling(mode: AnswerMode): SamplingSettings {
    const s: SamplingSettings =
      mode === "logprobs"
        ? { temperature: this.cfg.temperature, maxTokens: 1, topLogprobs: this.cfg.topLogprobs }
        : { temperature: this.cfg.temperature, maxTokens: this.cfg.maxTokensStructured };
    if (this.cfg.seed !== undefined) s.seed = this.cfg.seed;
    return s;
  }

  request(messages: readonly ChatMessage[], mode: AnswerMode): ChatCompletionCreateParamsNonStreaming {
    const s = this.sampling(mode);
    const body: ChatCompletionCreateParamsNonStreaming = {
      model: this.cfg.model,
      // Every text sent to a model server (calls and batch files) leaves through here, redacted.
      messages: messages.map((m) => ({ role: m.role, content: redactTextForWrite(m.content) })),
      temperature: s.temperature,
      max_tokens: s.maxTokens,
    };
    if (mode === "logprobs") {
      body.logprobs = true;
      body.top_logprobs = s.topLogprobs ?? 20;
    } else {
      body.response_format = STRUCTURED_RESPONSE_FORMAT;
    }
    if (s.seed !== undefined) body.seed = s.seed;
    if (this.cfg.serviceTier !== null) body.service_tier = this.cfg.serviceTier;
    return body;
  }

  /**
   * One HTTP attempt under its deadline, which covers the whole reply, body included (the
   * SDK's own time-out stops at the headers: base/deadline.ts). The deadline is the lane's
   * time-out, or less when the call's budget has less left (retry.ts `retryWithinBudget`).
   */
  private send(body: ChatCompletionCreateParamsNonStreaming, deadlineMs: number) {
    this.calls++;
    return withDeadline(deadlineMs, (signal) => this.sdk.chat.completions.create(body, { signal }));
  }

  /**
   * A probe request, retried like a call (408, 409, 429, 5xx, time-outs, lost connections;
   * backoff with jitter or the server's retry-after) within one call's budget, so that one
   * 429 at the start of a run does not leave the whole run unscored. Probes pass no budget
   * of requests: they are two tiny requests.
   */
  private async probeSend(body: ChatCompletionCreateParamsNonStreaming) {
    const r = await retryWithinBudget(retryPolicy(this.cfg), this.deps, (ms) => this.send(body, ms));
    if (r.ok) return r.value;
    throw r.error;
  }

  /** Which answer modes the server supports; asked once (the configured mode skips it). */
  probe(): Promise<ProbeResult> {
    if (this.cfg.mode !== "auto") {
      const fixed = this.cfg.mode;
      return Promise.resolve({ logprobs: fixed === "logprobs", structured: fixed === "structured", chosen: fixed, detail: [`mode fixed by config: ${fixed} (not probed)`] });
    }
    this.probed ??= this.runProbe(true);
    return this.probed;
  }

  /** Both modes, for `engine probe`. */
  probeBoth(): Promise<ProbeResult> {
    return this.runProbe(false);
  }

  private async runProbe(stopAtFirst: boolean): Promise<ProbeResult> {
    const detail: string[] = [];
    let logprobs = false;
    let structured = false;
    try {
      const body = await this.probeSend(this.request(PROBE_MESSAGES, "logprobs"));
      logprobs = hasTopLogprobs(body);
      detail.push(logprobs ? "logprobs: top_logprobs returned" : "logprobs: reply had no top_logprobs");
    } catch (e) {
      // No server at all is not a server without logprobs: say which host and port refused.
      const refused = connectionError(e, this.cfg.baseURL);
      if (refused !== null) throw refused;
      detail.push(`logprobs: ${describeError(e)}`);
    }
    if (!(logprobs && stopAtFirst)) {
      try {
        const body = await this.probeSend(this.request(PROBE_STRUCTURED, "structured"));
        structured = readStructured(body).ok;
        detail.push(structured ? "structured: valid JSON reply" : `structured: ${(readStructured(body) as { reason: string }).reason}`);
      } catch (e) {
        detail.push(`structured: ${describeError(e)}`);
      }
    }
    return { logprobs, structured, chosen: logprobs ? "logprobs" : structured ? "structured" : null, detail };
  }

  /** Asks one prompt with retries, within the call's budget (config.ts `laneCallBudgetMs`); never throws. */
  async call(messages: readonly ChatMessage[], mode: AnswerMode, caller: string, book: BudgetBook): Promise<CallOutcome> {
    const body = this.request(messages, mode);
    const bound = tokenBound(messages, body.max_tokens ?? 1);
    const t0 = this.deps.now();
    const policy = retryPolicy(this.cfg);
    let reservation: Reservation | null = null;
    let costUsd = 0;
    const r = await retryWithinBudget(
      policy,
      this.deps,
      async (ms) => {
        const held = reservation as Reservation;
        try {
          const res = await this.send(body, ms);
          const usage = res.usage;
          book.settle(held, usage ? usage.total_tokens : null);
          const price = this.cfg.price;
          costUsd = usage && price ? (usage.prompt_tokens * price.input + usage.completion_tokens * price.output) / 1e6 : 0;
          return res;
        } catch (e) {
          // A refused HTTP call used no tokens; a time-out or a lost connection may have: keep the reservation.
          book.settle(held, e instanceof OpenAI.APIConnectionError || isTimeout(e) ? null : 0);
          throw e;
        }
      },
      () => {
        reservation = book.reserve(caller, bound);
        return reservation.ok ? null : reservation.reason;
      },
    );
    const latencyMs = this.deps.now() - t0;
    if (r.ok) return { reading: mode === "logprobs" ? readLogprobs(r.value) : readStructured(r.value), latencyMs, costUsd, attempts: r.attempts, refused: false };
    if (r.stop === "refused") {
      const reason = r.attempts === 0 ? (r.refusal ?? "") : `${r.refusal ?? ""} (after ${r.attempts} attempts)`;
      return { reading: { ok: false, reason, raw: "" }, latencyMs, costUsd: 0, attempts: r.attempts, refused: r.attempts === 0 };
    }
    const e = r.error;
    // "timeout: …" first, so a report can count time-outs apart from the server's refusals.
    const reason = isTimeout(e)
      ? `timeout: gave up after ${gaveUp(r, policy)}: ${describeError(e)}`
      : isRetryable(e)
        ? `gave up after ${gaveUp(r, policy)}: ${describeError(e)}`
        : e instanceof OpenAI.APIError
          ? describeError(e)
          : `malformed reply: ${describeError(e)}`;
    return { reading: { ok: false, reason, raw: "" }, latencyMs, costUsd: 0, attempts: r.attempts, refused: false };
  }
}
