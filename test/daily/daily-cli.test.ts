import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { run } from "../../cli/main.js";
import { bankHash } from "../../questions/index.js";
import type { RunReceipt } from "../../schemas/daily.js";
import type { HostOutput, HostReceipt } from "../../schemas/host.js";
import { readEvents } from "../../runtime/jobs/daily/events.js";
import { makeReceipt, writeRunReceipt } from "../../runtime/jobs/daily/receipts.js";
import { readReportState } from "../../runtime/jobs/daily/state.js";
import { readUpgrades } from "../../runtime/jobs/daily/upgrades.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { DAY, HOUR, NOW, allFiles, seedLedger, tearLedger } from "./fixtures.js";

// Every test that goes through the CLI (`run(argv, io)`) lives in this file: loading the
// whole command set costs seconds per test file, so it is paid once.

function dailyReceipt(ms: number): RunReceipt {
  return makeReceipt({ runId: "run-20261101-0000-abcdef", loop: "daily", stage: "run", startedMs: ms, endedMs: ms + 1000, ok: true, counts: {}, dryRun: false });
}
function out(id: string, skill: string, ageHours = 5, model = "m-a"): HostOutput {
  return { schema: "output/1", id, ts: new Date(NOW - ageHours * HOUR).toISOString(), session_id: "s", skill, model };
}
function receipt(outputId: string, passed: boolean): HostReceipt {
  return { schema: "receipt/1", id: `rc-${outputId}`, ts: new Date(NOW - HOUR).toISOString(), output_id: outputId, passed, checks: [] };
}

const repoRoot = resolve(import.meta.dirname, "../..");
const spotter = join(repoRoot, "datasets", "claude-code", "spotter");

/** A canary planted in every text field: it must never appear in what leaves the module. */
const CANARY = "ZEBRA-CANARY-7731";

