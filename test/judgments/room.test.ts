import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { bank } from "../../questions/index.js";
import { loadShippedWeights, reasonCodeOf, unscored, weightsCuts, weightsId, type WeightsFile } from "../../runtime/engine/index.js";
import { chooseCuts, JUDGE_CUTS_FILE, openJudgments, unscoredTally } from "../../runtime/judgments/index.js";
import { AnswerSchema, type Answer } from "../../schemas/answer.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { exchange } from "../v4/fake-engine.js";

const shipped = loadShippedWeights() as WeightsFile;
const embedded = { lane: "embedded", model: weightsId(shipped) };
let tmp: ReturnType<typeof tempDir>;
let v4Dir: string;
beforeEach(() => {
  tmp = tempDir();
  v4Dir = join(tmp.dir, "v4");
  mkdirSync(v4Dir, { recursive: true });
});
afterEach(() => tmp.cleanup());

describe("unscored reasons as codes", () => {
  // The details as each lane words them (lane.ts, reply.ts, batch.ts, budget.ts, embedded, replay, answers.ts).
  const table: Array<[string, string]> = [
    ["timeout: gave up after 3 attempts: DeadlineError: the call ran past 1000 ms", "timeout"],
    ["gave up after 3 attempts: HTTP 503: busy", "unavailable"],
    ["gave up after 1 attempts: APIConnectionError: Connection error.", "unavailable"],
    ["HTTP 400: bad request", "refused_request"],
    ["malformed reply: not a chat completion", "malformed_reply"],
    ["malformed structured reply: answer: Invalid input", "malformed_reply"],
    ["the server returned no top_logprobs", "malformed_reply"],
    ['neither yes nor no among the top tokens ("maybe")', "no_yes_no"],
    ["the server supports neither logprobs nor structured replies (logprobs: x; structured: y)", "unsupported_server"],
    ["budget of caller errata-triage exhausted: requests 2 of 2 used", "budget_exhausted"],
    ["lane budget exhausted: tokens 10 of 10 used (after 2 attempts)", "budget_exhausted"],
    ["batch request failed: 500", "batch_failed"],
    ["batch b-1 is expired: no result for custom_id k", "batch_failed"],
    ["no weights for question mode.x@1", "no_weights"],
    ["no embedded weights file is available", "no_weights"],
    ["no weights for rules.rule_covers (datasets/weights/rules-nouls.json missing)", "no_weights"],
    ["no stored answer for ex-1/detect.unhappy@1", "no_stored_answer"],
    ["the judge's P(yes) is not a finite number (found NaN)", "not_a_probability"],
    ["something else entirely", "other"],
  ];
  it("every lane's wording maps to its code, and a new answer carries the code", () => {
    for (const [reason, code] of table) expect(reasonCodeOf(reason), reason).toBe(code);
    const a = unscored({ schema: "answer/1", exchange_id: "e", question_id: "detect.unhappy", question_version: 1, lane: "openai", model: "m", prompt_hash: "h", ts: "t" }, "gave up after 3 attempts: HTTP 503: busy");
    expect(AnswerSchema.parse(a)).toMatchObject({ status: "unscored", reason_code: "unavailable" });
  });

  it("an old record without a code is still read, and tallied by the code its detail gives; 40 details are one code", () => {
    const old = (q: number): Answer => AnswerSchema.parse({ schema: "answer/1", exchange_id: "e", question_id: `q${q}`, question_version: 1, lane: "embedded", model: "m", prompt_hash: "h", raw: "", latency_ms: 0, cost_usd: 0, ts: "t", status: "unscored", p_yes: null, computed_from: null, reason: `no weights for question q${q}@1` });
    expect(old(1)).not.toHaveProperty("reason_code");
    const tally = unscoredTally([...Array.from({ length: 40 }, (_, i) => old(i)), old(1)], { lane: "embedded", model: "m" });
    expect(tally).toEqual({ answers: 41, reasons: [{ code: "no_weights", count: 41, example: "no weights for question q1@1" }] });
    expect(AnswerSchema.safeParse({ ...old(1), reason_code: "because" }).success).toBe(false);
  });
});

