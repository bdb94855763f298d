import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { engineEnricher } from "../../runtime/jobs/daily/enrich-embedded.js";
import { runEnrich } from "../../runtime/jobs/daily/enrich.js";
import { hasHistoricalMarker, markReports, runTriage } from "../../runtime/jobs/daily/triage.js";
import { readUpgrades } from "../../runtime/jobs/daily/upgrades.js";
import { tempDir } from "../helpers/io.js";
import { DAY, GOOD_REPLY, NOW, fakeEngine, fakeProse, seedLedger, stageCtx } from "./fixtures.js";

async function enrichAll(dir: string, upset3 = ""): Promise<void> {
  const prose = fakeProse((e) => ({ ...GOOD_REPLY, how_upset: e.complaint.includes(upset3) && upset3 ? 3 : 1 }));
  await runEnrich(stageCtx(dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose });
}

describe("triage", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("the daily triage writes the report with historical front matter, closes entries as triaged, files nothing", async () => {
    seedLedger(t.dir, [
      { complaint: "no [mode:risky_action_unasked]" },
      { complaint: "wrong [mode:risky_action_unasked]" },
      { complaint: "wrong [mode:invented_fact]" },
    ]);
    await enrichAll(t.dir);
    const out = await runTriage(stageCtx(t.dir), { file: false });
    expect(out.counts).toMatchObject({ entries: 3, clusters: 2, filed: 0, closed: 3 });
    const report = readFileSync(out.wrote["report"]!, "utf8");
    expect(out.wrote["report"]).toMatch(/triage-2026-11-30\.md$/);
    expect(report.startsWith("---\nreferences: historical\n---\n")).toBe(true);
    expect(report).toContain("assistant / risky_action: 2 entries");
    expect(existsSync(join(t.dir, "upgrades.jsonl"))).toBe(false);
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    expect(errata.map((e) => e.status)).toEqual(["triaged", "triaged", "triaged"]);
  });

  it("a manual triage files one upgrade per cluster of >= 2 or any how_upset 3, links members, and a re-run files nothing twice", async () => {
    seedLedger(t.dir, [
      { complaint: "no [mode:risky_action_unasked]" },
      { complaint: "wrong [mode:risky_action_unasked]" },
      { complaint: "FURIOUS wrong [mode:invented_fact]", frustration: 3 },
      { complaint: "meh [mode:wrong_language]" },
    ]);
    await enrichAll(t.dir);
    // The daily run closes them first; the manual triage still files (triaged -> upgrade-filed).
    await runTriage(stageCtx(t.dir), { file: false });
    const out = await runTriage(stageCtx(t.dir), { file: true });
    expect(out.counts).toMatchObject({ entries: 4, clusters: 3, filed: 2, upgrade_filed: 3 });
    const q = readUpgrades(join(t.dir, "upgrades.jsonl"));
    expect(q.upgrades.map((u) => [u.claim, u.erratum_ids.length, u.source, u.status]).sort()).toEqual([
      ["cluster system=assistant class=fabrication", 1, "errata", "open"],
      ["cluster system=assistant class=risky_action", 2, "errata", "open"],
    ]);
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    const filed = errata.filter((e) => e.status === "upgrade-filed");
    expect(filed).toHaveLength(3);
    for (const e of filed) expect(q.upgrades.map((u) => u.id)).toContain(e.links.upgrade_id);
    expect(errata.find((e) => e.complaint.startsWith("meh"))?.status).toBe("triaged");

    const again = await runTriage(stageCtx(t.dir, { now: () => NOW + DAY }), { file: true });
    expect(again.counts).toMatchObject({ filed: 0 });
    expect(readUpgrades(join(t.dir, "upgrades.jsonl")).upgrades).toHaveLength(2);
  });

  it("a new member of an already-filed cluster is linked to the existing upgrade, not filed again", async () => {
    seedLedger(t.dir, [{ complaint: "no [mode:risky_action_unasked]" }, { complaint: "wrong [mode:risky_action_unasked]" }]);
    await enrichAll(t.dir);
    await runTriage(stageCtx(t.dir), { file: true });
    const [late] = seedLedger(t.dir, [{ complaint: "no!! [mode:risky_action_unasked]" }, { complaint: "and [mode:risky_action_unasked]" }]);
    await enrichAll(t.dir);
    const out = await runTriage(stageCtx(t.dir, { now: () => NOW + DAY }), { file: true });
    expect(out.counts).toMatchObject({ filed: 0, linked_existing: 1 });
    const q = readUpgrades(join(t.dir, "upgrades.jsonl"));
    expect(q.upgrades).toHaveLength(1);
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    expect(errata.find((e) => e.id === late!.id)?.links.upgrade_id).toBe(q.upgrades[0]!.id);
  });

  it("dry run writes neither report, upgrades nor patches", async () => {
    seedLedger(t.dir, [{ complaint: "no [mode:risky_action_unasked]" }, { complaint: "wrong [mode:risky_action_unasked]" }]);
    await enrichAll(t.dir);
    const out = await runTriage(stageCtx(t.dir, { dryRun: true }), { file: true });
    expect(out.counts["filed"]).toBe(1);
    expect(existsSync(join(t.dir, "upgrades.jsonl"))).toBe(false);
    expect(existsSync(join(t.dir, "reports"))).toBe(false);
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    expect(errata.every((e) => e.status === "enriched")).toBe(true);
  });

  it("--mark-reports adds the marker to older reports only", () => {
    const dir = join(t.dir, "reports");
    mkdirSync(dir);
    writeFileSync(join(dir, "triage-2026-01-01.md"), "# old\n");
    writeFileSync(join(dir, "triage-2026-01-02.md"), "---\ntitle: x\n---\n# old with front matter\n");
    writeFileSync(join(dir, "triage-2026-01-03.md"), "---\nreferences: historical\n---\n# new\n");
    const changed = markReports(dir, false, (d) => readdirSync(d));
    expect(changed.map((p) => p.slice(-21))).toEqual(["triage-2026-01-01.md", "triage-2026-01-02.md"].map((s) => s.padStart(21, "/")));
    for (const f of readdirSync(dir)) expect(hasHistoricalMarker(readFileSync(join(dir, f), "utf8"))).toBe(true);
    expect(readFileSync(join(dir, "triage-2026-01-02.md"), "utf8")).toBe("---\nreferences: historical\ntitle: x\n---\n# old with front matter\n");
    expect(markReports(dir, false, (d) => readdirSync(d))).toEqual([]);
  });
});

describe("manual triage window", () => {
  it("entries the daily run triaged count only from --since; enriched ones always", async () => {
    const t = tempDir();
    try {
      seedLedger(t.dir, [
        { complaint: "old [mode:risky_action_unasked]", ageHours: 24 * 30 },
        { complaint: "old2 [mode:risky_action_unasked]", ageHours: 24 * 29 },
        { complaint: "new [mode:invented_fact]", ageHours: 2 },
      ]);
      await enrichAll(t.dir);
      await runTriage(stageCtx(t.dir), { file: false });
      const out = await runTriage(stageCtx(t.dir), { file: true, triagedSinceMs: NOW - 7 * DAY });
      expect(out.counts).toMatchObject({ entries: 1, filed: 0 });
      const all = await runTriage(stageCtx(t.dir), { file: true });
      expect(all.counts).toMatchObject({ entries: 3, filed: 1 });
    } finally {
      t.cleanup();
    }
  });
});