function seedCanaries(dir: string): void {
  seedLedger(dir, [
    { complaint: `no, wrong ${CANARY} [mode:risky_action_unasked]`, ageHours: 80, context: { requested: `ask ${CANARY}`, response_preview: `reply ${CANARY}`, doing: `Bash: echo ${CANARY}`, session_id: "s-1", output_ids: ["out-1"] } },
    { complaint: `that's wrong ${CANARY}`, ageHours: 3, context: { requested: `ask ${CANARY}`, session_id: "s-2" } },
    // The same words again: the same class whatever the engine's weights say, so manual
    // triage always has a cluster of two to file.
    { complaint: `that's wrong ${CANARY}`, ageHours: 2, context: { requested: `ask ${CANARY}`, session_id: "s-3" } },
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
    expect(out.stages.map((s) => s.name)).toEqual(["mine", "enrich", "label", "triage", "report", "v4", "ladder"]);
    expect(out.stages[0]?.skipped).toBe(true);
    expect(out.failed.filter((n) => n !== "v4")).toEqual([]);
    expect(out.ok).toBe(true);
    expect(code).toBe(0);
    const enrich = out.stages.find((s) => s.name === "enrich")!;
    expect(enrich.counts["enriched"]).toBe(3); // the three complaints; praise and detected rows are not eligible
    const triage = out.stages.find((s) => s.name === "triage")!;
    expect(existsSync(triage.wrote["report"]!)).toBe(true);
    expect(existsSync(join(t.dir, ".state", "state.json"))).toBe(true);
    const runs = readFileSync(join(t.dir, ".state", "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { stage: string });
    expect(runs.map((r) => r.stage)).toEqual(["mine", "enrich", "label", "triage", "report", "v4", "ladder", "run"]);

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
    // Every confidence counts here, so the upgrades queue below is filed and can be checked.
    await run(["triage", "--min-confidence", "0"], memoryIo({ env, now: NOW }).io);
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

describe("report, weekly, joins and the promoted configuration through the CLI", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("low severity when nothing is stuck; --dry-run computes and writes nothing", async () => {
    seedLedger(t.dir, [{ complaint: "fresh", ageHours: 1 }]);
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    expect(await run(["report", "--dry-run", "--json"], io.io)).toBe(0);
    const v = JSON.parse(io.out()) as { events: Array<{ severity: string }>; dry_run: boolean };
    expect(v.events.map((e) => e.severity)).toEqual(["low"]);
    expect(existsSync(join(t.dir, ".state", "events.jsonl"))).toBe(false);
    expect(existsSync(join(t.dir, ".state", "state.json"))).toBe(false);
    expect(existsSync(join(t.dir, ".state", "runs.jsonl"))).toBe(false);
  });

  it("the report raises the alarm as an event, in state, and exits 1", async () => {
    seedLedger(t.dir, [{ complaint: "x", ageHours: 1 }]);
    const runs = join(t.dir, ".state", "runs.jsonl");
    for (const d of [5, 4, 3, 1]) writeRunReceipt(runs, dailyReceipt(NOW - d * DAY + HOUR));
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    expect(await run(["report"], io.io)).toBe(1);
    expect(io.out()).toContain("ALARM: no daily run receipt on 2026-11-28");
    const events = readEvents(join(t.dir, ".state", "events.jsonl"));
    expect(events.map((e) => [e.kind, e.severity, e.ids])).toContainEqual(["errata.run-missing", "medium", ["2026-11-28"]]);
    expect(readReportState(join(t.dir, ".state", "state.json"))?.missing_run_days).toEqual(["2026-11-28"]);
  });

  it("CLI: misses --file-upgrades files one upgrade per false pass, once; skills/by-model/impact print one JSON value", async () => {
    const hostDir = join(t.dir, "host");
    mkdirSync(hostDir);
    writeFileSync(join(hostDir, "outputs.jsonl"), [out("o1", "notes"), out("o2", "notes")].map((o) => JSON.stringify(o)).join("\n") + "\n");
    writeFileSync(join(hostDir, "receipts.jsonl"), JSON.stringify(receipt("o1", true)) + "\n{torn");
    seedLedger(t.dir, [{ complaint: "o1 is wrong", context: { output_ids: ["o1"] } }, { complaint: "o1 again", context: { output_ids: ["o1"] } }, { complaint: "both", context: { output_ids: ["o1", "o2"] } }]);
    const env = { ERRATA_DIR: t.dir, HOME: t.dir, ERRATA_HOST_DIR: hostDir };
    const io1 = memoryIo({ env, now: NOW });
    expect(await run(["misses", "--file-upgrades", "--json"], io1.io)).toBe(0);
    expect(JSON.parse(io1.out())).toMatchObject({ filed: 1, existing: 0, ambiguous: 1 });
    expect(io1.err()).toContain("1 malformed line");
    const io2 = memoryIo({ env, now: NOW + DAY });
    await run(["misses", "--file-upgrades", "--json"], io2.io);
    expect(JSON.parse(io2.out())).toMatchObject({ filed: 0, existing: 2 });
    const q = readUpgrades(join(t.dir, "upgrades.jsonl"));
    expect(q.upgrades).toHaveLength(1);
    expect(q.upgrades[0]).toMatchObject({ kind: "false-pass", output_id: "o1", skill: "notes", source: "errata" });
    expect(q.upgrades[0]?.erratum_ids).toHaveLength(2);

    const s = memoryIo({ env, now: NOW });
    await run(["skills", "--json"], s.io);
    expect(JSON.parse(s.out()).skills[0]).toMatchObject({ skill: "notes", outputs: 2, complaints: 3 });
    const m = memoryIo({ env, now: NOW });
    await run(["by-model", "--json"], m.io);
    expect(JSON.parse(m.out()).models).toBeInstanceOf(Array);
    const i = memoryIo({ env, now: NOW });
    await run(["impact", "--skill", "notes", "--since", "2026-11-30", "--days", "3", "--json"], i.io);
    expect(JSON.parse(i.out())).toMatchObject({ skill: "notes", days: 3 });
    const bad = memoryIo({ env, now: NOW });
    expect(await run(["impact", "--skill", "notes"], bad.io)).toBe(2);
    const landed = memoryIo({ env, now: NOW });
    await run(["impact", "--landed", "--json"], landed.io);
    expect(JSON.parse(landed.out())).toEqual({ days: 14, landed: [] });
  });
  it("errata weekly runs the report over seven days with its own receipts", async () => {
    seedLedger(t.dir, [{ complaint: "x", ageHours: 24 * 6 }, { complaint: "y", ageHours: 24 * 8 }]);
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    expect(await run(["weekly", "--json"], io.io)).toBe(0);
    const out = JSON.parse(io.out()) as { ok: boolean; stages: Array<{ name: string; counts: Record<string, number> }> };
    expect(out.stages.map((s) => s.name)).toEqual(["report", "rules"]);
    expect(out.stages[0]?.counts["total"]).toBe(1);
    // The rules stage (the M7b pass) has nothing to index here, and says so.
    expect((out.stages[1] as unknown as { notes: string[] }).notes[0]).toMatch(/no rule roots .* and no rule index/);
    const runs = readFileSync(join(t.dir, ".state", "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { loop: string; stage: string });
    expect(runs.map((r) => `${r.loop}/${r.stage}`)).toEqual(["weekly/report", "weekly/rules", "weekly/run"]);
  });

  it("the CLI reads a valid promoted.json and the v4 stage runs on it; an invalid one is shadow, said on stderr", async () => {
    seedLedger(t.dir, [{ complaint: "x" }]);
    const promoted = {
      schema: "promoted/1",
      promoted_at: "2026-11-29T00:00:00Z",
      bank_hash: bankHash,
      cuts: { "detect.unhappy": 0.7 },
      heads: { detect: null, class: null },
      class_level: "composer",
      second_look: false,
      prompt_hashes: {},
      check: { pass: true, split: "holdout", bars_source: "defaults", bars: [], detectors: [], items: 0, gold_failures: 0, bootstrap: { method: "session-block", resamples: 2000, seed: 1, level: 0.95, sessions: 1 } },
      sources: {},
    };
    writeFileSync(join(t.dir, "promoted.json"), JSON.stringify(promoted));
    const io = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    await run(["daily", "--skip-mine", "--root", spotter, "--json"], io.io);
    const v4 = (JSON.parse(io.out()) as { stages: Array<{ name: string; notes: string[]; ok: boolean }> }).stages.find((s) => s.name === "v4")!;
    expect(v4.ok).toBe(true);
    expect(v4.notes[0]).toBe(`v4 on the promoted configuration (bank ${bankHash.replace(/^sha256:/, "").slice(0, 8)}, class level composer)`);

    writeFileSync(join(t.dir, "promoted.json"), JSON.stringify({ ...promoted, bank_hash: "sha256:0000" }));
    const io2 = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir }, now: NOW });
    await run(["daily", "--skip-mine", "--root", spotter, "--json"], io2.io);
    const v4b = (JSON.parse(io2.out()) as { stages: Array<{ name: string; notes: string[] }> }).stages.find((s) => s.name === "v4")!;
    expect(v4b.notes[0]).toBe("v4 ran in shadow: no promoted configuration");
    expect(io2.err()).toContain("promoted under another question bank");
  });

  it("manual stage commands (enrich, label, triage) print one JSON value and write receipts of the manual loop", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong", ageHours: 2 }, { complaint: "still wrong", ageHours: 1 }]);
    const env = { ERRATA_DIR: t.dir, HOME: t.dir };
    const stagesOf = async (argv: string[]) => {
      const io = memoryIo({ env, now: NOW });
      expect(await run(argv, io.io)).toBe(0);
      return (JSON.parse(io.out()) as { stages: Array<{ name: string; counts: Record<string, number> }> }).stages;
    };
    expect((await stagesOf(["enrich", "--limit", "1", "--json"]))[0]?.counts).toMatchObject({ batch: 1, enriched: 1 });
    expect((await stagesOf(["label", "--json"]))[0]?.name).toBe("label");
    expect((await stagesOf(["triage", "--json"]))[0]?.counts).toMatchObject({ entries: 1 });
    const runs = readFileSync(join(t.dir, ".state", "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { loop: string; stage: string });
    expect(runs.map((r) => `${r.loop}/${r.stage}`)).toEqual(["manual/enrich", "manual/run", "manual/label", "manual/run", "manual/triage", "manual/run"]);
  });

  it("mine runs first, in process: its rows are enriched in the same run; a second run mines nothing twice; a missing folder fails mine only", async () => {
    const env = { ERRATA_DIR: t.dir, HOME: t.dir, USER: "owner" };
    const first = memoryIo({ env, now: NOW });
    await run(["daily", "--root", spotter, "--json"], first.io);
    const a = JSON.parse(first.out()) as { ok: boolean; stages: Array<{ name: string; ok: boolean; counts: Record<string, number> }> };
    const mined = a.stages.find((s) => s.name === "mine")!;
    expect(mined.ok).toBe(true);
    expect(mined.counts["written"]).toBeGreaterThanOrEqual(1);
    expect(a.stages.find((s) => s.name === "enrich")?.counts["enriched"]).toBeGreaterThanOrEqual(1);
    const second = memoryIo({ env, now: NOW + 60_000 });
    await run(["daily", "--root", spotter, "--json"], second.io);
    const b = JSON.parse(second.out()) as typeof a;
    expect(b.stages.find((s) => s.name === "mine")?.counts["written"]).toBe(0);
    const missing = memoryIo({ env, now: NOW + 120_000 });
    expect(await run(["daily", "--root", join(t.dir, "nope"), "--json"], missing.io)).toBe(1);
    const c = JSON.parse(missing.out()) as { failed: string[] };
    expect(c.failed).toEqual(["mine"]);
  });
});
