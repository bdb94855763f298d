// `errata daily` (and `errata weekly`'s report) over the PostgreSQL store against a real database: one ledger exported and
// imported into a person's JSONL ledger and into a tenant of the database, the same daily run
// (mining the spotter transcripts, enrich, label, triage, report, v4, ladder) on each at the
// same clock, and the two compared: the same stage counts, the same errata afterwards
// (patches as rows folded at read), the same report. Then the team stage: two developers'
// rule ledgers pushed under their names, the team's most-broken rules read from the database
// across both with each incident on its own developer and project, another tenant seeing none.
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type pg from "pg";
import { run } from "../../cli/main.js";
import { incidentId } from "../../runtime/ladder/index.js";
import { loadOrCreateReporterKey, REPORTER_KEY_FILE } from "../../runtime/privacy/pseudonym.js";
import { buildServer } from "../../runtime/server/index.js";
import { openPostgresStore, type ErrataStore } from "../../runtime/stores/index.js";
import type { Erratum } from "../../schemas/erratum.js";
import type { RuleLedgerLine } from "../../schemas/rule-ledger.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { POSTGRES_BIN, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { NOW, seedLedger } from "../daily/fixtures.js";

const spotter = join(resolve(import.meta.dirname, "../.."), "datasets", "claude-code", "spotter");

interface Stage {
  name: string;
  ok: boolean;
  skipped: boolean;
  counts: Record<string, number>;
  notes: string[];
}

