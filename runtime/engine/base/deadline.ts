/**
 * A deadline over a whole request, response body included. The openai SDK's `timeout` stops
 * at the response headers: a server that sends headers and then stalls the body holds the
 * call (and an unattended daily run) open for ever. Here an AbortSignal is handed to the
 * request, which tears the connection down when the time is up, and the call is raced
 * against the same timer, so it returns on time even if a transport ignored the signal.
 *
 * Example: `await withDeadline(1000, (signal) => sdk.chat.completions.create(body, { signal }))`
 * against a stalled body rejects after 1 s with `DeadlineError` ("request timed out: no
 * complete reply within 1000 ms, body included").
 */
export class DeadlineError extends Error {
  readonly ms: number;
  constructor(ms: number) {
    super(`request timed out: no complete reply within ${ms} ms, body included`);
    this.name = "DeadlineError";
    this.ms = ms;
  }
}

export async function withDeadline<T>(ms: number, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ctl = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new DeadlineError(ms);
      ctl.abort(e);
      reject(e);
    }, ms);
  });
  const work = run(ctl.signal);
  // The request rejects on abort after the race is decided: not an unhandled rejection.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One remote call's budget of time: every attempt, and every wait between attempts, is
 * taken out of it, so a call that retries still ends within `ms` of its start. An attempt
 * gets `min(timeoutMs, what is left)`; a wait that would use up what is left ends the call
 * instead (sleeping and then having no time to ask is a wait for nothing).
 *
 * Example: `const b = new CallBudget(2000, Date.now)`; after a stalled attempt of 1000 ms,
 * `b.attemptMs(1000)` -> 1000 at most; after another, `b.remaining()` -> 0.
 */
export class CallBudget {
  private readonly startMs: number;
  constructor(
    readonly ms: number,
    private readonly now: () => number,
  ) {
    this.startMs = now();
  }

  elapsed(): number {
    return Math.max(0, this.now() - this.startMs);
  }

  remaining(): number {
    return Math.max(0, this.ms - this.elapsed());
  }

  /** The deadline of the next attempt: the lane's time-out, cut to what is left. */
  attemptMs(timeoutMs: number): number {
    return Math.floor(Math.min(timeoutMs, this.remaining()));
  }

  /**
   * True when another attempt is worth starting after waiting `waitMs`: what is left then is
   * at least a tenth of the time-out (a retry given less would most likely only spend one
   * of the caller's requests on a reply that cannot arrive in time).
   */
  allowsRetry(waitMs: number, timeoutMs: number): boolean {
    return this.remaining() - waitMs >= Math.max(1, timeoutMs / 10);
  }
}
