import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { judgeConsistency } from "../../calibration/index.js";
import { mulberry32 } from "../../core/mulberry32.js";
import { bank } from "../../questions/index.js";
import { logprobsCompletion, startFakeOpenAI, type FakeServer } from "../engine/helpers/fake-openai.js";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";

/**
 * `errata eval consistency` against a loopback OpenAI-compatible server that answers a
 * seeded-random share of detect.unhappy items the other way on the second ask (mulberry32
 * seed 11, share 0.2: items 6, 15, 16, 21, 31, 35 of 40) on every even-numbered ask, and nudges detect.correction's
 * P(yes) by 0.1 without crossing the cut. References: Wilson by hand (python, z = 1.959964).
 */
let dir: string;
let cleanup: () => void;
let server: FakeServer | null = null;
beforeEach(() => ({ dir, cleanup } = tempDir()));
afterEach(async () => {
  await server?.close();
  server = null;
  cleanup();
});

const cli = (argv: string[]) => cliIn(dir, argv);

const N = 40;
const hex = (i: number) => `ex-${i.toString(16).padStart(16, "0")}`;
function writeExchanges(sessionOf: (i: number) => string): void {
  const rows = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ schema: "exchange/1", id: hex(i), corpus: "synthetic", session_id: sessionOf(i), turn: i, prompt: `item-${i}- please look again`, prompt_ts: null, reply_end: "done", reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null, model: null, captured: false, synthetic: true, source_ref: null }),
  );
  writeFileSync(join(dir, "ex.jsonl"), rows.join("\n") + "\n");
}

const flipped = (() => {
  const r = mulberry32(11);
  return new Set(Array.from({ length: N }, (_, i) => i).filter(() => r() < 0.2));
})();

