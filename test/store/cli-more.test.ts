import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { resolvePaths } from "../../runtime/paths.js";
import { openLedger } from "../../runtime/store/index.js";
import type { Enrichment } from "../../schemas/erratum.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { assertRecordHasNoText } from "./record-guard.js";

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-cli-");
});
afterEach(() => {
  assertRecordHasNoText(join(t.dir, ".state", "record.jsonl"), t.dir);
  t.cleanup();
});

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir } });
  return { code: await run(argv, m.io), out: m.out(), err: m.err() };
}

const enrichment: Enrichment = {
  schema: "enrichment/1",
  how_upset: 1,
  which_part: "the summary",
  what_upset: "claimed tests passed",
  reporter_right: true,
  reporter_right_reason: "3 were skipped",
  root_cause_hypothesis: "reported the exit code only",
  class: "false-success",
  proposed_fix: "report skipped tests",
  confidence: 0.7,
  model: "gpt-5-mini",
  enrichment_version: "enrich/1",
};

describe("every ledger command", () => {
  for (const cmd of ["add", "list", "show", "stats", "validate", "rotate"]) {
    it(`${cmd} --help shows an example and exits 0`, async () => {
      const r = await cli([cmd, "--help"]);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/Example:\n\s+\$ errata /);
      expect(r.out).toContain("--json");
      if (cmd === "add" || cmd === "rotate") expect(r.out).toContain("--dry-run");
    });
  }
});

describe("errata list filters", () => {
  it("--system --kind --status --since --limit --unenriched, newest first, one JSON value", async () => {
    const ids: string[] = [];
    for (const [i, argv] of [
      ["bug: one", "--ts", "2026-09-01T10:00:00Z"],
      ["two", "--ts", "2026-10-01T10:00:00Z", "--system", "other"],
      ["praise: three", "--ts", "2026-11-01T10:00:00Z", "--rating", "9"],
      ["bug: four", "--ts", "2026-11-20T10:00:00Z"],
    ].entries()) {
      const r = await cli(["add", ...argv, "--json"]);
      expect(r.code, String(i)).toBe(0);
      ids.push(JSON.parse(r.out).erratum.id);
    }
    const ledger = openLedger(resolvePaths({ ERRATA_DIR: t.dir, HOME: t.dir }, t.dir), { warn: () => {} });
    ledger.patch(ids[0]!, { status: "enriched", enrichment });
    const list = async (...args: string[]) => {
      const r = await cli(["list", ...args, "--json"]);
      expect(r.code).toBe(0);
      return JSON.parse(r.out).errata.map((e: { id: string }) => e.id) as string[];
    };
    expect(await list()).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(await list("--kind", "bug")).toEqual([ids[3], ids[0]]);
    expect(await list("--system", "other")).toEqual([ids[1]]);
    expect(await list("--status", "enriched")).toEqual([ids[0]]);
    expect(await list("--unenriched")).toEqual([ids[3], ids[2], ids[1]]);
    expect(await list("--since", "2026-10-15")).toEqual([ids[3], ids[2]]);
    expect(await list("--limit", "1")).toEqual([ids[3]]);
    expect((await cli(["list", "--since", "last week"])).code).toBe(2);
    expect((await cli(["list", "--status", "open"])).code).toBe(2);
    expect((await cli(["list", "--limit", "-1"])).code).toBe(2);
    const human = await cli(["list", "--limit", "2"]);
    expect(human.out.trim().split("\n")).toHaveLength(3); // two rows and "(2 more; raise --limit)"
    const show = await cli(["show", ids[0]!]);
    expect(show.out).toMatch(/status\s+enriched/);
    expect(show.out).toMatch(/enrichment\s+gpt-5-mini/);
    const stats = JSON.parse((await cli(["stats", "--json"])).out);
    expect(stats).toMatchObject({ total: 4, unenriched: 3, by_status: { new: 3, enriched: 1 }, ratings: { count: 1, mean: 9, min: 9 } });
  });

  it("reading works without a readable systems config; writing refuses it", async () => {
    writeFileSync(join(t.dir, "errata-systems.json"), "[1,");
    expect((await cli(["list"])).code).toBe(0);
    expect((await cli(["stats"])).code).toBe(0);
    expect((await cli(["add", "x"])).code).toBe(2);
  });

  it("an I/O error exits 2 with a message", async () => {
    const file = join(t.dir, "not-a-folder");
    writeFileSync(file, "");
    const m = memoryIo({ env: { ERRATA_DIR: file, HOME: t.dir } });
    expect(await run(["add", "x"], m.io)).toBe(2);
    expect(m.err()).toMatch(/errata: /);
  });
});
