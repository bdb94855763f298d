import { afterEach, describe, expect, it } from "vitest";
import { readRunReceipts } from "../../runtime/jobs/daily/receipts.js";
import { runLoop } from "../../runtime/jobs/daily/run-loop.js";
import { stageOutput } from "../../runtime/jobs/daily/context.js";
import { tempDir } from "../helpers/io.js";
import { join } from "node:path";
import { NOW } from "./fixtures.js";

describe("runLoop: fault isolation and receipts", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("a stage that throws is recorded and the next stages still run; every stage and the loop write a receipt", async () => {
    const runs = join(t.dir, "runs.jsonl");
    const ran: string[] = [];
    const result = await runLoop(
      [
        { name: "mine", run: async () => { ran.push("mine"); throw Object.assign(new Error("disk gone"), { code: "EIO" }); } },
        { name: "enrich", run: async () => { ran.push("enrich"); return stageOutput({ enriched: 0 }); } },
        { name: "report", run: async () => { ran.push("report"); return stageOutput({ total: 3 }); } },
      ],
      { loop: "daily", nowMs: () => NOW, runsFile: runs, dryRun: false },
    );
    expect(ran).toEqual(["mine", "enrich", "report"]);
    expect(result.ok).toBe(false);
    expect(result.failed).toEqual(["mine"]);
    expect(result.stages[0]?.error).toEqual({ code: "EIO", message: "disk gone" });
    const { receipts } = readRunReceipts(runs);
    expect(receipts.map((r) => [r.stage, r.ok])).toEqual([["mine", false], ["enrich", true], ["report", true], ["run", false]]);
    expect(new Set(receipts.map((r) => r.run_id)).size).toBe(1);
    // An empty run still leaves its receipt with zero counts: "found nothing" is not "never ran".
    expect(receipts[1]?.counts).toEqual({ enriched: 0 });
  });

  it("an advisory stage (v4) failing is reported but the loop stays ok", async () => {
    const result = await runLoop(
      [
        { name: "report", run: async () => stageOutput({}) },
        { name: "v4", advisory: true, run: async () => { throw new Error("no weights"); } },
      ],
      { loop: "daily", nowMs: () => NOW, runsFile: join(t.dir, "runs.jsonl"), dryRun: false },
    );
    expect(result.ok).toBe(true);
    expect(result.failed).toEqual(["v4"]);
  });

  it("a skipped stage writes a skipped receipt; a dry run writes none", async () => {
    const runs = join(t.dir, "runs.jsonl");
    await runLoop([{ name: "mine", skip: true, run: async () => { throw new Error("must not run"); } }], { loop: "daily", nowMs: () => NOW, runsFile: runs, dryRun: false });
    expect(readRunReceipts(runs).receipts.map((r) => [r.stage, r.skipped, r.ok])).toEqual([["mine", true, true], ["run", false, true]]);
    const dry = join(t.dir, "dry.jsonl");
    await runLoop([{ name: "report", run: async () => stageOutput({}) }], { loop: "daily", nowMs: () => NOW, runsFile: dry, dryRun: true });
    expect(readRunReceipts(dry).receipts).toEqual([]);
  });
});
