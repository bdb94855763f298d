import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { createEngine } from "../../runtime/engine/index.js";
import type { ScoredAnswer } from "../../schemas/answer.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { startFakeOpenAI, structuredOnlyChat, type FakeServer } from "./helpers/fake-openai.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";
import { syntheticSet } from "./helpers/labelled.js";

const stored = (exchangeId: string, p: number, over: Partial<ScoredAnswer> = {}): ScoredAnswer => ({
  schema: "answer/1",
  exchange_id: exchangeId,
  question_id: "detect.unhappy",
  question_version: 1,
  lane: "openai",
  model: "gpt-x",
  prompt_hash: "abc",
  status: "scored",
  p_yes: p,
  computed_from: "logprobs",
  reason: null,
  raw: "Yes",
  latency_ms: 12,
  cost_usd: 0.0001,
  ts: "2026-11-29T10:00:00.000Z",
  ...over,
});

describe("replay lane", () => {
  it("reads answers back by exchange, question and version; a missing one is unscored", async () => {
    const a = makeExchange("r1");
    const b = makeExchange("r2");
    const engine = createEngine({ lane: "replay", answers: [stored(a.id, 0.2), stored(a.id, 0.8)] });
    const [x, y] = await engine.ask([{ exchange: a, question: unhappy }, { exchange: b, question: unhappy }], { caller: "t" });
    expect(x).toMatchObject({ lane: "replay", p_yes: 0.8, model: "gpt-x", status: "scored" });
    expect(y).toMatchObject({ status: "unscored", reason: `no stored answer for ${b.id}/detect.unhappy@1` });
    const v2 = await engine.ask([{ exchange: a, question: { ...unhappy, version: 2 } }], { caller: "t" });
    expect(v2[0]!.status).toBe("unscored");
  });
  it("filters stored answers by model", async () => {
    const a = makeExchange("r3");
    const engine = createEngine({ lane: "replay", answers: [stored(a.id, 0.2, { model: "m1" }), stored(a.id, 0.9, { model: "m2" })], filter: { model: "m1" } });
    const [x] = await engine.ask([{ exchange: a, question: unhappy }], { caller: "t" });
    expect(x!.p_yes).toBe(0.2);
  });
});

