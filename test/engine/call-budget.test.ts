import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import fc from "fast-check";
import { APIError } from "openai";
import { describe, expect, it, vi } from "vitest";
import { createEngine, FairPool } from "../../runtime/engine/index.js";
import { DeadlineError } from "../../runtime/engine/base/deadline.js";
import { OpenAILaneSchema, runBoundMs } from "../../runtime/engine/openai/config.js";
import { retryWithinBudget, type RetryPolicy } from "../../runtime/engine/openai/retry.js";
import { logprobsCompletion } from "./helpers/fake-openai.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";

/**
 * A remote call's worst case is stated and kept (issue 38, item 5): retries and their waits
 * under one budget per call. The bound is asserted on counts of attempts and on the budget's
 * arithmetic (a virtual clock), never on a wall-clock limit a busy machine could trip.
 */

/** A virtual clock: attempts and sleeps advance it by exactly what they would take. */
function virtualClock() {
  let t = 0;
  return { now: () => t, sleep: async (ms: number) => void (t += ms), advance: (ms: number) => void (t += ms) };
}

const http429 = (retryAfterMs: number | null) => new APIError(429, { message: "slow down" }, "slow down", new Headers(retryAfterMs === null ? {} : { "retry-after-ms": String(retryAfterMs) }));

describe("retryWithinBudget: every attempt and every wait inside the call's budget", () => {
  it("property: whatever the server does, the call's time never passes its budget, and each attempt's deadline never passes the time-out", async () => {
    const outcome = fc.oneof(
      fc.constant({ kind: "stall" as const }),
      fc.record({ kind: fc.constant("refused-fast" as const), ms: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant("429" as const), retryAfter: fc.option(fc.integer({ min: 0, max: 120_000 }), { nil: null }) }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 30 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.integer({ min: 0, max: 60_000 }),
        fc.double({ min: 0, max: 0.999, noNaN: true }),
        fc.array(outcome, { minLength: 1, maxLength: 40 }),
        async (timeoutMs, callBudgetMs, maxRetries, retryBaseMs, retryMaxMs, r, script) => {
          const clock = virtualClock();
          const policy: RetryPolicy = { timeoutMs, callBudgetMs, maxRetries, retryBaseMs, retryMaxMs };
          const deadlines: number[] = [];
          const res = await retryWithinBudget(policy, { ...clock, random: () => r }, async (deadlineMs) => {
            deadlines.push(deadlineMs);
            const o = script[(deadlines.length - 1) % script.length]!;
            if (o.kind === "stall") {
              clock.advance(deadlineMs);
              throw new DeadlineError(deadlineMs);
            }
            if (o.kind === "refused-fast") {
              clock.advance(Math.min(o.ms, deadlineMs));
              throw http429(null);
            }
            throw http429(o.retryAfter);
          });
          expect(res.ok).toBe(false);
          expect(clock.now()).toBeLessThanOrEqual(callBudgetMs);
          expect(res.attempts).toBeLessThanOrEqual(maxRetries + 1);
          expect(deadlines.length).toBe(res.attempts);
          for (const d of deadlines) expect(d).toBeLessThanOrEqual(timeoutMs);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a stalled server: at a budget of two time-outs, two attempts however many retries are allowed", async () => {
    const clock = virtualClock();
    const deadlines: number[] = [];
    const res = await retryWithinBudget({ timeoutMs: 1000, callBudgetMs: 2000, maxRetries: 10, retryBaseMs: 500, retryMaxMs: 30_000 }, { ...clock, random: () => 0.5 }, async (ms) => {
      deadlines.push(ms);
      clock.advance(ms);
      throw new DeadlineError(ms);
    });
    // 1000 ms, a wait of 250 ms (0.5 x 500), then what is left: 750 ms; then nothing is left.
    expect(deadlines).toEqual([1000, 750]);
    expect(res).toMatchObject({ ok: false, attempts: 2, stop: "budget" });
    expect(clock.now()).toBe(2000);
  });

  it("a retry-after past what is left ends the call at once instead of sleeping for nothing", async () => {
    const clock = virtualClock();
    const res = await retryWithinBudget({ timeoutMs: 1000, callBudgetMs: 2000, maxRetries: 4, retryBaseMs: 500, retryMaxMs: 30_000 }, { ...clock, random: () => 0.5 }, async () => {
      throw http429(5000);
    });
    expect(res).toMatchObject({ ok: false, attempts: 1, stop: "budget" });
    expect(clock.now()).toBe(0);
  });

  it("the run bound: (probes + ceil(N / C)) x the call's budget, two time-outs by default", () => {
    const cfg = OpenAILaneSchema.parse({ model: "m", timeoutMs: 1000 });
    expect(runBoundMs(cfg, 3)).toBe((2 + 1) * 2000);
    expect(runBoundMs({ ...cfg, concurrency: 1 }, 3)).toBe((2 + 3) * 2000);
    expect(runBoundMs({ ...cfg, mode: "logprobs", callBudgetMs: 500, concurrency: 2 }, 5)).toBe(3 * 500);
    expect(runBoundMs(cfg, 0)).toBe(0);
  });

  it("property: the pool ends N calls of at most B each within ceil(N / C) x B (it starts a queued call as soon as a slot frees)", async () => {
    vi.useFakeTimers();
    try {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.integer({ min: 0, max: 100 }), { minLength: 1, maxLength: 30 }), async (c, durations) => {
          const pool = new FairPool(c);
          const t0 = Date.now();
          let end = t0;
          const all = Promise.all(durations.map((d, i) => pool.run(i % 3 === 0 ? "a" : "b", () => new Promise<void>((r) => setTimeout(r, d)).then(() => void (end = Math.max(end, Date.now()))))));
          await vi.runAllTimersAsync();
          await all;
          expect(end - t0).toBeLessThanOrEqual(Math.ceil(durations.length / c) * 100);
        }),
        { numRuns: 100 },
      );
    } finally {
      vi.useRealTimers();
    }
  });
});

