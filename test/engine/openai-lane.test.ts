import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { openAnswerCache } from "../../runtime/engine/base/cache.js";
import { completion, defaultChat, logprobsCompletion, startFakeOpenAI, structuredCompletion, structuredOnlyChat, type FakeServer } from "./helpers/fake-openai.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";

let server: FakeServer | null = null;
let dir: string | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const noSleep = { sleep: async () => undefined, random: () => 0.5 };
const chats = (s: FakeServer) => s.requests.filter((r) => r.path === "/v1/chat/completions");

function engineFor(s: FakeServer, over: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  return createEngine({ lane: "openai", apiKey: "test-key", openai: { baseURL: s.url, model: "fake-judge", ...over }, deps: { ...noSleep }, ...extra });
}

const complaint = makeExchange("a", { prompt: "No, that's wrong. I asked for the other file." });
const thanks = makeExchange("b", { prompt: "Thanks, looks good." });

describe("openai lane against a local server (real SDK)", () => {
  it("reads P(yes) from top_logprobs when the server gives them, after a probe", async () => {
    server = await startFakeOpenAI();
    const engine = engineFor(server);
    const answers = await engine.ask([{ exchange: complaint, question: unhappy }, { exchange: thanks, question: unhappy }], { caller: "errata-triage" });
    expect(answers.map((a) => a.status)).toEqual(["scored", "scored"]);
    expect(answers[0]!.p_yes).toBeCloseTo(0.9 / (0.9 + 0.1 + 1e-4 * 0), 3);
    expect(answers[1]!.p_yes).toBeCloseTo(0.1 / (0.1 + 0.9 + 1e-4), 3);
    expect(answers[0]!.computed_from).toBe("logprobs");
    expect(answers[0]!.lane).toBe("openai");
    const sent = JSON.parse(chats(server).at(-1)!.body);
    expect(sent).toMatchObject({ model: "fake-judge", logprobs: true, top_logprobs: 20, max_tokens: 1, temperature: 0 });
    expect(await engine.probe()).toMatchObject({ logprobs: true, chosen: "logprobs" });
  });

  it("falls back to a strict structured reply validated with zod when the server has no logprobs", async () => {
    server = await startFakeOpenAI({ chat: structuredOnlyChat });
    const engine = engineFor(server);
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "errata-triage" });
    expect(a).toMatchObject({ status: "scored", computed_from: "structured" });
    expect(a!.p_yes).toBeCloseTo(0.9, 10);
    const sent = JSON.parse(chats(server).at(-1)!.body);
    expect(sent.response_format.type).toBe("json_schema");
    expect(sent.response_format.json_schema.strict).toBe(true);
    const probe = await engine.openaiLane.probeBoth();
    expect(probe).toMatchObject({ logprobs: false, structured: true, chosen: "structured" });
  });

  it("retries 429 and 500 with backoff (honouring retry-after-ms), then answers", async () => {
    server = await startFakeOpenAI();
    const waits: number[] = [];
    let n = 0;
    server.setChat((body) => {
      if (!body.messages[1]) return defaultChat(body, 0); // the probe
      n++;
      if (n === 1) return { status: 429, json: { error: { message: "slow down", type: "rate_limit" } }, headers: { "retry-after-ms": "7" } };
      if (n === 2) return { status: 500, json: { error: { message: "boom", type: "server_error" } } };
      return { json: logprobsCompletion(0.8) };
    });
    const engine = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: server.url, model: "m", retryBaseMs: 100, retryMaxMs: 1000 }, deps: { sleep: async (ms) => void waits.push(ms), random: () => 0.5 } });
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a).toMatchObject({ status: "scored" });
    expect(a!.p_yes).toBeCloseTo(0.8, 3);
    // First wait from retry-after-ms; the second is full jitter: 0.5 * min(1000, 100 * 2^1).
    expect(waits).toEqual([7, 100]);
    expect(engine.stats.calls).toBe(1 + 3); // probe + three attempts
  });

  it("gives up after maxRetries on persistent 500 and leaves the answer unscored", async () => {
    server = await startFakeOpenAI();
    server.setChat((body) => (body.messages[1] ? { status: 503, json: { error: { message: "down" } } } : defaultChat(body, 0)));
    const engine = engineFor(server, { maxRetries: 2 });
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a).toMatchObject({ status: "unscored", p_yes: null });
    expect(a!.reason).toMatch(/gave up after 3 attempts: HTTP 503/);
    expect(chats(server).length).toBe(1 + 3);
  });

  it("does not retry a 400: the answer is unscored at once", async () => {
    server = await startFakeOpenAI();
    server.setChat((body) => (body.messages[1] ? { status: 400, json: { error: { message: "bad model" } } } : defaultChat(body, 0)));
    const engine = engineFor(server);
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a!.reason).toMatch(/^HTTP 400/);
    expect(chats(server).length).toBe(2);
  });

  it("times out a slow reply, retries, and leaves it unscored", async () => {
    server = await startFakeOpenAI();
    server.setChat((body) => (body.messages[1] ? { delayMs: 1500, json: logprobsCompletion(0.9) } : defaultChat(body, 0)));
    // A budget far above two attempts: this test is about the retry, not the budget (test/engine/call-budget.test.ts).
    const engine = engineFor(server, { timeoutMs: 150, maxRetries: 1, callBudgetMs: 60_000 });
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a!.status).toBe("unscored");
    expect(a!.reason).toMatch(/gave up after 2 attempts: .*timed out/i);
  });

  it("leaves a malformed reply unscored: a body that is not JSON, and a structured reply that fails the schema", async () => {
    server = await startFakeOpenAI();
    server.setChat((body) => (body.messages[1] ? { text: '{"choices": [ {"message": ' } : defaultChat(body, 0)));
    const e1 = engineFor(server);
    const [a] = await e1.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a!.status).toBe("unscored");
    expect(a!.reason).toMatch(/^malformed reply/);
    expect(chats(server).length).toBe(2); // no retry on a malformed body

    server.setChat(() => ({ json: completion(JSON.stringify({ answer: "maybe", confidence: 0.7 })) }));
    const e2 = engineFor(server, { mode: "structured" });
    const [b] = await e2.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(b).toMatchObject({ status: "unscored", p_yes: null });
    expect(b!.reason).toMatch(/malformed structured reply: answer/);

    server.setChat(() => ({ json: completion(JSON.stringify({ answer: "yes", confidence: 0.7, note: "extra" })) }));
    const [c] = await engineFor(server, { mode: "structured" }).ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(c!.reason).toMatch(/malformed structured reply/);

    server.setChat(() => ({ json: completion("Maybe", { logprobs: { content: [{ token: "Maybe", logprob: -0.1, top_logprobs: [{ token: "Maybe", logprob: -0.1 }, { token: "Perhaps", logprob: -2.5 }] }] } }) }));
    const [d] = await engineFor(server, { mode: "logprobs" }).ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(d!.reason).toMatch(/neither yes nor no among the top tokens/);
  });

  it("leaves every answer unscored when the server supports neither mode", async () => {
    server = await startFakeOpenAI({ chat: () => ({ json: completion("I think so") }) });
    const engine = engineFor(server);
    const answers = await engine.ask([{ exchange: complaint, question: unhappy }, { exchange: thanks, question: unhappy }], { caller: "c" });
    expect(answers.every((a) => a.status === "unscored" && /supports neither logprobs nor structured/.test(a.reason ?? ""))).toBe(true);
  });

  it("refuses a call over the caller's budget before sending it; another caller is unaffected", async () => {
    server = await startFakeOpenAI();
    const engine = engineFor(server, {}, { callers: { "errata-triage": { requests: 2 }, "errata-coverage": { requests: 5 } } });
    const pairs = ["x1", "x2", "x3"].map((k) => ({ exchange: makeExchange(k), question: unhappy }));
    const a = await engine.ask(pairs, { caller: "errata-triage" });
    expect(a.map((x) => x.status)).toEqual(["scored", "scored", "unscored"]);
    expect(a[2]!.reason).toMatch(/budget of caller errata-triage exhausted: requests 2 of 2 used/);
    expect(engine.stats.refused).toBe(1);
    expect(chats(server).length).toBe(1 + 2); // probe + two
    const b = await engine.ask([{ exchange: makeExchange("y1"), question: unhappy }], { caller: "errata-coverage" });
    expect(b[0]!.status).toBe("scored");
  });

  it("caches answers: a re-run sends nothing (not even the probe); --no-cache asks again", async () => {
    server = await startFakeOpenAI();
    dir = mkdtempSync(join(tmpdir(), "errata-engine-"));
    const path = join(dir, "engine-cache.jsonl");
    const pairs = ["c1", "c2", "c3"].map((k) => ({ exchange: makeExchange(k), question: unhappy }));
    const first = engineFor(server, {}, { cache: openAnswerCache(path) });
    await first.ask(pairs, { caller: "c" });
    const sentBefore = server.requests.length;
    const again = engineFor(server, {}, { cache: openAnswerCache(path) });
    const answers = await again.ask(pairs, { caller: "c" });
    expect(server.requests.length).toBe(sentBefore);
    expect(again.stats).toMatchObject({ calls: 0, cacheHits: 3 });
    expect(answers.every((x) => x.status === "scored")).toBe(true);
    const forced = engineFor(server, {}, { cache: openAnswerCache(path) });
    await forced.ask(pairs, { caller: "c" }, );
    await forced.ask(pairs, { caller: "c", noCache: true });
    expect(forced.stats.calls).toBe(1 + 3);
  });

  it("sends no probe when the answer mode is fixed by config", async () => {
    server = await startFakeOpenAI();
    const engine = engineFor(server, { mode: "logprobs" });
    await engine.ask([{ exchange: complaint, question: unhappy }, { exchange: thanks, question: unhappy }], { caller: "c" });
    expect(chats(server).length).toBe(2);
    expect(engine.stats.calls).toBe(2);
  });

  it("keeps the concurrency at or under the pool's limit", async () => {
    server = await startFakeOpenAI({ latencyMs: 15 });
    const engine = engineFor(server, { concurrency: 4 });
    const pairs = Array.from({ length: 24 }, (_, i) => ({ exchange: makeExchange(`p${i}`), question: unhappy }));
    const answers = await engine.ask(pairs, { caller: "c" });
    expect(answers.every((a) => a.status === "scored")).toBe(true);
    expect(server.maxInFlight()).toBeLessThanOrEqual(4);
    expect(server.maxInFlight()).toBeGreaterThanOrEqual(2);
  });

  it("sends no session id, erratum id or home path to the judge", async () => {
    server = await startFakeOpenAI();
    const ex = makeExchange("priv", {
      session_id: "3f2a9c1e-0d4b-4e8f-9a7c-1b2c3d4e5f60",
      prompt: "wrong again, see /home/ana/work/app.ts and er-20261130-3fa9c1 (session 3f2a9c1e-0d4b-4e8f-9a7c-1b2c3d4e5f60)",
      reply_end: "I edited /Users/ana/notes.md",
      tool_calls: [{ name: "Edit", summary: "/home/ana/work/app.ts" }],
    });
    const engine = engineFor(server, {}, { home: "/home/ana" });
    await engine.ask([{ exchange: ex, question: unhappy }], { caller: "c" });
    const body = chats(server).at(-1)!.body;
    expect(body).not.toMatch(/\/home\/ana|\/Users\/ana|er-20261130|3f2a9c1e|ex-[0-9a-f]{16}/);
    expect(body).toContain("~/work/app.ts");
  });

  it("charges tokens as reported and reports cost from the configured price", async () => {
    server = await startFakeOpenAI();
    const engine = engineFor(server, { price: { input: 1, output: 2 } }, { callers: { c: { tokens: 100_000 } } });
    const [a] = await engine.ask([{ exchange: complaint, question: unhappy }], { caller: "c" });
    expect(a!.cost_usd).toBeCloseTo((50 * 1 + 1 * 2) / 1e6, 12);
    expect(engine.stats.calls).toBe(2);
  });
});

