import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { openAiProseLane } from "../../runtime/jobs/daily/enrich-openai.js";
import { makeExchange, unhappy } from "../engine/helpers/fixtures.js";
import { defaultChat, logprobsCompletion, startFakeOpenAI } from "../engine/helpers/fake-openai.js";
import type { Erratum } from "../../schemas/erratum.js";

/**
 * A server that sends the response headers and the first bytes of the body, then nothing
 * (a known openai-node behaviour: its time-out stops at the headers, so the call used to
 * wait for ever). Every model call must come back unscored "timeout" within its deadline
 * plus one second. The probe is answered; only the question stalls.
 */
let server: Server | null = null;
const sockets = new Set<import("node:net").Socket>();
afterEach(async () => {
  for (const s of sockets) s.destroy();
  sockets.clear();
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = null;
});

async function stallingServer(opts: { stallProbe?: boolean } = {}): Promise<{ url: string; chats: () => number }> {
  let chats = 0;
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (d: Buffer) => (body += d.toString()));
    req.on("end", () => {
      chats++;
      const parsed = JSON.parse(body) as { messages: Array<{ content: string }> };
      const probe = parsed.messages.length === 1 && /two plus two/.test(parsed.messages[0]?.content ?? "");
      if (probe && !opts.stallProbe) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(logprobsCompletion(0.9)));
        return;
      }
      res.writeHead(200, { "content-type": "application/json", "content-length": "5000" });
      res.write('{"id":"chatcmpl-stall","choices":[');
      // ... and never another byte.
    });
  });
  server.on("connection", (s) => sockets.add(s));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, chats: () => chats };
}

const complaint = makeExchange("a", { prompt: "No, that's wrong. I asked for the other file." });

describe("a stalled response body (the deadline covers the whole reply)", () => {
  it("the openai lane: unscored 'timeout' within the deadline + 1 s", async () => {
    const s = await stallingServer();
    const deadlineMs = 1000;
    const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: s.url, model: "m", timeoutMs: deadlineMs, maxRetries: 0 }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const t0 = Date.now();
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    const took = Date.now() - t0;
    expect(a).toMatchObject({ status: "unscored", p_yes: null });
    expect(a!.reason).toMatch(/^timeout: gave up after 1 attempt: DeadlineError: request timed out: no complete reply within 1000 ms, body included/);
    expect(took).toBeLessThan(deadlineMs + 1000);
  });

  it("retries a stalled body like any time-out, each attempt under its deadline", async () => {
    const s = await stallingServer();
    const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: s.url, model: "m", timeoutMs: 300, maxRetries: 2, callBudgetMs: 60_000 }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a!.reason).toMatch(/^timeout: gave up after 3 attempts/);
    expect(s.chats()).toBe(1 + 3); // the probe, then three attempts
  });

  it("a stalled probe: the auto-mode probe is retried, then every answer is unscored with the reason", async () => {
    const s = await stallingServer({ stallProbe: true });
    const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: s.url, model: "m", timeoutMs: 300, maxRetries: 1, callBudgetMs: 60_000 }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a!.status).toBe("unscored");
    expect(a!.reason).toMatch(/supports neither .*logprobs: DeadlineError: request timed out/);
    expect(s.chats()).toBe(4); // two tries of each probe
  });

  it("the daily enrichment lane: the call fails as a time-out within its deadline + 1 s", async () => {
    const s = await stallingServer({ stallProbe: true });
    const lane = openAiProseLane({ apiKey: "k", model: "m", baseURL: s.url, timeoutMs: 500, maxRetries: 0 });
    const t0 = Date.now();
    const err = await lane.enrich({ id: "er-20261130-000001", complaint: "no", kind: "complaint", context: { requested: null, response_preview: null, doing: null } } as unknown as Erratum).catch((e: unknown) => e);
    expect(String(err)).toMatch(/request timed out: no complete reply within 500 ms/);
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it("the auto-mode probe retries a 429 with backoff: one refusal at the start of a run no longer leaves it unscored", async () => {
    const fake = await startFakeOpenAI();
    try {
      let probes = 0;
      fake.setChat((body) => {
        if (!body.messages[1] && probes++ === 0) return { status: 429, json: { error: { message: "slow down", type: "rate_limit" } }, headers: { "retry-after-ms": "9" } };
        return defaultChat(body, 0);
      });
      const waits: number[] = [];
      const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: fake.url, model: "m" }, deps: { sleep: async (ms) => void waits.push(ms), random: () => 0.5 } });
      const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
      expect(a).toMatchObject({ status: "scored", computed_from: "logprobs" });
      expect(waits).toEqual([9]);
      expect(probes).toBe(2);
    } finally {
      await fake.close();
    }
  });
});
