import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  askClassTier,
  classTierPromptHash,
  classTierQuestions,
  classTierQuestionsFrom,
  classTierVerdict,
  decideLevel,
  modelJudgeActive,
  promptHashOf,
  resolveClass,
  secondLookFlags,
  type LevelItem,
} from "../../classtier/index.js";
import { run } from "../../cli/main.js";
import type { Engine } from "../../runtime/engine/base/types.js";
import { classes } from "../../questions/taxonomy.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import { memoryIo, tempDir } from "../helpers/io.js";

const exchange = (i: number): Exchange => ({
  schema: "exchange/1", id: `ex-${i.toString(16).padStart(16, "0")}`, corpus: "test", session_id: `s${i}`, turn: 1, prompt: `prompt ${i}`, prompt_ts: null,
  reply_end: "reply", reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null,
});

const answer = (exchangeId: string, questionId: string, p: number | null, lane: Answer["lane"] = "replay"): Answer => ({
  schema: "answer/1", exchange_id: exchangeId, question_id: questionId, question_version: 1, lane, model: "judge-m", prompt_hash: "h",
  ...(p === null ? { status: "unscored" as const, p_yes: null, computed_from: null, reason: "no reply" } : { status: "scored" as const, p_yes: p, computed_from: "replay", reason: null }), raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00Z",
});

/** A fake model judge: names "fabrication" for even exchanges, nothing for odd ones. */
function fakeEngine(): Engine & { asked: number } {
  const e = {
    lane: "openai" as const,
    model: "judge-m",
    stats: { calls: 0, cacheHits: 0, refused: 0 },
    asked: 0,
    async ask(pairs: readonly { exchange: Exchange; question: { id: string } }[]) {
      e.asked += pairs.length;
      return pairs.map((p) => answer(p.exchange.id, p.question.id, p.question.id === "classtier.fabrication" && parseInt(p.exchange.id.slice(3), 16) % 2 === 0 ? 0.9 : 0.1, "openai"));
    },
  };
  return e;
}

describe("ClassTier questions and verdicts", () => {
  it("one question per v3 class, and the prompt hash moves when any text moves", () => {
    expect(classTierQuestions).toHaveLength(14);
    expect(classTierQuestions[0]!.id).toBe("classtier.ignored_instruction");
    const edited = classTierQuestionsFrom(classes.map((c, i) => (i === 3 ? { ...c, definition: `${c.definition} (edited)` } : c)));
    expect(promptHashOf(edited)).not.toBe(classTierPromptHash);
    expect(promptHashOf(classTierQuestionsFrom(classes))).toBe(classTierPromptHash);
  });
  it("names the top class at the cut, 'none' below it, unscored when any answer is missing", () => {
    const ids = ["a", "b", "c"];
    expect(classTierVerdict(new Map([["a", 0.2], ["b", 0.8], ["c", 0.6]]), ids)).toEqual({ status: "named", class: "b", p: 0.8 });
    expect(classTierVerdict(new Map([["a", 0.2], ["b", 0.3], ["c", 0.1]]), ids)).toEqual({ status: "none", pMax: 0.3 });
    expect(classTierVerdict(new Map([["a", 0.2], ["b", null], ["c", 0.9]]), ids).status).toBe("unscored");
    expect(classTierVerdict(new Map([["a", 0.2], ["b", 0.3]]), ids).status).toBe("unscored");
  });
});

describe("asking through the engine with the cache", () => {
  it("asks 14 pairs an exchange once; the cache answers the second time with the same verdicts", async () => {
    const engine = fakeEngine();
    const exchanges = [exchange(2), exchange(3), exchange(4)];
    const first = await askClassTier(engine, exchanges, [], { questions: classTierQuestions, promptHash: classTierPromptHash, caller: "errata-triage" });
    expect(first.asked).toBe(42);
    expect(first.verdicts.get(exchanges[0]!.id)).toMatchObject({ status: "named", class: "fabrication" });
    expect(first.verdicts.get(exchanges[1]!.id)).toMatchObject({ status: "none" });
    const cache = first.newAnswers.map((a) => ({ prompt_hash: classTierPromptHash, answer: a }));
    const second = await askClassTier(engine, exchanges, cache, { questions: classTierQuestions, promptHash: classTierPromptHash, caller: "errata-triage" });
    expect(second.asked).toBe(0);
    expect(second.fromCache).toBe(42);
    expect(second.verdicts).toEqual(first.verdicts);
    // Under another prompt hash nothing in the cache counts.
    const third = await askClassTier(engine, exchanges, cache, { questions: classTierQuestions, promptHash: "sha256:other", caller: "errata-triage" });
    expect(third.asked).toBe(42);
  });
});

