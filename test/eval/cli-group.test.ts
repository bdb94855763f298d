import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { CommandContext } from "../../cli/shared/command.js";
import { buildProgram, loadRegisters, run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

describe("the eval command group", () => {
  it("is one group holding brief, predictions and the eval commands, registered by its index", async () => {
    const ctx: CommandContext = { io: memoryIo().io, exitCode: 0 };
    const program = buildProgram(ctx, await loadRegisters(["eval"]));
    const groups = program.commands.filter((c) => c.name() === "eval");
    expect(groups).toHaveLength(1);
    expect(groups[0]?.commands.map((c) => c.name()).sort()).toEqual(["adjudicate", "agreement", "bias", "brief", "consistency", "label", "predictions", "sample", "score"]);
  });

  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const ex = (i: number) => ({
    schema: "exchange/1", id: `ex-${i.toString(16).padStart(16, "0")}`, corpus: "synthetic", session_id: `s${i % 7}`, turn: i,
    prompt: `p${i}`, prompt_ts: null, reply_end: null, reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null,
    model: null, captured: false, synthetic: true, source_ref: null,
  });
  const exFile = join(tmp.dir, "ex.jsonl");
  writeFileSync(exFile, Array.from({ length: 40 }, (_, i) => JSON.stringify(ex(i))).join("\n"));

  it("sample without composed verdicts: bad input unless no failures are asked for", async () => {
    const env = { ERRATA_DIR: join(tmp.dir, "ledger") };
    const a = memoryIo({ env });
    expect(await run(["eval", "sample", "--exchanges", exFile, "--items", "10"], a.io)).toBe(2);
    expect(a.err()).toMatch(/no composed verdicts/);
    const b = memoryIo({ env });
    expect(await run(["eval", "sample", "--exchanges", exFile, "--items", "10", "--failure-items", "0", "--dry-run", "--json"], b.io), b.err()).toBe(0);
    const m = JSON.parse(b.out()) as { written: boolean; drawn: { unscored: number } };
    expect(m).toMatchObject({ written: false, drawn: { unscored: 10 } });
  });

  it("names the line of a bad input row", async () => {
    writeFileSync(join(tmp.dir, "bad.jsonl"), `${JSON.stringify(ex(1))}\n{"schema":"exchange/1"}\n`);
    const io = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run(["eval", "sample", "--exchanges", join(tmp.dir, "bad.jsonl"), "--failure-items", "0"], io.io)).toBe(2);
    expect(io.err()).toMatch(/bad\.jsonl line 2 is not a valid exchange\/1 row/);
  });
});

describe("eval sample from the v4 folder (stored answers composed under the cuts)", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  it("strata come from composing the stored answers; exchanges without answers are unscored", async () => {
    const { bank } = await import("../../questions/index.js");
    const v4 = join(tmp.dir, "v4");
    const { mkdirSync } = await import("node:fs");
    mkdirSync(v4, { recursive: true });
    const exs = Array.from({ length: 30 }, (_, i) => ({
      schema: "exchange/1", id: `ex-${(1000 + i).toString(16).padStart(16, "0")}`, corpus: "synthetic", session_id: `s${i % 10}`, turn: i,
      prompt: `p${i}`, prompt_ts: null, reply_end: "r", reply_ts: null, previous_ask: null, tool_calls: [], cwd: null, version: null,
      model: null, captured: false, synthetic: true, source_ref: null,
    }));
    writeFileSync(join(v4, "exchanges.jsonl"), exs.map((e) => JSON.stringify(e)).join("\n") + "\n");
    const answers: string[] = [];
    exs.slice(0, 24).forEach((e, i) => {
      for (const q of bank.filter((x) => x.group === "detect" || x.group === "blame")) {
        const yes = (q.id === "detect.unhappy" && i % 3 === 0) || q.id === "blame.assistant";
        answers.push(JSON.stringify({
          schema: "answer/1", exchange_id: e.id, question_id: q.id, question_version: q.version, lane: "replay", model: "m",
          prompt_hash: "h", status: "scored", p_yes: yes ? 0.9 : 0.1, computed_from: "replay", reason: null, raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00Z",
        }));
      }
    });
    writeFileSync(join(v4, "answers.jsonl"), answers.join("\n") + "\n");
    const io = memoryIo({ env: { ERRATA_DIR: tmp.dir } });
    expect(await run(["eval", "sample", "--items", "15", "--failure-items", "5", "--seed", "2", "--json"], io.io), io.err()).toBe(0);
    const m = JSON.parse(io.out()) as { corpus: { failure: number; other: number; unscored: number }; drawn: { failure: number; other: number; unscored: number } };
    expect(m.corpus).toMatchObject({ failure: 8, other: 16, unscored: 6 });
    expect(m.drawn.failure).toBe(5);
    expect(m.drawn.other + m.drawn.unscored).toBe(10);
    expect(m.drawn.unscored).toBeGreaterThan(0);
  });
});
