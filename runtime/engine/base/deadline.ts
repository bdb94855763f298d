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