describe("the runtime resolver", () => {
  const record = { level: "model_judge" as const, second_look: true, prompt_hash: classTierPromptHash };
  it("uses the model judge only while the recorded prompt hash matches the current prompt", () => {
    expect(resolveClass(record, classTierPromptHash, { modelJudge: "fabrication", classHead: "off_topic" })).toMatchObject({ source: "model_judge", class: "fabrication" });
    const changed = resolveClass(record, "sha256:new-prompt", { modelJudge: "fabrication", classHead: "off_topic" });
    expect(changed).toMatchObject({ source: "class_head", class: "off_topic" });
    expect(changed.reason).toMatch(/prompt hash changed/);
  });
  it("the class head stands in without a record, when the class head was recorded, or when the judge named nothing", () => {
    expect(resolveClass(null, classTierPromptHash, { modelJudge: "x", classHead: "y" }).source).toBe("class_head");
    expect(resolveClass({ ...record, level: "class_head" }, classTierPromptHash, { modelJudge: "x", classHead: "y" }).class).toBe("y");
    expect(resolveClass(record, classTierPromptHash, { modelJudge: null, classHead: "y" })).toMatchObject({ source: "class_head", class: "y" });
    expect(modelJudgeActive(record, classTierPromptHash).active).toBe(true);
  });
  it("the second look flags a passed exchange only when on and the prompt is current", () => {
    expect(secondLookFlags(record, classTierPromptHash, true, "fabrication")).toBe(true);
    expect(secondLookFlags(record, classTierPromptHash, false, "fabrication")).toBe(false);
    expect(secondLookFlags(record, classTierPromptHash, true, null)).toBe(false);
    expect(secondLookFlags({ ...record, second_look: false }, classTierPromptHash, true, "fabrication")).toBe(false);
    expect(secondLookFlags(record, "sha256:new", true, "fabrication")).toBe(false);
  });
});

describe("which level ships", () => {
  const named = (c: string) => ({ status: "named" as const, class: c, p: 0.9 });
  const none = { status: "none" as const, pMax: 0.1 };
  it("the model judge ships only when strictly more accurate; the second look needs precision and a hit", () => {
    const items: LevelItem[] = [
      { weight: 1, goldFailure: true, goldClass: "a", detected: true, judge: named("a"), head: "a" },
      { weight: 1, goldFailure: true, goldClass: "b", detected: true, judge: named("b"), head: "a" },
      { weight: 1, goldFailure: true, goldClass: "a", detected: false, judge: named("a"), head: "b" },
      { weight: 1, goldFailure: false, goldClass: null, detected: false, judge: none, head: null },
      { weight: 1, goldFailure: false, goldClass: null, detected: false, judge: named("c"), head: null },
    ];
    const d = decideLevel(items, { hasClassHead: true });
    expect(d.class_accuracy).toMatchObject({ model_judge: 1, items: 3 });
    expect(d.class_accuracy.class_head).toBeCloseTo(1 / 3, 12);
    expect(d.level).toBe("model_judge");
    expect(d.second_look_figures).toMatchObject({ passed: 3, flags: 2, hits: 1, precision: 0.5 });
    expect(d.second_look).toBe(true);
    const strict = decideLevel(items, { hasClassHead: true, secondLookPrecision: 0.6 });
    expect(strict.second_look).toBe(false);
    const tie = decideLevel(items.map((i) => ({ ...i, head: i.goldClass })), { hasClassHead: true });
    expect(tie.level).toBe("class_head");
  });
});

