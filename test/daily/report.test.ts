import { afterEach, describe, expect, it } from "vitest";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { RunReceipt } from "../../schemas/daily.js";
import { readEvents } from "../../runtime/jobs/daily/events.js";
import { makeReceipt, missingRunDays } from "../../runtime/jobs/daily/receipts.js";
import { computeReport, runReport } from "../../runtime/jobs/daily/report.js";
import { readReportState } from "../../runtime/jobs/daily/state.js";
import { tempDir } from "../helpers/io.js";
import { DAY, HOUR, NOW, seedLedger, stageCtx } from "./fixtures.js";

function dailyReceipt(ms: number, stage: RunReceipt["stage"] = "run"): RunReceipt {
  return makeReceipt({ runId: `run-20261101-0000-abcdef`, loop: "daily", stage, startedMs: ms, endedMs: ms + 1000, ok: true, counts: {}, dryRun: false });
}

describe("report", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("counts seven days by system and kind without detected rows; stuck excludes backfill, detected, tenant and fresh rows", async () => {
    const [oldNew] = seedLedger(t.dir, [
      { complaint: "stuck", ageHours: 60 },
      { complaint: "fresh", ageHours: 10 },
      { complaint: "bf", source: "backfill", ageHours: 60 },
      { complaint: "det", source: "detected", ageHours: 60 },
      { complaint: "tenant", source: "customer", instance: "tenant:acme", ageHours: 60 },
      { complaint: "bug!", kind: "bug", system: "other", ageHours: 30 },
      { complaint: "ancient", ageHours: 10 * 24 },
      { complaint: "old praise: nothing moves praise", kind: "praise", ageHours: 60 },
    ]);
    const ctx = stageCtx(t.dir);
    const out = await runReport(ctx);
    const s = out.result.state;
    expect(s.counts.total).toBe(6);
    expect(s.counts.detected_excluded).toBe(1);
    expect(s.counts.by_system_kind).toEqual({ "assistant/complaint": 4, "assistant/praise": 1, "other/bug": 1 });
    // "ancient" is outside the window for counts but still stuck; "bug!" (30 h) is not yet.
    expect(s.stuck.count).toBe(2);
    expect(s.stuck.ids).toContain(oldNew!.id);
    const rollup = out.result.events.find((e) => e.kind === "errata.rollup")!;
    expect(rollup.severity).toBe("medium");
    expect(readEvents(ctx.files.events)).toHaveLength(1);
    expect(readReportState(ctx.files.state)?.stuck.count).toBe(2);
  });

  it("missing-receipt alarm: a night that never ran is not a night that found nothing", () => {
    const receipts = [0, 1, 2, 3, 5].map((d) => dailyReceipt(NOW - (6 - d) * DAY));
    // Daily receipts on Nov 24, 25, 26, 27 and 29; nothing on Nov 28.
    expect(missingRunDays(receipts, NOW, 7)).toEqual(["2026-11-28"]);
    // A receipt for an empty night (all counts zero) is a run: not missing.
    const empty = makeReceipt({ runId: "run-20261128-0300-abcdef", loop: "daily", stage: "run", startedMs: NOW - 2 * DAY, endedMs: NOW - 2 * DAY, ok: true, counts: { stages: 6 }, dryRun: false });
    expect(missingRunDays([...receipts, empty], NOW, 7)).toEqual([]);
    // A failed run left a receipt: it ran (and says it failed).
    expect(missingRunDays([...receipts, { ...empty, ok: false }], NOW, 7)).toEqual([]);
    // A dry run or a stage receipt alone is not the daily run.
    expect(missingRunDays([...receipts, { ...empty, dry_run: true }], NOW, 7)).toEqual(["2026-11-28"]);
    expect(missingRunDays([...receipts, { ...empty, stage: "enrich" }], NOW, 7)).toEqual(["2026-11-28"]);
    // Before the first receipt ever, nothing is missing (not installed yet).
    expect(missingRunDays([dailyReceipt(NOW - 1 * DAY)], NOW, 7)).toEqual([]);
    expect(missingRunDays([], NOW, 7)).toEqual([]);
  });

  it("one high event the first day a landed fix raised its skill's complaint rate, never again", async () => {
    const host = join(t.dir, "host");
    mkdirSync(host);
    const outputs: string[] = [];
    // 10 outputs of skill "notes" a day for 20 days; the fix lands 10 days ago.
    for (let d = 20; d >= 1; d--) for (let k = 0; k < 10; k++) outputs.push(JSON.stringify({ schema: "output/1", id: `o-${d}-${k}`, ts: new Date(NOW - d * DAY + k * HOUR).toISOString(), session_id: "s", skill: "notes" }));
    writeFileSync(join(host, "outputs.jsonl"), `${outputs.join("\n")}\n`);
    // One complaint before the fix, four after.
    seedLedger(t.dir, [
      { complaint: "bad notes", ts: new Date(NOW - 15 * DAY + HOUR).toISOString(), context: { output_ids: ["o-15-1"] } },
      ...[8, 6, 4, 2].map((d) => ({ complaint: "bad notes again", ts: new Date(NOW - d * DAY + HOUR).toISOString(), context: { output_ids: [`o-${d}-1`] } })),
      { complaint: "detected rows never count", source: "detected" as const, ts: new Date(NOW - 3 * DAY + HOUR).toISOString(), context: { output_ids: ["o-3-1"] } },
    ]);
    writeFileSync(
      join(t.dir, "upgrades.jsonl"),
      [
        { schema: "upgrade/1", id: "up-20261101-aaaaaa", ts: new Date(NOW - 25 * DAY).toISOString(), source: "errata", kind: "false-pass", claim: "false-pass output=o-x", claim_hash: "0123456789abcdef", system: null, class: null, skill: "notes", output_id: "o-x", erratum_ids: ["er-20261101-000000"], max_how_upset: null, status: "open" },
        { schema: "upgrade-status/1", id: "up-20261101-aaaaaa", ts: new Date(NOW - 10 * DAY).toISOString(), status: "applied", applied_at: new Date(NOW - 10 * DAY).toISOString() },
      ]
        .map((l) => JSON.stringify(l))
        .join("\n") + "\n",
    );
    const env = { ERRATA_HOST_DIR: host };
    const first = await runReport(stageCtx(t.dir, { env }));
    const high = first.result.events.filter((e) => e.severity === "high");
    expect(high).toHaveLength(1);
    expect(high[0]).toMatchObject({ kind: "errata.fix-regressed", ids: ["up-20261101-aaaaaa"], counts: { before_complaints: 1, after_complaints: 4, before_outputs: 100, after_outputs: 100 } });
    const second = await runReport(stageCtx(t.dir, { env, now: () => NOW + DAY }));
    expect(second.result.events.filter((e) => e.severity === "high")).toHaveLength(0);
    expect(second.result.state.regressions_alerted).toEqual(["up-20261101-aaaaaa"]);
  });

  it("computeReport output holds counts and ids only (schema-checked ids)", () => {
    const r = computeReport({ errata: [], ledgerWarnings: 0, receipts: [], upgrades: [], host: { outputs: new Map(), receipts: new Map(), bad: 0, present: false }, previous: null, nowMs: NOW, windowDays: 7, stuckHours: 48, pipelineKinds: ["complaint"], impactDays: 14 });
    expect(r.events).toHaveLength(1);
    expect(JSON.stringify(r.state)).not.toMatch(/complaint|what_upset/);
  });
});
