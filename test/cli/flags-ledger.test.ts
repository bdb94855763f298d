import { appendFileSync, existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { resolvePaths } from "../../runtime/paths.js";
import { openLedger } from "../../runtime/store/index.js";
import { newErratum } from "../../runtime/store/new-erratum.js";
import type { Enrichment } from "../../schemas/erratum.js";
import { memoryIo, tempDir } from "../helpers/io.js";

/** The ledger and daily-job flags no other test names, each run for what it changes. */
let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

async function cli(argv: string[], cwd = t.dir) {
  const m = memoryIo({ env: { ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir }, cwd });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("errata add: the context flags", () => {
  it("--complaint, --channel, --frustration and every context field reach the ledger, as show reads them back", async () => {
    const r = await cli([
      "add", "--complaint", "it ran the migration twice", "--channel", "slack", "--frustration", "2",
      "--requested", "run the migration once", "--doing", "Bash: npm run migrate\nBash: npm run migrate", "--response", "Done: migrated.",
      "--output-id", "out-1", "out-2", "--component", "migrate.sh", "--cwd", "/srv/app", "--host-version", "Claude Code 2.0.31", "--json",
    ]);
    expect(r.code, r.err).toBe(0);
    const id = (JSON.parse(r.out) as { erratum: { id: string } }).erratum.id;
    const shown = await cli(["show", id, "--json"]);
    expect(shown.code, shown.err).toBe(0);
    const e = (JSON.parse(shown.out) as { erratum: { complaint: string; channel: string; frustration: number; context: Record<string, unknown> } }).erratum;
    expect(e.complaint).toBe("it ran the migration twice");
    expect(e.channel).toBe("slack");
    expect(e.frustration).toBe(2);
    expect(e.context).toMatchObject({
      requested: "run the migration once",
      doing: "Bash: npm run migrate\nBash: npm run migrate",
      response_preview: "Done: migrated.",
      output_ids: ["out-1", "out-2"],
      component: "migrate.sh",
      cwd: "/srv/app",
      version: "Claude Code 2.0.31",
    });
  });

  it("--complaint with words as well is bad input, and --frustration must be a whole number; nothing is written", async () => {
    const both = await cli(["add", "--complaint", "x", "and", "words"]);
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/give the complaint once/);
    const frac = await cli(["add", "--frustration", "1.5", "it failed"]);
    expect(frac.code).toBe(2);
    expect(frac.err).toMatch(/bad --frustration/);
    expect(existsSync(join(t.dir, "ledger"))).toBe(false);
  });
});

describe("errata validate --strict", () => {
  it("a torn tail is a warning: exit 0 without --strict, exit 1 with it", async () => {
    expect((await cli(["add", "bug: it pushed to main"])).code).toBe(0);
    const ledgerDir = join(t.dir, "ledger");
    const month = readdirSync(ledgerDir).find((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f)) as string;
    appendFileSync(join(ledgerDir, month), '{"torn":');
    const plain = await cli(["validate", "--json"]);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.out)).toMatchObject({ ok: true, errors: 0, warnings: 1 });
    const strict = await cli(["validate", "--strict", "--json"]);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.out)).toMatchObject({ ok: false, errors: 0, warnings: 1 });
  });
});

describe("errata triage --include-backfill", () => {
  const enrichment: Enrichment = {
    schema: "enrichment/1",
    how_upset: 2,
    which_part: "the push",
    what_upset: "pushed to main without asking",
    reporter_right: true,
    reporter_right_reason: "the rule says ask first",
    root_cause_hypothesis: "ignored the standing rule",
    class: "broke_standing_rule",
    proposed_fix: "ask before pushing",
    confidence: 0.8,
    model: "test",
    enrichment_version: "enrich/1",
  };

  it("leaves backfilled entries out of a triage unless asked", async () => {
    const ledger = openLedger(resolvePaths({ ERRATA_DIR: join(t.dir, "ledger"), HOME: t.dir }, t.dir), { now: () => Date.parse("2026-11-30T12:00:00Z") });
    for (const source of ["backfill", "owner"] as const) {
      const e = ledger.append(newErratum({ nowMs: Date.parse("2026-11-30T10:00:00Z"), complaint: `it pushed to main (${source})`, reporter: { id: "rp-0123456789abcdef", role: "owner" }, source })).erratum;
      ledger.patch(e.id, { status: "enriched", enrichment });
    }
    const entries = (out: string): number => (JSON.parse(out) as { stages: { counts: { entries: number } }[] }).stages[0]!.counts.entries;
    const without = await cli(["triage", "--dry-run", "--json"]);
    expect(without.code, without.err).toBe(0);
    expect(entries(without.out)).toBe(1);
    const withBackfill = await cli(["triage", "--include-backfill", "--dry-run", "--json"]);
    expect(withBackfill.code, withBackfill.err).toBe(0);
    expect(entries(withBackfill.out)).toBe(2);
  });
});

describe("errata daily --mine-limit and errata import --transcripts", () => {
  it("import --transcripts writes the Claude Code sessions the generator planned; without it, none", async () => {
    const a = await cli(["import", "synthetic", "--seed", "3", "--sessions", "2", "--out", "a", "--json"]);
    expect(a.code, a.err).toBe(0);
    expect(existsSync(join(t.dir, "a", "transcripts"))).toBe(false);
    const b = await cli(["import", "synthetic", "--seed", "3", "--sessions", "2", "--transcripts", "--out", "b", "--json"]);
    expect(b.code, b.err).toBe(0);
    const sessions = readdirSync(join(t.dir, "b", "transcripts"), { recursive: true }).filter((f) => String(f).endsWith(".jsonl"));
    expect(sessions).toHaveLength(2);
    // The same corpus either way: the flag only adds the transcripts.
    expect(JSON.parse(b.out).exchanges).toBe(JSON.parse(a.out).exchanges);
  });

  it("daily --mine-limit bounds the transcript files mined in one run; the rest wait for the next", async () => {
    expect((await cli(["import", "synthetic", "--seed", "3", "--sessions", "3", "--transcripts", "--out", "corpus"])).code).toBe(0);
    const mined = async (extra: string[]) => {
      const r = await cli(["daily", "--root", "corpus/transcripts", "--dry-run", "--json", ...extra]);
      expect(r.code, r.err).toBe(0);
      return (JSON.parse(r.out) as { stages: { name: string; counts: Record<string, number> }[] }).stages.find((s) => s.name === "mine")!.counts;
    };
    const all = await mined([]);
    const one = await mined(["--mine-limit", "1"]);
    expect(all).toMatchObject({ files_read: 3, files_left: 0 });
    expect(one).toMatchObject({ files_read: 1, files_left: 2 });
    const bad = await cli(["daily", "--root", "corpus/transcripts", "--mine-limit", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/bad --mine-limit/);
  });
});