async function flippingServer(): Promise<FakeServer> {
  const unhappyText = bank.find((q) => q.id === "detect.unhappy")!.text;
  const seen = new Map<string, number>();
  return startFakeOpenAI({
    chat: (body) => {
      const user = String(body.messages.at(-1)?.content ?? "");
      const item = Number(/item-(\d+)-/.exec(user)?.[1] ?? -1);
      const unhappy = String(JSON.stringify(body.messages)).includes(unhappyText);
      const key = `${item}/${unhappy}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const p = item % 2 === 0 ? 0.8 : 0.2;
      if (n % 2 === 1) return { json: logprobsCompletion(p) }; // odd asks answer p, even asks flip the chosen items
      if (unhappy) return { json: logprobsCompletion(flipped.has(item) ? 1 - p : p) };
      return { json: logprobsCompletion(p - 0.1) };
    },
  });
}

/** A consistency report (c.json) from the flipping judge, three labellers' labels and the judge's predictions in the scratch folder. */
async function consistencyAndGold(): Promise<void> {
  server = await flippingServer();
  writeExchanges((i) => `s${i}`);
  writeFileSync(join(dir, "engine.json"), JSON.stringify({ lane: "judge", lanes: { judge: { kind: "openai", baseURL: server.url, model: "fake-judge", apiKey: "k", mode: "logprobs", temperature: 0.7, seed: 42 } } }));
  expect((await cli(["eval", "consistency", "--exchanges", "ex.jsonl", "--config", "engine.json", "--question", "detect.unhappy", "--out", "c.json"])).code).toBe(0);
  const labels: string[] = [];
  const preds: string[] = [];
  for (let i = 0; i < N; i++) {
    for (const who of ["a", "b", "c"]) labels.push(JSON.stringify({ schema: "label/1", exchange_id: hex(i), labeler: who, question: "detect.unhappy", value: i % 2 === 0, origin: "t" }));
    preds.push(JSON.stringify({ schema: "prediction/1", exchange_id: hex(i), detector: "judge", detected: i % 2 === 0 || i % 9 === 0, class: null }));
  }
  writeFileSync(join(dir, "labels.jsonl"), labels.join("\n") + "\n");
  writeFileSync(join(dir, "preds.jsonl"), preds.join("\n") + "\n");
}

describe("judgeConsistency (pure)", () => {
  it("flip rate per question with a session-cluster Wilson interval equal to a hand computation; unscored pairs left out", () => {
    // Sessions as (flips, items): (2,3) (0,3) (1,2) (0,2) (3,3) (0,2): 6 of 15, design effect 2.2133.
    const asks = [
      ...[[2, 3], [0, 3], [1, 2], [0, 2], [3, 3], [0, 2]].flatMap(([f, n], s) => Array.from({ length: n! }, (_, k) => ({ question: "q", session: `s${s}`, first: 0.9, second: k < f! ? 0.1 : 0.7 }))),
      { question: "q", session: "s9", first: 0.9, second: null },
    ];
    const [r] = judgeConsistency(asks);
    expect(r).toMatchObject({ question: "q", items: 15, flips: 6, unscored: 1, sessions: 6 });
    expect(r!.rate).toBeCloseTo(0.4, 10);
    expect(r!.designEffect).toBeCloseTo(2.213333, 5);
    expect(r!.low).toBeCloseTo(0.139305, 5);
    expect(r!.high).toBeCloseTo(0.733049, 5);
    expect(() => judgeConsistency(asks, 1)).toThrow(/a cut in \(0, 1\)/);
  });
});

describe("errata eval consistency", () => {
  it("against a loopback lane that flips a seeded share on the second ask: flip rates and Wilson intervals equal the hand-computed ones; temperature and seed recorded; the cache bypassed", async () => {
    expect([...flipped]).toEqual([6, 15, 16, 21, 31, 35]);
    server = await flippingServer();
    writeExchanges((i) => `s${i}`);
    writeFileSync(join(dir, "engine.json"), JSON.stringify({ lane: "judge", lanes: { judge: { kind: "openai", baseURL: server.url, model: "fake-judge", apiKey: "k", mode: "logprobs", temperature: 0.7, seed: 42 } } }));
    const args = ["eval", "consistency", "--exchanges", "ex.jsonl", "--config", "engine.json", "--question", "detect.unhappy", "--question", "detect.correction"];
    const j = await cli([...args, "--json", "--out", "c.json"]);
    expect(j.code, j.err).toBe(0);
    const out = JSON.parse(j.out) as { lane: string; sampling: { temperature: number; seed: number }; passes: { calls: number; cache_bypassed: boolean }[]; questions: { question: string; items: number; flips: number; rate: number; low: number; high: number; mean_abs_delta: number }[] };
    expect(out.lane).toBe("judge");
    expect(out.sampling).toEqual({ temperature: 0.7, seed: 42 });
    expect(out.passes.map((p) => [p.calls, p.cache_bypassed])).toEqual([[80, false], [80, true]]);
    expect(server.chatCount()).toBe(160);
    const u = out.questions.find((q) => q.question === "detect.unhappy")!;
    expect(u).toMatchObject({ items: 40, flips: 6 });
    expect(u.rate).toBeCloseTo(0.15, 10);
    // 40 sessions of one item: the cluster variance's m/(m-1) makes the design effect 40/39, so
    // the interval is Wilson on 39 effective items at rate 0.15 (plain Wilson: [0.0706, 0.2907]).
    expect(u.low).toBeCloseTo(0.069950, 5);
    expect(u.high).toBeCloseTo(0.292817, 5);
    const c = out.questions.find((q) => q.question === "detect.correction")!;
    expect(c).toMatchObject({ items: 40, flips: 0, rate: 0, low: 0 });
    expect(c.high).toBeCloseTo(0.087622, 5); // Wilson 0 of 40: z²/(n + z²)
    expect(c.mean_abs_delta).toBeCloseTo(0.1, 3);
    expect(JSON.parse(readFileSync(join(dir, "c.json"), "utf8"))).toMatchObject({ schema: "judge-consistency/1", sampling: { temperature: 0.7, seed: 42 } });
    // The second pass went to the server although the first filled the cache: a third run's first pass is all cache hits.
    const again = await cli([...args, "--json"]);
    const passes = (JSON.parse(again.out) as { passes: { calls: number; cache_hits: number }[] }).passes;
    expect(passes).toEqual([expect.objectContaining({ calls: 0, cache_hits: 80 }), expect.objectContaining({ calls: 80, cache_hits: 0 })]);
    const table = await cli(args);
    expect(table.out).toMatch(/temperature 0\.7, seed 42/);
    expect(table.out).toMatch(/detect\.unhappy\s+40 items\s+6 flips\s+rate 0\.1500 \[0\.0699, 0\.2928\]/);
  });

  it("the embedded offline lane is deterministic: flip rate 0 on every question asked", async () => {
    writeExchanges((i) => `s${i % 10}`);
    const j = await cli(["eval", "consistency", "--exchanges", "ex.jsonl", "--lane", "embedded", "--limit", "20", "--cut", "0.3", "--level", "0.9", "--caller", "t", "--json"]);
    expect(j.code, j.err).toBe(0);
    const out = JSON.parse(j.out) as { kind: string; sampling: unknown; level: number; questions: { items: number; flips: number; rate: number; mean_abs_delta: number }[] };
    expect(out).toMatchObject({ kind: "embedded", sampling: { temperature: null, seed: null }, level: 0.9 });
    expect(out.questions.length).toBe(bank.length);
    for (const q of out.questions) expect(q).toMatchObject({ items: 20, flips: 0, rate: 0, mean_abs_delta: 0 });
  });

  it("--dry-run asks nothing and writes nothing", async () => {
    server = await flippingServer();
    writeExchanges((i) => `s${i}`);
    writeFileSync(join(dir, "engine.json"), JSON.stringify({ lane: "judge", lanes: { judge: { kind: "openai", baseURL: server.url, model: "fake-judge", apiKey: "k", mode: "logprobs" } } }));
    const r = await cli(["eval", "consistency", "--exchanges", "ex.jsonl", "--config", "engine.json", "--question", "detect.unhappy", "--out", "c.json", "--dry-run", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ dry_run: true, asks: 80, sampling: { temperature: 0, seed: null } });
    expect(server.chatCount()).toBe(0);
    expect(existsSync(join(dir, "c.json"))).toBe(false);
  });

  it("bad input exits 2 naming what was expected and writes nothing", async () => {
    writeExchanges((i) => `s${i}`);
    for (const bad of [["--cut", "1.5"], ["--level", "0"], ["--limit", "0"], ["--question", "nope"], ["--lane", "nowhere"], ["--exchanges", "missing.jsonl"]]) {
      const argv = ["eval", "consistency", "--exchanges", "ex.jsonl", "--out", "c.json", ...bad];
      const r = await cli(argv);
      expect(r.code, `${bad.join(" ")}: ${r.err}`).toBe(2);
      expect(r.err).toMatch(/expected/);
      expect(existsSync(join(dir, "c.json"))).toBe(false);
    }
  });

  it("eval score --consistency says how far the flips bound agreement ((1 + sqrt(1 - 2f)) / 2, by hand) and --max-flip-rate is a gate bar on the flip rate's upper bound", async () => {
    await consistencyAndGold();
    writeFileSync(join(dir, "bars.json"), JSON.stringify({ schema: "eval-bars/1", bars: [{ id: "recall", kind: "at_least", metric: "recall", detector: "judge", value: 0.5, on: "point" }] }));
    expect((await cli(["eval", "sample", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--failure-detector", "judge", "--items", "40", "--failure-items", "0", "--out", "gold"])).code).toBe(0);
    const score = ["eval", "score", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--predictions", "preds.jsonl", "--split", "all", "--consistency", "c.json"];
    const t = await cli(score);
    expect(t.code, t.err).toBe(0);
    expect(t.out).toMatch(/judge consistency \(lane judge, fake-judge, temperature 0\.7, seed 42\): detect\.unhappy flips 6 of 40 asked twice, 0\.150 \[0\.070, 0\.293\]/);
    expect(t.out).toMatch(/bounded by the judge's own inconsistency: at most 0\.918 \(at most 0\.964 at the flip rate's lower bound\)/);
    const j = await cli([...score, "--check", "--bars", "bars.json", "--max-flip-rate", "0.3", "--json"]);
    expect(j.code, j.err).toBe(0);
    const c = (JSON.parse(j.out) as { consistency: { ceiling: number; ceiling_loosest: number; bar: { pass: boolean } } }).consistency;
    expect(c.ceiling).toBeCloseTo(0.918330, 5);
    expect(c.ceiling_loosest).toBeCloseTo(0.963708, 5);
    expect(c.bar.pass).toBe(true);
    const fail = await cli([...score, "--check", "--bars", "bars.json", "--max-flip-rate", "0.2"]);
    expect(fail.code).toBe(1);
    expect(fail.out).toMatch(/FAIL consistency detect\.unhappy flip rate <= 0\.2: 0\.150 \[0\.070, 0\.293\] \(judged on the upper bound <= 0\.2; bar from --max-flip-rate\)/);
    // Bad input: a bar without --check, a file of another kind, a question the file lacks.
    expect((await cli([...score, "--max-flip-rate", "0.2"])).code).toBe(2);
    expect((await cli([...score.slice(0, -1), "bars.json"])).code).toBe(2);
    const other = await cli([...score, "--detect-question", "detect.repeat"]);
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/no flip rate of detect\.repeat/);
  });

  it("the bars file's consistency bar: eval score --check reads it (and its report) without a flag; a missing report fails the bar", async () => {
    await consistencyAndGold();
    expect((await cli(["eval", "sample", "--exchanges", "ex.jsonl", "--failures", "preds.jsonl", "--failure-detector", "judge", "--items", "40", "--failure-items", "0", "--out", "gold"])).code).toBe(0);
    const bars = (consistency: object) => writeFileSync(join(dir, "eval-bars.json"), JSON.stringify({ schema: "eval-bars/1", consistency, bars: [{ id: "recall", kind: "at_least", metric: "recall", detector: "judge", value: 0.5, on: "point" }] }));
    const score = ["eval", "score", "--gold", "gold/gold.jsonl", "--labels", "labels.jsonl", "--predictions", "preds.jsonl", "--split", "all", "--check"];
    // Upper bound 0.293 > 0.2: fails; on the point rate 0.150 <= 0.2: passes; upper <= 0.3 passes.
    bars({ max_flip_rate: 0.2, report: "c.json" });
    const fail = await cli(score);
    expect(fail.code).toBe(1);
    expect(fail.out).toMatch(/FAIL consistency detect\.unhappy flip rate <= 0\.2: 0\.150 \[0\.070, 0\.293\] \(judged on the upper bound <= 0\.2; bar from .*eval-bars\.json\)/);
    bars({ max_flip_rate: 0.2, on: "point", report: "c.json" });
    const point = await cli([...score, "--json"]);
    expect(point.code, point.err).toBe(0);
    expect((JSON.parse(point.out) as { check: { pass: boolean; consistency_bar: { pass: boolean; judged_on: string } } }).check).toMatchObject({ pass: true, consistency_bar: { pass: true, judged_on: "point" } });
    // --max-flip-rate overrides the file's bar (judged on the upper bound).
    expect((await cli([...score, "--max-flip-rate", "0.3"])).code).toBe(0);
    // No report where the bar says: the bar fails (exit 1) and says how to make one.
    bars({ max_flip_rate: 0.3, report: "nowhere.json" });
    const missing = await cli(score);
    expect(missing.code).toBe(1);
    expect(missing.out).toMatch(/FAIL consistency detect\.unhappy flip rate <= 0\.3: no judge-consistency report at .*nowhere\.json \(make one with: errata eval consistency/);
  });
});