describe("the one cuts chooser", () => {
  const promotedFile = () => join(tmp.dir, "promoted.json");
  it("takes a cuts file, else the promoted configuration, else the judge's calibrated cuts over its weights', else 0.5", () => {
    writeFileSync(join(tmp.dir, "c.json"), JSON.stringify({ "detect.unhappy": 0.4 }));
    const req = { cwd: tmp.dir, v4Dir, promoted: { file: promotedFile() } };
    expect(chooseCuts({ ...req, file: "c.json" }, embedded)).toEqual({ source: "file", cuts: { "detect.unhappy": 0.4 }, origin: "cuts file c.json" });
    const promoted = { cuts: { "detect.unhappy": 0.6 } } as never;
    expect(chooseCuts({ ...req, promoted: { read: promoted } }, embedded)).toMatchObject({ source: "promoted", cuts: { "detect.unhappy": 0.6 } });
    expect(chooseCuts(req, embedded)).toMatchObject({ source: "weights", cuts: weightsCuts(shipped) });
    expect(chooseCuts(req, { lane: "openai", model: "m" })).toMatchObject({ source: "default", cuts: {} });
    writeFileSync(join(v4Dir, JUDGE_CUTS_FILE), JSON.stringify({ schema: "judge-cuts/1", written_at: "2026-12-06T00:00:00Z", judge: embedded, cuts: { "rules.rule_covers": 0.3 }, origins: { "rules.rule_covers": "f.json" } }));
    const calibrated = chooseCuts(req, embedded);
    expect(calibrated.source).toBe("calibrated");
    expect(calibrated.cuts).toEqual({ ...weightsCuts(shipped), "rules.rule_covers": 0.3 });
    expect(calibrated.origin).toMatch(/rules\.rule_covers from f\.json.*the rest calibrated with the weights/);
    // Cuts calibrated for another judge are not this one's.
    expect(chooseCuts(req, { lane: "openai", model: "m" }).source).toBe("default");
    // The promoted configuration still comes first.
    expect(chooseCuts({ ...req, promoted: { read: promoted } }, embedded).source).toBe("promoted");
  });

  it("a damaged cuts.json is bad input naming it, never silently 0.5", () => {
    writeFileSync(join(v4Dir, JUDGE_CUTS_FILE), "{not json");
    expect(() => chooseCuts({ v4Dir, promoted: { read: null } }, embedded)).toThrow(/cuts\.json is not JSON/);
  });
});

describe("openJudgments", () => {
  it("composes again only what new answers touch, and equals a fresh read", () => {
    const exs = [exchange({ prompt: "no, wrong" }), exchange({ prompt: "thanks" })];
    const e1 = exs[0]!.id;
    writeFileSync(join(v4Dir, "exchanges.jsonl"), exs.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const judge = { lane: "replay", model: "m" };
    const answer = (id: string, q: string, p: number): Answer => ({ schema: "answer/1", exchange_id: id, question_id: q, question_version: bank.find((b) => b.id === q)!.version, lane: "replay", model: "m", prompt_hash: "h", raw: "", latency_ms: 0, cost_usd: 0, ts: "t", status: "scored", p_yes: p, computed_from: "replay", reason: null });
    const cuts = { promoted: { read: null } };
    const j = openJudgments({ v4Dir, judge, cuts });
    expect(j.composed().map((c) => c.detect)).toEqual([null, null]);
    j.append([answer(e1, "detect.unhappy", 0.9), answer(e1, "blame.assistant", 0.9)]);
    const fresh = openJudgments({ v4Dir, judge, cuts });
    expect(j.composed()).toEqual(fresh.composed());
    expect(j.failures().map((c) => c.exchange.id)).toEqual([e1]);
    expect(readFileSync(join(v4Dir, "answers.jsonl"), "utf8").trim().split("\n")).toHaveLength(2);
  });
});

describe("errata calibrate use", () => {
  async function cli(argv: string[]) {
    const m = memoryIo({ env: { ERRATA_DIR: tmp.dir, HOME: "/home/ana" }, cwd: tmp.dir, now: Date.parse("2026-12-06T06:00:00Z") });
    return { code: await run(argv, m.io), out: m.out(), err: m.err() };
  }
  it("writes the calibrate fit candidate's cut for the judge, keeping the cuts already chosen", async () => {
    writeFileSync(join(tmp.dir, "a.json"), JSON.stringify({ "detect.unhappy": 0.35 }));
    const point = { cut: 0.41, flagged: 14, truePositives: 10, kappa: 0.5, precision: 0.71, recall: 0.83 };
    const candidate = { schema: "calibration-question/1", created_at: "2026-12-06T00:00:00Z", question: "rules.rule_covers", cuts: { question: "rules.rule_covers", n: 30, positives: 12, excluded: { no_majority: 0, unscored: 0 }, kappa_cut: point, precision_target: 0.9, precision_cut: null, notes: [] }, platt: null, isotonic: null, metrics: null, inputs: {} };
    writeFileSync(join(tmp.dir, "fit.json"), JSON.stringify(candidate));
    expect((await cli(["calibrate", "use", "a.json"])).code).toBe(0);
    const r = await cli(["calibrate", "use", "fit.json", "--json"]);
    expect(r.code, r.err).toBe(0);
    const file = JSON.parse(readFileSync(join(v4Dir, JUDGE_CUTS_FILE), "utf8"));
    expect(file).toMatchObject({ schema: "judge-cuts/1", judge: null, cuts: { "detect.unhappy": 0.35, "rules.rule_covers": 0.41 }, origins: { "rules.rule_covers": "the kappa cut of fit.json (2026-12-06)" } });
  });

  it("bad input exits 2 and writes nothing", async () => {
    writeFileSync(join(tmp.dir, "bad.json"), JSON.stringify({ "no.such.question": 0.3 }));
    for (const argv of [["calibrate", "use", "bad.json"], ["calibrate", "use", "missing.json"], ["calibrate", "use", "bad.json", "--rule", "median"]]) {
      expect((await cli(argv)).code, argv.join(" ")).toBe(2);
    }
    expect(() => readFileSync(join(v4Dir, JUDGE_CUTS_FILE))).toThrow();
  });
});