/** Loopback servers: one sends headers and the first bytes, then stalls; one never answers at all. Each test closes its own. */
async function badServer(kind: "stall-after-headers" | "never-answers"): Promise<{ url: string; questions: () => number; close: () => Promise<void> }> {
  let questions = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      const parsed = JSON.parse(body) as { messages: Array<{ content: string }> };
      if (parsed.messages.length === 1 && /two plus two/.test(parsed.messages[0]?.content ?? "")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(logprobsCompletion(0.9)));
        return;
      }
      questions++;
      if (kind === "stall-after-headers") {
        res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
        res.write('{"id":"chatcmpl-stall","choices":[');
      }
      // ... and never another byte (or, never answering, not even the headers).
    });
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const close = async (): Promise<void> => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, questions: () => questions, close };
}

describe("a run over N items against a server that stalls: every call within its budget", () => {
  for (const kind of ["stall-after-headers", "never-answers"] as const) {
    // The two kinds run at once: each spends most of its time waiting out time-outs (about 4 s).
    it.concurrent(`${kind}: 3 items, 10 retries allowed, budget of two time-outs -> at most 2 attempts each, every answer unscored 'timeout' naming the budget`, async ({ expect, onTestFinished }) => {
      const s = await badServer(kind);
      onTestFinished(() => s.close());
      // 1 s a time-out: long enough that a loaded machine still reaches the server in it (at 200 ms
      // a busy run could spend an attempt before its request arrived), short enough to stay cheap.
      const timeoutMs = 1000;
      // random 0: no wait between attempts, so the budget goes to attempts only (the most attempts it allows).
      const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: s.url, model: "m", timeoutMs, maxRetries: 10, concurrency: 2 }, deps: { random: () => 0 } });
      const pairs = ["a", "b", "c"].map((k) => ({ exchange: makeExchange(k, { prompt: `No, that's wrong (${k}).` }), question: unhappy }));
      const answers = await engine.ask(pairs, { caller: "c" });
      for (const a of answers) {
        expect(a.status).toBe("unscored");
        expect(a.reason).toMatch(/^timeout: gave up after [12] attempts? \(the call's budget of 2000 ms spent\): /);
      }
      // Before the budget: 11 attempts a call (1 + maxRetries), 33 in all. Now at most ceil(2000 / 1000) = 2 a call.
      expect(s.questions()).toBeGreaterThanOrEqual(3);
      expect(s.questions()).toBeLessThanOrEqual(3 * 2);
      // What the run's worst case is, as `engine ask --dry-run` states it: the probe, then ceil(3 / 2) calls.
      expect(engine.worstCaseMs(3)).toBe((2 + 2) * 2000);
    });
  }
});