async function errata(dir: string, env: Record<string, string>, ...argv: string[]) {
  const m = memoryIo({ cwd: dir, env: { HOME: dir, USER: "ana", ...env }, now: NOW });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

/** An erratum without what a run draws at random (its id, and ids that point at other errata). */
function comparable(e: Erratum): Record<string, unknown> {
  const { id: _id, links: _links, ...rest } = e;
  return rest;
}
/** JSON with keys in sorted order (Postgres' jsonb keeps its own key order). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v !== null && typeof v === "object") return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(",")}}`;
  return JSON.stringify(v);
}
const byContent = (a: Record<string, unknown>, b: Record<string, unknown>) => canonical(a).localeCompare(canonical(b));

describe.skipIf(POSTGRES_BIN === null)("errata daily on the Postgres store", () => {
  let pgc: TestPostgres;
  let url: string;
  let store: ErrataStore & { pool: pg.Pool };
  beforeAll(async () => {
    pgc = await startPostgres();
    url = pgc.database("daily_test");
    store = await openPostgresStore(url);
  });
  afterAll(async () => {
    await store?.close();
    pgc?.stop();
  });

  it("gives the same stages, errata and report as the JSONL ledger on the same imported ledger", async () => {
    const { dir, cleanup } = tempDir("errata-pgdaily-");
    try {
      // One ledger, exported once.
      const source = join(dir, "source");
      seedLedger(source, [
        { complaint: "no, wrong: it pushed to main [mode:risky_action_unasked]", ageHours: 80, context: { requested: "open a PR", response_preview: "pushed", doing: "Bash: git push", session_id: "s-1", output_ids: ["out-1"] } },
        { complaint: "that's wrong, the test still fails", ageHours: 3, context: { requested: "fix the test", session_id: "s-2" } },
        { complaint: "that's wrong, the test still fails", ageHours: 2, context: { requested: "fix the test", session_id: "s-3" } },
        { complaint: "stuck one", kind: "praise", ageHours: 100 },
        { complaint: "inferred from the log", source: "detected", ageHours: 100 },
        { complaint: "it leaked AKIAIOSFODNN7EXAMPLQ into the log, wrong", ageHours: 5 },
      ]);
      const exported = await errata(dir, { ERRATA_DIR: source }, "store", "export", "--out", "ledger.jsonl");
      expect(exported.code).toBe(0);

      // Into a person's ledger, and into a tenant of the database.
      const a = join(dir, "a");
      const b = join(dir, "b");
      mkdirSync(a, { recursive: true });
      mkdirSync(b, { recursive: true });
      expect((await errata(dir, { ERRATA_DIR: join(a, "ledger") }, "store", "import", "ledger.jsonl")).code).toBe(0);
      const imported = await errata(dir, {}, "store", "import", "ledger.jsonl", "--database", url, "--tenant", "acme");
      expect(imported.out).toBe("imported 6 errata (6 new, 0 already here)\n");

      // One owner on one machine: the same reporter key, so mined errata carry the same pseudonym.
      const key = loadOrCreateReporterKey(join(a, "ledger", ".state"));
      expect(loadOrCreateReporterKey(join(b, "ledger", ".state")).equals(key)).toBe(false);
      writeFileSync(join(b, "ledger", ".state", REPORTER_KEY_FILE), readFileSync(join(a, "ledger", ".state", REPORTER_KEY_FILE)));

      const onJsonl = await errata(a, { ERRATA_DIR: join(a, "ledger") }, "daily", "--root", spotter, "--json");
      const onPg = await errata(b, { ERRATA_DIR: join(b, "ledger") }, "daily", "--root", spotter, "--json", "--database", url, "--tenant", "acme", "--developer", "ana");
      expect(onJsonl.code).toBe(0);
      expect(onPg.code).toBe(0);
      const stagesA = (JSON.parse(onJsonl.out) as { stages: Stage[] }).stages;
      const stagesB = (JSON.parse(onPg.out) as { stages: Stage[] }).stages;
      const norm = (s: Stage, root: string) => ({ name: s.name, ok: s.ok, skipped: s.skipped, counts: s.counts, notes: s.notes.map((n) => n.split(root).join("<dir>")) });
      expect(stagesB.map((s) => s.name)).toEqual(["mine", "enrich", "label", "triage", "report", "v4", "ladder", "team"]);
      expect(stagesB.slice(0, 7).map((s) => norm(s, b))).toEqual(stagesA.map((s) => norm(s, a)));
      // The run did real work on both: mined, enriched, labelled, triaged.
      const counts = Object.fromEntries(stagesA.map((s) => [s.name, s.counts]));
      expect(counts["mine"]?.["written"]).toBeGreaterThan(0);
      expect(counts["enrich"]?.["enriched"]).toBeGreaterThan(0);

      // The errata afterwards: the ledger's folded lines and the database's rows with their patch rows folded.
      const ledgerAfter = readFileSync(join(dir, "ledger.jsonl"), "utf8"); // before the runs, for the count
      expect((await errata(a, { ERRATA_DIR: join(a, "ledger") }, "store", "export", "--out", "after.jsonl")).code).toBe(0);
      const jsonlErrata = readFileSync(join(a, "after.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Erratum);
      const pgErrata = (await store.list("acme", 0, 10_000)).items.map((i) => i.erratum);
      expect(jsonlErrata.length).toBeGreaterThan(ledgerAfter.trim().split("\n").length);
      expect(pgErrata.map(comparable).sort(byContent)).toEqual(jsonlErrata.map(comparable).sort(byContent));
      expect(pgErrata.filter((e) => e.status !== "new").length).toBeGreaterThan(0);
      expect(JSON.stringify(pgErrata)).not.toContain("AKIAIOSFODNN7EXAMPLQ");
      // Patches are rows of their own, not rewritten errata.
      const patches = (await store.pool.query("SELECT count(*)::int AS n FROM erratum_patches")).rows[0] as { n: number };
      expect(patches.n).toBeGreaterThan(0);

      // The same report, byte for byte but for the ids mining drew at random (each named by its erratum's content).
      const canon = (list: Erratum[]) => new Map(list.map((e) => [e.id, `er-${createHash("sha256").update(canonical(comparable(e))).digest("hex").slice(0, 12)}`]));
      const report = (root: string, ids: Map<string, string>) =>
        readFileSync(join(root, "ledger", "reports", readdirOne(join(root, "ledger", "reports"))), "utf8").replace(/er-\d{8}-[0-9a-f]{6}/g, (id) => ids.get(id) ?? id);
      const reportA = report(a, canon(jsonlErrata));
      expect(report(b, canon(pgErrata))).toBe(reportA);
      expect(reportA).toContain("[REDACTED:aws-access-key]");

      // The weekly job's report reads either store alike.
      const weekA = await errata(a, { ERRATA_DIR: join(a, "ledger") }, "weekly", "--json");
      const weekB = await errata(b, { ERRATA_DIR: join(b, "ledger") }, "weekly", "--json", "--database", url, "--tenant", "acme");
      const reportStage = (out: string) => (JSON.parse(out) as { stages: Stage[] }).stages.find((s) => s.name === "report")!;
      expect(reportStage(weekB.out).ok).toBe(true);
      expect(reportStage(weekB.out).counts).toEqual(reportStage(weekA.out).counts);
      expect(reportStage(weekA.out).counts["total"]).toBeGreaterThan(0); // the seven days hold errata: the equality above is not of two empty reports

      // A second run on the database finds its work done, as the ledger's does.
      const again = await errata(b, { ERRATA_DIR: join(b, "ledger") }, "daily", "--skip-mine", "--json", "--database", url, "--tenant", "acme", "--developer", "ana");
      const second = (JSON.parse(again.out) as { stages: Stage[] }).stages;
      expect(second.find((s) => s.name === "enrich")?.counts["enriched"]).toBe(0);
    } finally {
      cleanup();
    }
  }, 600_000);

  it("refuses a bad --tenant or --developer with exit 2, and --tenant or --team-only without a database", async () => {
    const { dir, cleanup } = tempDir("errata-pgdaily-");
    try {
      const env = { ERRATA_DIR: join(dir, "ledger") };
      const noTenant = await errata(dir, env, "daily", "--skip-mine", "--database", url);
      expect(noTenant.code).toBe(2);
      expect(noTenant.err).toMatch(/bad --tenant.*expected.*found null/s);
      const badDev = await errata(dir, env, "daily", "--skip-mine", "--database", url, "--tenant", "acme", "--developer", "Ana Smith");
      expect(badDev.code).toBe(2);
      expect(badDev.err).toContain('"Ana Smith"');
      const alone = await errata(dir, env, "daily", "--skip-mine", "--tenant", "acme");
      expect(alone.code).toBe(2);
      expect(alone.err).toContain("--database");
      const teamAlone = await errata(dir, env, "daily", "--team-only");
      expect(teamAlone.code).toBe(2);
      expect(teamAlone.err).toMatch(/--team-only needs a store.*found --team-only alone/s);
    } finally {
      cleanup();
    }
  });

  it("computes the team's most-broken rules across developers from the database, each incident on its developer's project", async () => {
    const at = "2026-11-30T10:00:00.000Z";
    const rule = (rule_id: string, project: string | null): RuleLedgerLine => ({
      kind: "rule", v: 1, rule_id, at, text: `rule ${rule_id}`, why: null, when: null, when_not: null, rung: 1,
      location: { kind: "text", file: "CLAUDE.md", section: null }, origin: "index", keywords: [], witness: null, exempt: false, project,
    });
    const incident = (rule_id: string, exchange_id: string, project: string): RuleLedgerLine => ({
      kind: "incident", v: 1, incident_id: incidentId(rule_id, exchange_id), rule_id, exchange_id, session_id: `s-${exchange_id}`, date: "2026-11-30",
      severity: 2, signal: "correction", in_view: true, rung: 1, cause: null, project,
    });
    // ana broke the shared rule twice in /src/app (the second line a retried night: counted once) and once in /src/api;
    // bob broke it once in /src/api and broke his own rule once.
    const ana = [rule("claude-md.pnpm.aaaaaa", null), incident("claude-md.pnpm.aaaaaa", "x1", "/src/app"), incident("claude-md.pnpm.aaaaaa", "x2", "/src/app"), incident("claude-md.pnpm.aaaaaa", "x2", "/src/app"), incident("claude-md.pnpm.aaaaaa", "x3", "/src/api")];
    const bob = [rule("claude-md.pnpm.aaaaaa", null), incident("claude-md.pnpm.aaaaaa", "y1", "/src/api"), rule("claude-md.tabs.bbbbbb", "/src/api"), incident("claude-md.tabs.bbbbbb", "y2", "/src/api")];

    // Pushed through the daily run's team stage: each developer's own ladder file.
    const { dir, cleanup } = tempDir("errata-pgteam-");
    try {
      for (const [who, lines] of [["ana", ana], ["bob", bob]] as const) {
        const ladder = join(dir, who, "ledger", "ladder");
        mkdirSync(ladder, { recursive: true });
        writeFileSync(join(ladder, "rules.jsonl"), lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
        // ana runs the whole job on the tenant; bob only pushes his rule ledger.
        const only = who === "bob" ? ["--team-only"] : ["--skip-mine"];
        const r = await errata(join(dir, who), { ERRATA_DIR: join(dir, who, "ledger") }, "daily", ...only, "--json", "--database", url, "--tenant", "team-a", "--developer", who);
        expect(r.code).toBe(0);
        const stages = (JSON.parse(r.out) as { stages: Stage[] }).stages;
        expect(stages.map((s) => s.name)).toEqual(who === "bob" ? ["team"] : ["mine", "enrich", "label", "triage", "report", "v4", "ladder", "team"]);
        const team = stages.find((s) => s.name === "team");
        expect(team?.counts).toEqual({ lines: lines.length, written: lines.length - (who === "ana" ? 1 : 0), already_here: who === "ana" ? 1 : 0, problems: 0 });
      }
      // A second push writes nothing new.
      expect(await store.appendRuleLines!("team-a", "ana", ana)).toEqual({ written: 0, present: 5 });
      // Another tenant's developer with the same rule id.
      await store.appendRuleLines!("team-b", "carol", [rule("claude-md.pnpm.aaaaaa", null), incident("claude-md.pnpm.aaaaaa", "z1", "/src/other")]);

      const { token } = await store.addToken("team-a", "lead", at);
      const other = (await store.addToken("team-b", "carol", at)).token;
      const app = await buildServer({ store, dir: join(dir, "srv"), now: () => NOW });
      try {
        const res = await app.inject({ method: "GET", url: "/v1/team/rules", headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode).toBe(200);
        const body = res.json() as { rules: Array<{ rule_id: string; incidents: number; developers: number; by: Array<{ developer: string; project: string | null; incidents: number }> }>; developers: number };
        expect(body.developers).toBe(2);
        expect(body.rules.map((r) => [r.rule_id, r.incidents, r.developers])).toEqual([
          ["claude-md.pnpm.aaaaaa", 4, 2],
          ["claude-md.tabs.bbbbbb", 1, 1],
        ]);
        expect(body.rules[0]!.by).toEqual([
          { developer: "ana", project: "/src/app", incidents: 2 },
          { developer: "ana", project: "/src/api", incidents: 1 },
          { developer: "bob", project: "/src/api", incidents: 1 },
        ]);
        expect(body.rules[1]!.by).toEqual([{ developer: "bob", project: "/src/api", incidents: 1 }]);
        expect(res.body).not.toContain("rule claude-md");
        const theirs = (await app.inject({ method: "GET", url: "/v1/team/rules", headers: { authorization: `Bearer ${other}` } })).json() as { rules: Array<{ by: Array<{ developer: string }> }>; developers: number };
        expect(theirs.developers).toBe(1);
        expect(theirs.rules.flatMap((r) => r.by.map((x) => x.developer))).toEqual(["carol"]);
      } finally {
        await app.close();
      }
    } finally {
      cleanup();
    }
  }, 600_000);
});

function readdirOne(dir: string): string {
  const names = readdirSync(dir).filter((n) => n.endsWith(".md")).sort();
  if (names.length !== 1) throw new Error(`expected one report in ${dir}, found ${names.join(", ")}`);
  return names[0]!;
}