describe("openai lane: the Batch API", () => {
  it("writes the request file, uploads it, creates a batch, polls, and matches results by custom_id", async () => {
    server = await startFakeOpenAI({ batchPollsToComplete: 2 });
    dir = mkdtempSync(join(tmpdir(), "errata-batch-"));
    const statePath = join(dir, "batch-state.json");
    const requestsPath = join(dir, "batch-requests.jsonl");
    const engine = engineFor(server, { batchPollMs: 1 }, { cache: openAnswerCache(join(dir, "cache.jsonl")) });
    const pairs = [complaint, thanks, makeExchange("c")].map((exchange) => ({ exchange, question: unhappy }));
    const answers = await engine.askBatch(pairs, { caller: "errata-coverage", statePath, requestsPath });
    expect(answers.map((a) => a.status)).toEqual(["scored", "scored", "scored"]);
    expect(answers[0]!.p_yes).toBeGreaterThan(0.8);
    expect(answers[1]!.p_yes).toBeLessThan(0.2);
    expect(answers[0]!.computed_from).toBe("batch:logprobs");
    const lines = readFileSync(requestsPath, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatchObject({ method: "POST", url: "/v1/chat/completions", body: { model: "fake-judge", logprobs: true } });
    expect(server.requests.filter((r) => r.path === "/v1/files").length).toBe(1);
    expect(server.requests.filter((r) => r.path === "/v1/batches").length).toBe(1);
    expect(JSON.parse(readFileSync(statePath, "utf8"))).toMatchObject({ schema: "engine-batch/1", status: "completed", batchId: "batch_1" });
    // The cache now holds them: a second pass sends nothing.
    const n = server.requests.length;
    await engine.askBatch(pairs, { caller: "errata-coverage", statePath, requestsPath });
    expect(server.requests.length).toBe(n);
  });

  it("resumes after an interruption from the state file without uploading again", async () => {
    server = await startFakeOpenAI({ batchPollsToComplete: 3 });
    dir = mkdtempSync(join(tmpdir(), "errata-batch-"));
    const paths = { statePath: join(dir, "state.json"), requestsPath: join(dir, "req.jsonl") };
    const pairs = [complaint, thanks].map((exchange) => ({ exchange, question: unhappy }));
    const first = engineFor(server, { batchPollMs: 1 });
    const partial = await first.askBatch(pairs, { caller: "c", ...paths, maxPolls: 1 });
    expect(partial.every((a) => a.status === "unscored" && /batch batch_1 is in_progress/.test(a.reason ?? ""))).toBe(true);
    expect(JSON.parse(readFileSync(paths.statePath, "utf8"))).toMatchObject({ status: "in_progress", batchId: "batch_1", inputFileId: "file-1" });
    // A new process: same requests -> polls the same batch.
    const second = engineFor(server, { batchPollMs: 1 });
    const done = await second.askBatch(pairs, { caller: "c", ...paths });
    expect(done.map((a) => a.status)).toEqual(["scored", "scored"]);
    expect(server.requests.filter((r) => r.path === "/v1/files").length).toBe(1);
    expect(server.requests.filter((r) => r.method === "POST" && r.path === "/v1/batches").length).toBe(1);
  });

  it("marks requests that failed inside the batch unscored, with the status", async () => {
    server = await startFakeOpenAI({ batchPollsToComplete: 1 });
    server.setChat((body) => (/No, that's wrong/.test(JSON.stringify(body)) ? { status: 500, json: { error: { message: "boom" } } } : defaultChat(body, 0)));
    dir = mkdtempSync(join(tmpdir(), "errata-batch-"));
    const engine = engineFor(server, { batchPollMs: 1 });
    const answers = await engine.askBatch([complaint, thanks].map((exchange) => ({ exchange, question: unhappy })), { caller: "c", statePath: join(dir, "s.json"), requestsPath: join(dir, "r.jsonl") });
    expect(answers[0]).toMatchObject({ status: "unscored" });
    expect(answers[0]!.reason).toMatch(/batch request failed: HTTP 500/);
    expect(answers[1]).toMatchObject({ status: "scored" });
  });
});

// Keep the helper's structured builder exercised by name (used by the bench too).
void structuredCompletion;
