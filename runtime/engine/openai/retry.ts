import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { CallBudget, DeadlineError } from "../base/deadline.js";
import { ErrataError } from "../../../core/errors.js";

/**
 * The retry policy of the OpenAI lane (the SDK's own retries are turned off so that every
 * attempt passes the budget): retry on 408, 409, 429 and 5xx, on time-outs and on lost
 * connections; wait `retry-after-ms` / `retry-after` when the server sends it (capped at
 * `maxMs`), otherwise full jitter: uniform in [0, min(maxMs, baseMs * 2^attempt)).
 * A deadline that expired (the whole reply, body included: base/deadline.ts) is a time-out.
 * Anything else (400, 401, 404, a body that is not JSON) is final.
 *
 * Example: `backoffMs(2, {baseMs: 500, maxMs: 30000}, () => 0.5)` -> 1000.
 */
export const RETRY_STATUSES = "408, 409, 429, 5xx";

/** A time-out: the SDK's (no headers in time) or the deadline's (no whole reply in time). */
export function isTimeout(e: unknown): boolean {
  return e instanceof APIConnectionTimeoutError || e instanceof DeadlineError || (e instanceof APIUserAbortError && deadlineCause(e));
}

/** The SDK reports an abort by our deadline's signal as a user abort. */
function deadlineCause(e: APIUserAbortError): boolean {
  return (e as { cause?: unknown }).cause instanceof DeadlineError || /timed out/.test(e.message);
}

export function isRetryable(e: unknown): boolean {
  if (isTimeout(e)) return true;
  if (e instanceof APIConnectionError) return true; // includes APIConnectionTimeoutError
  if (e instanceof APIError && typeof e.status === "number") {
    return e.status === 408 || e.status === 409 || e.status === 429 || e.status >= 500;
  }
  return false;
}

export function backoffMs(attempt: number, policy: { baseMs: number; maxMs: number }, random: () => number): number {
  const cap = Math.min(policy.maxMs, policy.baseMs * 2 ** attempt);
  return Math.floor(random() * cap);
}

/** The server's requested wait, from `retry-after-ms` or `retry-after` (seconds or a date). */
export function retryAfterMs(e: unknown, nowMs: number): number | null {
  if (!(e instanceof APIError) || !e.headers) return null;
  const ms = e.headers.get("retry-after-ms");
  if (ms !== null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const ra = e.headers.get("retry-after");
  if (ra === null) return null;
  if (Number.isFinite(Number(ra))) return Math.max(0, Number(ra) * 1000);
  const t = Date.parse(ra);
  return Number.isNaN(t) ? null : Math.max(0, t - nowMs);
}

export function describeError(e: unknown): string {
  if (e instanceof APIError) {
    const status = typeof e.status === "number" ? `HTTP ${e.status}` : e.constructor.name;
    return `${status}: ${e.message}`.slice(0, 300);
  }
  if (e instanceof Error) return `${e.name}: ${e.message}`.slice(0, 300);
  return String(e).slice(0, 300);
}

/**
 * A lost connection named as one: the server's host and port and the system's error (walked
 * from the SDK error's causes: fetch's TypeError, then the socket's ECONNREFUSED or ENOTFOUND),
 * so "no server is running" never reads as "the server supports neither mode". Null for any
 * other error (a time-out is not a refused connection; an HTTP status came from a server).
 *
 * Example: nothing listening on 127.0.0.1:9 -> an IO ErrataError "cannot connect to the
 * OpenAI-compatible server at 127.0.0.1:9 (expected a server answering at
 * http://127.0.0.1:9/v1; found ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9)".
 */
export function connectionError(e: unknown, baseURL: string): ErrataError | null {
  if (!(e instanceof APIConnectionError) || e instanceof APIConnectionTimeoutError) return null;
  let sys: { code?: unknown; message?: unknown } | null = null;
  for (let c: unknown = e.cause, depth = 0; c !== undefined && c !== null && depth < 5; depth++) {
    const x = c as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof x.code === "string" && /^E[A-Z]+$/.test(x.code)) sys = x;
    c = x.cause;
  }
  let where = baseURL;
  try {
    const u = new URL(baseURL);
    where = `${u.hostname}:${u.port || (u.protocol === "https:" ? "443" : "80")}`;
  } catch {
    // not a URL: named as given
  }
  const found = sys !== null ? `${String(sys.code)}: ${String(sys.message ?? "")}`.slice(0, 200) : describeError(e);
  return new ErrataError("IO", `cannot connect to the OpenAI-compatible server at ${where}`, { expected: `a server answering at ${baseURL}`, found, cause: e });
}

