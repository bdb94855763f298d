import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { setV4EngineFactory } from "../../cli/shared/v4-pass.js";
import { bank, v3ClassQuestions } from "../../questions/index.js";
import type { Exchange } from "../../schemas/exchange.js";
import { judgeProjection } from "../../runtime/jobs/v4/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { exchange, fakeEngine } from "./fake-engine.js";

let tmp: ReturnType<typeof tempDir>;
let v4Dir: string;
const HOME = "/home/ana";

function writeExchanges(rows: Exchange[], file = join(v4Dir, "exchanges.jsonl")): string {
  mkdirSync(v4Dir, { recursive: true });
  writeFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
  return file;
}
function answerLines(): string[] {
  const f = join(v4Dir, "answers.jsonl");
  return existsSync(f) ? readFileSync(f, "utf8").trim().split("\n").filter(Boolean) : [];
}
async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: tmp.dir, HOME }, cwd: tmp.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

beforeEach(() => {
  tmp = tempDir();
  v4Dir = join(tmp.dir, "v4");
});
afterEach(() => {
  setV4EngineFactory(null);
  tmp.cleanup();
});

const detectN = bank.filter((q) => q.group === "detect" || q.group === "blame").length;
const diagnoseN = bank.filter((q) => q.group === "mode" || q.group === "cost").length;
/** Failure on prompts containing "FAIL": unhappy + assistant yes, everything else low; a planted mode fires. */
const failRule = (pair: { exchange: Exchange; question: { id: string } }): number => {
  const fail = pair.exchange.prompt.includes("FAIL");
  if (pair.question.id === "detect.unhappy" || pair.question.id === "blame.assistant") return fail ? 0.9 : 0.1;
  if (pair.question.id === "mode.stopped_short") return pair.exchange.prompt.includes("short") ? 0.8 : 0.2;
  if (pair.question.id === "mode.wrong_language") return pair.exchange.prompt.includes("other") ? 0.45 : 0.1;
  if (pair.question.id === "class.incomplete_work") return 0.7;
  if (pair.question.id === "cost.lost_time") return 0.6;
  return 0.1;
};

describe("privacy of judge inputs", () => {
  const secretSession = "5b1e9c0a-77aa-4d7e-9f00-123456789abc";
  const ex = exchange({
    session_id: secretSession,
    cwd: `${HOME}/work/app`,
    prompt: `FAIL: see ${HOME}/work/app/src/x.ts, erratum er-20261130-3fa9c1, session ${secretSession}`,
    reply_end: `I edited /Users/bob/app/y.ts and ${HOME}/notes.md`,
    previous_ask: `about er-20261129-aaaaaa`,
    tool_calls: [{ name: "Edit", summary: `${HOME}/work/app/src/x.ts` }],
    source_ref: `${HOME}/.claude/projects/-home-ana-work-app/${secretSession}.jsonl:12`,
    captured: true,
    synthetic: true,
  });

  it("the projection omits session id, home paths, erratum ids, cwd, source and ledger state", () => {
    const p = judgeProjection(ex, { home: HOME });
    const text = JSON.stringify(p);
    for (const bad of [secretSession, HOME, "/Users/bob", "er-20261130-3fa9c1", "er-20261129-aaaaaa", ".claude/projects"]) expect(text).not.toContain(bad);
    expect(p).toMatchObject({ session_id: "-", cwd: null, source_ref: null, captured: false, synthetic: false, prompt_ts: null, reply_ts: null });
    expect(p.prompt).toContain("~/work/app/src/x.ts");
    expect(p.id).toBe(ex.id);
  });

  it("everything the v4 pass sends to the engine is built from the projection", async () => {
    const engine = fakeEngine(failRule);
    setV4EngineFactory(async () => engine);
    writeExchanges([ex]);
    expect((await cli(["v4", "detect"])).code).toBe(0);
    expect((await cli(["v4", "diagnose"])).code).toBe(0);
    expect((await cli(["v4", "v3"])).code).toBe(0);
    expect(engine.sent.length).toBe(detectN + diagnoseN + v3ClassQuestions.length);
    const sent = JSON.stringify(engine.sent.map((p) => p.exchange));
    for (const bad of [secretSession, HOME, "/Users/bob", "er-20261130-3fa9c1", ".claude"]) expect(sent).not.toContain(bad);
    expect(new Set(engine.callers)).toEqual(new Set(["errata-triage"]));
  });
});

