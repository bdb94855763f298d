import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { NOW, allFiles, seedLedger, tearLedger } from "./fixtures.js";

const repoRoot = resolve(import.meta.dirname, "../..");
const spotter = join(repoRoot, "datasets", "claude-code", "spotter");

/** A canary planted in every text field: it must never appear in what leaves the module. */
const CANARY = "ZEBRA-CANARY-7731";

function seedCanaries(dir: string): void {
  seedLedger(dir, [
    { complaint: `no, wrong ${CANARY} [mode:risky_action_unasked]`, ageHours: 80, context: { requested: `ask ${CANARY}`, response_preview: `reply ${CANARY}`, doing: `Bash: echo ${CANARY}`, session_id: "s-1", output_ids: ["out-1"] } },
    { complaint: `that's wrong ${CANARY}`, ageHours: 3, context: { requested: `ask ${CANARY}`, session_id: "s-2" } },
    { complaint: `stuck one ${CANARY}`, kind: "praise", ageHours: 100 },
    { complaint: `inferred ${CANARY}`, source: "detected", ageHours: 100 },
  ]);
}

describe("errata daily (in process, offline)", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("--json prints one {ok, failed, stages} value; every stage has a receipt; a second run files nothing twice", async () => {
    seedCanaries(t.dir);
    const env = { ERRATA_DIR: t.dir, HOME: t.dir };
    const io1 = memoryIo({ env, now: NOW });
    const code = await run(["daily", "--skip-mine", "--root", spotter, "--json"], io1.io);
    const out = JSON.parse(io1.out()) as { ok: boolean; failed: string[]; stages: Array<{ name: string; ok: boolean; skipped: boolean; counts: Record<string, number>; wrote: Record<string, string> }> };
    expect(out.stages.map((s) => s.name)).toEqual(["mine", "enrich", "label", "triage", "report", "v4"]);
    expect(out.stages[0]?.skipped).toBe(true);
    expect(out.failed.filter((n) => n !== "v4")).toEqual([]);
    expect(out.ok).toBe(true);
    expect(code).toBe(0);
    const enrich = out.stages.find((s) => s.name === "enrich")!;
    expect(enrich.counts["enriched"]).toBe(2);
    const triage = out.stages.find((s) => s.name === "triage")!;
    expect(existsSync(triage.wrote["report"]!)).toBe(true);
    expect(existsSync(join(t.dir, ".state", "state.json"))).toBe(true);
    const runs = readFileSync(join(t.dir, ".state", "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { stage: string });
    expect(runs.map((r) => r.stage)).toEqual(["mine", "enrich", "label", "triage", "report", "v4", "run"]);

    const io2 = memoryIo({ env, now: NOW + 60_000 });
    await run(["daily", "--skip-mine", "--root", spotter, "--json"], io2.io);
    const again = JSON.parse(io2.out()) as typeof out;
    expect(again.stages.find((s) => s.name === "enrich")?.counts["enriched"]).toBe(0);
    expect(again.stages.find((s) => s.name === "label")?.counts["labelled"]).toBe(0);
    expect(again.stages.find((s) => s.name === "triage")?.counts["entries"]).toBe(0);
    expect(existsSync(join(t.dir, "upgrades.jsonl"))).toBe(false);
  });

  it("privacy: events, state, run receipts and the record stream carry no entry text", async () => {
    seedCanaries(t.dir);
    const env = { ERRATA_DIR: t.dir, HOME: t.dir };
    await run(["daily", "--skip-mine", "--root", spotter], memoryIo({ env, now: NOW }).io);
    await run(["triage"], memoryIo({ env, now: NOW }).io);
    await run(["weekly"], memoryIo({ env, now: NOW }).io);
    const leaving = allFiles(join(t.dir, ".state")).filter(([p]) => /(events|runs|record)\.jsonl$|state\.json$/.test(p));
    expect(leaving.map(([p]) => p.split("/").pop()).sort()).toEqual(["events.jsonl", "record.jsonl", "runs.jsonl", "state.json"]);
    for (const [path, text] of leaving) {
      expect(text.length, path).toBeGreaterThan(0);
      expect(text, path).not.toContain(CANARY);
      expect(text, path).not.toContain("wrong");
    }
    // The upgrades queue is filed from ids and class names only.
    expect(readFileSync(join(t.dir, "upgrades.jsonl"), "utf8")).not.toContain(CANARY);
    // The ledger itself of course keeps the words.
    expect(allFiles(t.dir).some(([p, text]) => p.endsWith(".jsonl") && p.includes("errata-") && text.includes(CANARY))).toBe(true);
  });

  it("a torn ledger line is skipped and counted; the run still succeeds", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }]);
    tearLedger(t.dir);
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    const code = await run(["daily", "--skip-mine", "--root", spotter, "--json"], io.io);
    const out = JSON.parse(io.out()) as { ok: boolean; stages: Array<{ name: string; counts: Record<string, number> }> };
    expect(code).toBe(0);
    expect(out.ok).toBe(true);
    expect(out.stages.find((s) => s.name === "enrich")?.counts["enriched"]).toBe(1);
    const state = JSON.parse(readFileSync(join(t.dir, ".state", "state.json"), "utf8")) as { errata_report: { ledger_warnings: number } };
    expect(state.errata_report.ledger_warnings).toBeGreaterThanOrEqual(1);
  });

  it("--dry-run writes nothing at all", async () => {
    seedCanaries(t.dir);
    const before = allFiles(t.dir).map(([p, x]) => `${p}:${x.length}`).sort();
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    await run(["daily", "--skip-mine", "--root", spotter, "--dry-run", "--json"], io.io);
    expect(JSON.parse(io.out()).dry_run).toBe(true);
    expect(allFiles(t.dir).map(([p, x]) => `${p}:${x.length}`).sort()).toEqual(before);
  });

  it("bad input writes nothing and exits 2", async () => {
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    expect(await run(["daily", "--limit", "zero"], io.io)).toBe(2);
    expect(allFiles(t.dir)).toEqual([]);
  });
});