describe("errata classtier ask|eval --write", () => {
  let dir: string;
  let cleanup: () => void;
  beforeEach(() => ({ dir, cleanup } = tempDir()));
  afterEach(() => cleanup());
  it("caches answers in v4/classtier.jsonl and records the level with the prompt hash", async () => {
    const exchanges = Array.from({ length: 12 }, (_, i) => exchange(i));
    writeFileSync(join(dir, "exchanges.jsonl"), exchanges.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const stored: Answer[] = [];
    const labels: string[] = [];
    for (const [i, e] of exchanges.entries()) {
      const gold = i % 3 === 0 ? "fabrication" : "off_topic";
      for (const q of classTierQuestions) stored.push(answer(e.id, q.id, q.id === `classtier.${gold}` ? 0.8 : 0.2));
      for (const who of ["a", "b", "c"]) {
        labels.push(JSON.stringify({ schema: "label/1", exchange_id: e.id, labeler: who, question: "detect.unhappy", value: true, origin: "t" }));
        labels.push(JSON.stringify({ schema: "label/1", exchange_id: e.id, labeler: who, question: "class", value: gold, origin: "t" }));
      }
    }
    writeFileSync(join(dir, "replay.jsonl"), stored.map((a) => JSON.stringify(a)).join("\n") + "\n");
    writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
    const cli = async (argv: string[]) => {
      const m = memoryIo({ env: { ERRATA_DIR: dir }, cwd: dir });
      return { code: await run(argv, m.io), out: m.out(), err: m.err() };
    };
    const a = await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--replay", "replay.jsonl", "--json"]);
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(a.out)).toMatchObject({ asked: 168, verdicts: { named: 12, none: 0, unscored: 0 } });
    const again = await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--replay", "replay.jsonl", "--json"]);
    expect(JSON.parse(again.out)).toMatchObject({ asked: 0, from_cache: 168 });
    const e = await cli(["classtier", "eval", "--labels", "labels.jsonl", "--holdout-share", "0", "--write", "--json"]);
    expect(e.code, e.err).toBe(0);
    const level = JSON.parse(readFileSync(join(dir, "v4", "classtier-level.json"), "utf8"));
    expect(level).toMatchObject({ schema: "classtier-level/1", level: "model_judge", prompt_hash: classTierPromptHash });
    expect(level.class_accuracy.model_judge).toBe(1);
    expect(modelJudgeActive(level, classTierPromptHash).active).toBe(true);
    const dry = await cli(["classtier", "eval", "--labels", "labels.jsonl", "--holdout-share", "0"]);
    expect(dry.out).toMatch(/not recorded/);
    expect(existsSync(join(dir, "promoted.json"))).toBe(false);
  });
  it("ask uses the lane the engine config names; --lane overrides it; an unknown lane or --lane with --replay is exit 2", async () => {
    const exchanges = Array.from({ length: 6 }, (_, i) => exchange(i));
    writeFileSync(join(dir, "exchanges.jsonl"), exchanges.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const stored = exchanges.flatMap((e, i) => classTierQuestions.map((q) => answer(e.id, q.id, q.id === "classtier.fabrication" && i % 2 === 0 ? 0.9 : 0.1)));
    writeFileSync(join(dir, "stored.jsonl"), stored.map((a) => JSON.stringify(a)).join("\n") + "\n");
    writeFileSync(join(dir, "errata-engine.json"), JSON.stringify({ schema: "engine-config/1", lane: "stored", lanes: { stored: { kind: "replay", answers: join(dir, "stored.jsonl"), model: "judge-m" } } }));
    const cli = async (argv: string[]) => {
      const m = memoryIo({ env: { ERRATA_DIR: dir }, cwd: dir });
      return { code: await run(argv, m.io), out: m.out(), err: m.err() };
    };
    const a = await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--json"]);
    expect(a.code, a.err).toBe(0);
    expect(JSON.parse(a.out)).toMatchObject({ lane: "replay", model: "judge-m", asked: 84, verdicts: { named: 3, none: 3, unscored: 0 } });
    const emb = await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--lane", "embedded", "--dry-run", "--json"]);
    // The embedded lane holds no class-tier weights: a dry run says so too, exit 1 (issue 19).
    expect(emb.code, emb.err).toBe(1);
    expect(emb.err).toMatch(/did nothing: every answer on the embedded lane is unscored/);
    expect(JSON.parse(emb.out)).toMatchObject({ would_ask: 84, dry_run: true });
    const bad = await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--lane", "nope"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("no lane named nope");
    const both = await cli(["classtier", "ask", "--exchanges", "exchanges.jsonl", "--lane", "stored", "--replay", "stored.jsonl"]);
    expect(both.code).toBe(2);
    expect(readFileSync(join(dir, "v4", "classtier.jsonl"), "utf8").trim().split("\n")).toHaveLength(84);
  });
});
