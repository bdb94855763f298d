import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";
import { logprobsCompletion } from "./helpers/fake-openai.js";

/**
 * Engine-level properties with the transport injected (the SDK's `fetch` option): the real
 * SDK, no sockets. A stub answers after a few event-loop turns, sometimes with a 429.
 */
function stubFetch(opts: { rate429: number; seed: number }) {
  let inFlight = 0;
  let peak = 0;
  let requests = 0;
  let s = opts.seed >>> 0;
  const rand = (): number => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  const fetchImpl = async (): Promise<Response> => {
    requests++;
    inFlight++;
    peak = Math.max(peak, inFlight);
    const turns = 1 + Math.floor(rand() * 3);
    for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
    inFlight--;
    if (rand() < opts.rate429) return new Response(JSON.stringify({ error: { message: "slow down" } }), { status: 429, headers: { "content-type": "application/json", "retry-after-ms": "0" } });
    return new Response(JSON.stringify(logprobsCompletion(0.7)), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetchImpl: fetchImpl as unknown as typeof fetch, stats: () => ({ peak, requests }) };
}

describe("engine properties (real SDK, injected transport)", () => {
  it("no caller ever exceeds its request budget, retries included, and nothing over budget is sent", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({ a: fc.integer({ min: 0, max: 8 }), b: fc.integer({ min: 0, max: 8 }) }),
        fc.array(fc.constantFrom("a", "b"), { minLength: 1, maxLength: 24 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.integer({ min: 1, max: 1000 }),
        async (limits, callers, rate429, seed) => {
          const stub = stubFetch({ rate429, seed });
          const engine = createEngine({
            lane: "openai",
            apiKey: "k",
            openai: { baseURL: "http://127.0.0.1:9/v1", model: "m", mode: "logprobs", concurrency: 3, maxRetries: 2 },
            callers: { a: { requests: limits.a }, b: { requests: limits.b } },
            deps: { fetch: stub.fetchImpl, sleep: async () => undefined, random: () => 0 },
          });
          const results = await Promise.all(
            callers.map((caller, i) => engine.ask([{ exchange: makeExchange(`p${seed}-${i}`), question: unhappy }], { caller }).then((ans) => ({ caller, a: ans[0]! }))),
          );
          const book = (engine as unknown as { stats: { calls: number } }).stats;
          expect(stub.stats().requests).toBe(book.calls);
          expect(stub.stats().requests).toBeLessThanOrEqual(limits.a + limits.b);
          for (const c of ["a", "b"] as const) {
            const scored = results.filter((r) => r.caller === c && r.a.status === "scored").length;
            expect(scored).toBeLessThanOrEqual(limits[c]);
            const refused = results.filter((r) => r.caller === c && /budget of caller/.test(r.a.reason ?? ""));
            if (callers.filter((x) => x === c).length > limits[c]) expect(refused.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 40, seed: 5 },
    );
  });

  it("never has more requests in flight than the lane's concurrency (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 30 }), fc.integer({ min: 1, max: 1000 }), async (concurrency, n, seed) => {
        const stub = stubFetch({ rate429: 0.1, seed });
        const engine = createEngine({
          lane: "openai",
          apiKey: "k",
          openai: { baseURL: "http://127.0.0.1:9/v1", model: "m", mode: "logprobs", concurrency },
          deps: { fetch: stub.fetchImpl, sleep: async () => undefined, random: () => 0 },
        });
        const pairs = Array.from({ length: n }, (_, i) => ({ exchange: makeExchange(`c${seed}-${i}`), question: unhappy }));
        const answers = await engine.ask(pairs, { caller: i2c(seed) });
        expect(answers).toHaveLength(n);
        expect(stub.stats().peak).toBeLessThanOrEqual(concurrency);
      }),
      { numRuns: 40, seed: 9 },
    );
  });
});

const i2c = (seed: number): string => (seed % 2 ? "errata-triage" : "errata-coverage");