describe("v4 detect, diagnose, v3: idempotent re-runs", () => {
  it("a re-run asks nothing new and appends nothing", async () => {
    const engine = fakeEngine(failRule);
    setV4EngineFactory(async () => engine);
    writeExchanges([exchange({ prompt: "FAIL short" }), exchange({ prompt: "fine" }), exchange({ prompt: "FAIL again" })]);
    const first = await cli(["v4", "detect", "--json"]);
    expect(first.code).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ asked: 3 * detectN, already_answered: 0, scored: 3 * detectN });
    expect(answerLines()).toHaveLength(3 * detectN);

    const again = await cli(["v4", "detect", "--json"]);
    expect(JSON.parse(again.out)).toMatchObject({ asked: 0, already_answered: 3 * detectN });
    expect(answerLines()).toHaveLength(3 * detectN);

    const diag = JSON.parse((await cli(["v4", "diagnose", "--json"])).out);
    expect(diag).toMatchObject({ eligible: 2, asked: 2 * diagnoseN });
    expect(JSON.parse((await cli(["v4", "diagnose", "--json"])).out)).toMatchObject({ asked: 0, already_answered: 2 * diagnoseN });
    expect(JSON.parse((await cli(["v4", "v3", "--json"])).out)).toMatchObject({ eligible: 2, asked: 2 * 14 });
    expect(JSON.parse((await cli(["v4", "v3", "--json"])).out)).toMatchObject({ asked: 0 });
    expect(engine.stats.calls).toBe(3 * detectN + 2 * diagnoseN + 2 * 14);
  });

  it("--limit asks about at most N exchanges; --dry-run asks and writes nothing", async () => {
    const engine = fakeEngine(failRule);
    setV4EngineFactory(async () => engine);
    writeExchanges([exchange(), exchange(), exchange()]);
    const dry = JSON.parse((await cli(["v4", "detect", "--dry-run", "--json"])).out);
    expect(dry).toMatchObject({ dry_run: true, asked: 0, planned: 3 * detectN });
    expect(engine.stats.calls).toBe(0);
    expect(existsSync(join(v4Dir, "answers.jsonl"))).toBe(false);
    expect(JSON.parse((await cli(["v4", "detect", "--limit", "1", "--json"])).out)).toMatchObject({ exchanges: 1, asked: detectN });
    expect(JSON.parse((await cli(["v4", "detect", "--json"])).out)).toMatchObject({ exchanges: 2, asked: 2 * detectN, already_answered: detectN });
  });

  it("--retry-unscored asks again only where the stored answer is unscored, and the scored answer then counts", async () => {
    setV4EngineFactory(async () => fakeEngine((p) => (p.question.id === "detect.unhappy" ? Number.NaN : failRule(p))));
    writeExchanges([exchange({ prompt: "quiet" }), exchange({ prompt: "FAIL" })]);
    await cli(["v4", "detect"]);
    expect(JSON.parse((await cli(["v4", "detect", "--json"])).out)).toMatchObject({ asked: 0 });
    setV4EngineFactory(async () => fakeEngine(failRule));
    expect(JSON.parse((await cli(["v4", "detect", "--retry-unscored", "--json"])).out)).toMatchObject({ asked: 2, scored: 2 });
    expect(JSON.parse((await cli(["v4", "report", "--json"])).out)).toMatchObject({ composed: 2, failures: 1 });
  });

  it("bad input exits 2 and writes nothing", async () => {
    setV4EngineFactory(async () => fakeEngine());
    expect((await cli(["v4", "detect"])).code).toBe(2); // no exchanges file
    writeExchanges([exchange()]);
    expect((await cli(["v4", "detect", "--limit", "-3"])).code).toBe(2);
    writeFileSync(join(tmp.dir, "cuts.json"), JSON.stringify({ "detect.nope": 0.2 }));
    const r = await cli(["v4", "diagnose", "--cuts", "cuts.json"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("detect.nope");
    expect(existsSync(join(v4Dir, "answers.jsonl"))).toBe(false);
  });
});