/** What the retry loop needs of a lane's settings (openai/config.ts). */
export interface RetryPolicy {
  timeoutMs: number;
  callBudgetMs: number;
  maxRetries: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface RetryClock {
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  now: () => number;
}

/** Why a call stopped without a reply: the error was final, the retries ran out, the call's time ran out, or the caller's budget refused the next attempt. */
export type RetryStop = "final" | "retries" | "budget" | "refused";

export type Retried<T> = { ok: true; value: T; attempts: number } | { ok: false; error: unknown; attempts: number; stop: RetryStop; refusal: string | null };

/**
 * The lane's retry loop, every attempt and every wait under one `CallBudget`: the call ends
 * within `callBudgetMs` of its start, whatever the server does (stalls, 429s with long
 * retry-after, lost connections). Hand-written rather than the SDK's `maxRetries` because the
 * SDK's retries (openai-node 6: `timeout` per attempt and only up to the response headers;
 * waits of 0.5-8 s with `Math.random`, or the server's retry-after uncapped, in a sleep that
 * an AbortSignal does not interrupt) cannot be charged one by one to a caller's budget nor
 * bounded as a whole, and their clock and randomness cannot be injected for tests.
 * `admit` is asked before each attempt (the caller's request budget): a refusal ends the call.
 *
 * Example: timeoutMs 1000, callBudgetMs 2000, a server that stalls -> attempts 1 (1000 ms),
 * a wait, attempt 2 cut to what is left; `{ok: false, stop: "budget", attempts: 2}` within 2 s.
 */
export async function retryWithinBudget<T>(policy: RetryPolicy, clock: RetryClock, attempt: (deadlineMs: number) => Promise<T>, admit: () => string | null = () => null): Promise<Retried<T>> {
  const budget = new CallBudget(policy.callBudgetMs, clock.now);
  let attempts = 0;
  for (let n = 0; ; n++) {
    const refusal = admit();
    if (refusal !== null) return { ok: false, error: null, attempts, stop: "refused", refusal };
    attempts++;
    try {
      return { ok: true, value: await attempt(budget.attemptMs(policy.timeoutMs)), attempts };
    } catch (e) {
      if (!isRetryable(e)) return { ok: false, error: e, attempts, stop: "final", refusal: null };
      if (n >= policy.maxRetries) return { ok: false, error: e, attempts, stop: "retries", refusal: null };
      const asked = retryAfterMs(e, clock.now());
      const wait = Math.min(policy.retryMaxMs, asked ?? backoffMs(n, { baseMs: policy.retryBaseMs, maxMs: policy.retryMaxMs }, clock.random));
      if (!budget.allowsRetry(wait, policy.timeoutMs)) return { ok: false, error: e, attempts, stop: "budget", refusal: null };
      await clock.sleep(wait);
    }
  }
}

/** "after 2 attempts" plus, when the call's time ran out, whose budget it was. */
export function gaveUp(r: { attempts: number; stop: RetryStop }, policy: Pick<RetryPolicy, "callBudgetMs">): string {
  const n = `${r.attempts} attempt${r.attempts === 1 ? "" : "s"}`;
  return r.stop === "budget" ? `${n} (the call's budget of ${policy.callBudgetMs} ms spent)` : n;
}