describe("errata engine (CLI, in process)", () => {
  let t: { dir: string; cleanup: () => void };
  let server: FakeServer | null = null;
  beforeEach(() => {
    t = tempDir();
  });
  afterEach(async () => {
    await server?.close();
    server = null;
    t.cleanup();
  });
  const writeSet = (name: string, seed: number): string => {
    const set = syntheticSet(seed, 50, 0.1, name);
    const dir = join(t.dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "exchanges.jsonl"), set.exchanges.map((e) => JSON.stringify(e)).join("\n") + "\n");
    writeFileSync(join(dir, "labels.jsonl"), set.labels.map((l) => JSON.stringify(l)).join("\n") + "\n");
    return join(dir, "labels.jsonl");
  };

  it("train is deterministic (byte-identical files), eval prints one JSON value, ask answers offline", async () => {
    const labels = writeSet("synth", 5);
    const env = { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir };
    const w1 = join(t.dir, "w1.json");
    const w2 = join(t.dir, "w2.json");
    for (const out of [w1, w2]) {
      const io = memoryIo({ env, cwd: t.dir });
      expect(await run(["engine", "train", "--labels", labels, "--out", out, "--l2", "1", "--no-signals", "--json"], io.io)).toBe(0);
      expect(JSON.parse(io.out())).toMatchObject({ written: true, questions: { "detect.unhappy@1": { converged: true } } });
    }
    expect(readFileSync(w1)).toEqual(readFileSync(w2));

    const ev = memoryIo({ env, cwd: t.dir });
    expect(await run(["engine", "eval", "--weights", w1, "--labels", labels, "--json"], ev.io)).toBe(0);
    const report = JSON.parse(ev.out());
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]).toMatchObject({ set: "synth", question: "detect.unhappy@1" });
    expect(report.rows[0].auc).toBeGreaterThan(0.9);
    expect(report.labellers_kappa).toMatch(/Fleiss/);

    const cfg = join(t.dir, "engine.json");
    writeFileSync(cfg, JSON.stringify({ lanes: { local: { kind: "embedded", weights: w1 } }, lane: "local" }));
    const ask = memoryIo({ env, cwd: t.dir });
    const out = join(t.dir, "answers.jsonl");
    expect(await run(["engine", "ask", "--config", cfg, "--exchanges", join(t.dir, "synth", "exchanges.jsonl"), "--question", "detect.unhappy", "--question", "detect.repeat", "--limit", "10", "--out", out, "--json"], ask.io)).toBe(0);
    const summary = JSON.parse(ask.out());
    expect(summary).toMatchObject({ kind: "embedded", total: 20, scored: 10, unscored: 10 });
    expect(summary.unscored_reasons).toEqual({ "no weights for question detect.repeat@1": 10 });
    expect(readFileSync(out, "utf8").trim().split("\n")).toHaveLength(20);

    const piped = memoryIo({ env, cwd: t.dir });
    expect(await run(["engine", "ask", "--config", cfg, "--exchanges", join(t.dir, "synth", "exchanges.jsonl"), "--question", "detect.unhappy", "--limit", "3", "--out", "-"], piped.io)).toBe(0);
    const rows = piped.out().trim().split("\n").map((l) => JSON.parse(l));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ schema: "answer/1", status: "scored", lane: "embedded" });
    expect(piped.err()).toMatch(/3 scored, 0 unscored of 3/);
  });

  it("bad input exits 2 and writes nothing", async () => {
    const io = memoryIo({ env: { ERRATA_DIR: t.dir }, cwd: t.dir });
    const bad = join(t.dir, "bad.jsonl");
    writeFileSync(bad, '{"schema":"label/1"}\n');
    writeFileSync(join(t.dir, "exchanges.jsonl"), "");
    expect(await run(["engine", "train", "--labels", bad, "--out", join(t.dir, "w.json")], io.io)).toBe(2);
    expect(io.err()).toMatch(/bad.jsonl line 1 does not match its schema/);
    expect(existsSync(join(t.dir, "w.json"))).toBe(false);
    const io2 = memoryIo({ env: { ERRATA_DIR: t.dir }, cwd: t.dir });
    expect(await run(["engine", "ask", "--exchanges", join(t.dir, "exchanges.jsonl"), "--question", "detect.nope"], io2.io)).toBe(2);
    expect(io2.err()).toMatch(/unknown question id/);
  });

  it("probe and ask reach an OpenAI-compatible server from the environment; a re-run is served from the cache", async () => {
    server = await startFakeOpenAI({ chat: structuredOnlyChat });
    const env = { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir, ERRATA_OPENAI_BASE_URL: server.url, ERRATA_OPENAI_MODEL: "fake-judge" };
    const probe = memoryIo({ env, cwd: t.dir });
    expect(await run(["engine", "probe", "--json"], probe.io)).toBe(0);
    expect(JSON.parse(probe.out())).toMatchObject({ logprobs: false, structured: true, chosen: "structured", model: "fake-judge" });

    const exFile = join(t.dir, "ex.jsonl");
    writeFileSync(exFile, [makeExchange("c1", { prompt: "No, that's wrong." }), makeExchange("c2")].map((e) => JSON.stringify(e)).join("\n"));
    const ask = async (): Promise<Record<string, unknown>> => {
      const io = memoryIo({ env, cwd: t.dir });
      expect(await run(["engine", "ask", "--lane", "openai", "--exchanges", exFile, "--question", "detect.unhappy", "--caller", "errata-triage", "--json"], io.io)).toBe(0);
      return JSON.parse(io.out());
    };
    const first = await ask();
    expect(first).toMatchObject({ kind: "openai", scored: 2, stats: { calls: 2 + 2, cache_hits: 0 } });
    const chatsBefore = server.chatCount();
    const second = await ask();
    expect(second).toMatchObject({ scored: 2, stats: { calls: 0, cache_hits: 2 } });
    expect(server.chatCount()).toBe(chatsBefore);
  });

  it("ask --batch goes through the Batch API with its state under the state folder; --lane replay reads the answers back", async () => {
    server = await startFakeOpenAI({ batchPollsToComplete: 2 });
    const ledger = join(t.dir, "ledger");
    mkdirSync(ledger, { recursive: true });
    writeFileSync(join(ledger, "errata-engine.json"), JSON.stringify({ schema: "engine-config/1", lanes: { low: { kind: "openai", baseURL: server.url, model: "fake-judge", batchPollMs: 1, mode: "logprobs" } } }));
    const env = { ERRATA_DIR: ledger, HOME: t.dir };
    const exFile = join(t.dir, "ex.jsonl");
    const exs = [makeExchange("b1", { prompt: "No, that's wrong." }), makeExchange("b2")];
    writeFileSync(exFile, exs.map((e) => JSON.stringify(e)).join("\n"));
    const out = join(t.dir, "answers.jsonl");
    const io = memoryIo({ env, cwd: t.dir });
    expect(await run(["engine", "ask", "--lane", "low", "--batch", "--exchanges", exFile, "--question", "detect.unhappy", "--out", out, "--json"], io.io)).toBe(0);
    expect(JSON.parse(io.out())).toMatchObject({ scored: 2, kind: "openai" });
    expect(JSON.parse(readFileSync(join(ledger, ".state", "engine-batch", "low.state.json"), "utf8"))).toMatchObject({ status: "completed" });
    expect(existsSync(join(ledger, ".state", "engine-batch", "low.requests.jsonl"))).toBe(true);

    const replay = memoryIo({ env, cwd: t.dir });
    expect(await run(["engine", "ask", "--lane", "replay", "--answers", out, "--exchanges", exFile, "--question", "detect.unhappy", "--question", "detect.repeat", "--json"], replay.io)).toBe(0);
    expect(JSON.parse(replay.out())).toMatchObject({ kind: "replay", scored: 2, unscored: 2, model: "fake-judge" });
  });

  it("probe exits 1 when the server supports neither mode, and 2 for a missing lane", async () => {
    server = await startFakeOpenAI({ chat: () => ({ json: { choices: [{ message: { content: "hm" } }] } }) });
    const env = { ERRATA_DIR: join(t.dir, "ledger"), ERRATA_OPENAI_BASE_URL: server.url, ERRATA_OPENAI_MODEL: "m" };
    const io = memoryIo({ env, cwd: t.dir });
    expect(await run(["engine", "probe"], io.io)).toBe(1);
    expect(io.out()).toMatch(/neither/);
    const io2 = memoryIo({ env: { ERRATA_DIR: t.dir }, cwd: t.dir });
    expect(await run(["engine", "probe", "--lane", "nope"], io2.io)).toBe(2);
    expect(io2.err()).toMatch(/no lane named nope/);
  });
});