describe("v4 report", () => {
  it("splits failures into reported and unreported, recomposes under --cuts without asking, and reports synthetic plants apart", async () => {
    const engine = fakeEngine(failRule);
    setV4EngineFactory(async () => engine);
    const planted = exchange({ prompt: "FAIL short", synthetic: true, corpus: "synthetic", session_id: "syn-1" });
    const plantedMissed = exchange({ prompt: "looks fine", synthetic: true, corpus: "synthetic", session_id: "syn-1" });
    const file = writeExchanges([
      exchange({ prompt: "FAIL short", captured: true, session_id: "a" }),
      exchange({ prompt: "FAIL other", session_id: "a" }),
      exchange({ prompt: "ok", session_id: "b" }),
      planted,
      plantedMissed,
    ]);
    writeFileSync(
      join(v4Dir, "labels.jsonl"),
      [planted, plantedMissed].map((e) => JSON.stringify({ schema: "label/1", exchange_id: e.id, labeler: "synthetic", question: "mode.stopped_short", value: true, origin: "synthetic" })).join("\n") + "\n",
    );
    for (const stage of ["detect", "diagnose", "v3"]) expect((await cli(["v4", stage])).code).toBe(0);
    const calls = engine.stats.calls;

    const rep = JSON.parse((await cli(["v4", "report", "--exchanges", file, "--json"])).out);
    expect(rep).toMatchObject({ exchanges: 3, sessions: 2, failures: 2, reported: 1, unreported: 1, diagnosed: 2, defects: 2 });
    expect(rep.classes).toEqual([
      { class_id: "incomplete_work", count: 1, reported: 1, unreported: 0 },
      { class_id: "wrong_language", count: 1, reported: 0, unreported: 1 },
    ]);
    expect(rep.session_rates.top[0]).toMatchObject({ session_id: "a", failures: 2, rate: 1 });
    // Session a: 2 of 2 flagged, b: 0 of 1; the median of [0, 1] is their midpoint.
    expect(rep.session_rates).toMatchObject({ sessions_with_failure: 1, mean_rate: 0.5, median_rate: 0.5 });
    expect(rep.v3).toMatchObject({ chosen: 2, compared: 2, agree: 1 });
    expect(rep.synthetic).toMatchObject({ exchanges: 2, planted: 2, found: 1, missed: 1, mode_found: 1, unplanted_flagged: 0 });
    expect(rep.synthetic.by_mode).toEqual([{ mode: "stopped_short", planted: 2, found: 1 }]);

    writeFileSync(join(tmp.dir, "cuts.json"), JSON.stringify({ cuts: { "detect.unhappy": 0.95 } }));
    const strict = JSON.parse((await cli(["v4", "report", "--exchanges", file, "--cuts", "cuts.json", "--json"])).out);
    expect(strict.failures).toBe(0);
    expect(engine.stats.calls).toBe(calls);

    const text = await cli(["v4", "report", "--exchanges", file]);
    expect(text.out).toContain("SYNTHETIC");
    expect(text.out).toContain("reported (already in the ledger): 1; unreported: 1");
  });

  it("an unscored answer that matters leaves the exchange uncomposed, never a no; one that does not, does not", async () => {
    setV4EngineFactory(async () => fakeEngine((p) => (p.question.id === "detect.unhappy" ? Number.NaN : failRule(p))));
    // Every other detect answer is no: without detect.unhappy nothing can be decided.
    writeExchanges([exchange({ prompt: "quiet" })]);
    await cli(["v4", "detect"]);
    const rep = JSON.parse((await cli(["v4", "report", "--json"])).out);
    expect(rep).toMatchObject({ exchanges: 1, composed: 0, not_composed: 1, failures: 0 });
    // The fake judge writes no reason_code (as records written before it did): read as "other", its text kept as the example.
    expect(rep.unscored).toEqual({ answers: 1, reasons: [{ code: "other", count: 1, example: "fake: unscored" }] });
  });

  it("a missing blame.host does not matter when the owner is unhappy with the assistant", async () => {
    setV4EngineFactory(async () => fakeEngine((p) => (p.question.id === "blame.host" ? Number.NaN : failRule(p))));
    writeExchanges([exchange({ prompt: "FAIL" })]);
    await cli(["v4", "detect"]);
    expect(JSON.parse((await cli(["v4", "report", "--json"])).out)).toMatchObject({ composed: 1, failures: 1, defects: 1 });
  });
});

describe("cuts by default: recorded with the weights, never a bare 0.5 where some exist", () => {
  it("answers of the shipped embedded model compose under its calibrated cuts, and every report says where the cuts came from", async () => {
    const { createEngine, loadShippedWeights, weightsCuts } = await import("../../runtime/engine/index.js");
    const weights = loadShippedWeights();
    if (weights === null) throw new Error("the shipped weights are missing");
    setV4EngineFactory(async () => createEngine({ lane: "embedded", weights, cache: null }));
    const file = writeExchanges([exchange({ prompt: "No, that's wrong. Undo it." }), exchange({ prompt: "thanks, now add a test" })]);
    const detect = await cli(["v4", "detect"]);
    expect(detect.code).toBe(0);
    expect(detect.out).toMatch(/^cuts: calibrated with the weights hashed-logreg\/[0-9a-f]{12} /m);
    const rep = JSON.parse((await cli(["v4", "report", "--exchanges", file, "--json"])).out);
    expect(rep.cuts_origin).toMatch(/^calibrated with the weights /);
    expect(rep.cuts["detect.unhappy"]).toBe(weightsCuts(weights)["detect.unhappy"]);
    expect(rep.cuts["detect.unhappy"]).not.toBe(0.5);
    expect((await cli(["v4", "report", "--exchanges", file])).out).toContain("cuts: calibrated with the weights");
    writeFileSync(join(tmp.dir, "cuts.json"), JSON.stringify({ "detect.unhappy": 0.4 }));
    const filed = JSON.parse((await cli(["v4", "report", "--exchanges", file, "--cuts", "cuts.json", "--json"])).out);
    expect(filed).toMatchObject({ cuts: { "detect.unhappy": 0.4 }, cuts_origin: "cuts file cuts.json" });
  });

  it("another judge's answers get the default 0.5, and the report says so", async () => {
    setV4EngineFactory(async () => fakeEngine(failRule));
    const file = writeExchanges([exchange({ prompt: "FAIL" })]);
    expect((await cli(["v4", "detect"])).out).toContain("cuts: default 0.5 for every question");
    const rep = JSON.parse((await cli(["v4", "report", "--exchanges", file, "--json"])).out);
    expect(rep).toMatchObject({ cuts: {}, cuts_origin: expect.stringMatching(/^default 0\.5/) });
  });
});
