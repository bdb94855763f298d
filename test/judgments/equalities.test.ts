// One answer from the v4 folder, whoever asks: on the bundled synthetic set (519 exchanges,
// the shipped embedded judge, its rule index over the five synthetic projects), the daily
// run's v4 report is `errata v4 report`'s text, and the weekly rules pass, `rules cover`, the
// v4 report and the Pulse page compose the same failures under the same stated cuts: first
// the judge's weights' cuts, then cuts made the default by `errata calibrate use`.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { engineFromConfig, repoDatasetsDir } from "../../runtime/engine/index.js";
import { runDailyV4 } from "../../runtime/jobs/daily/v4-pass.js";
import { loadRuleNoulWeights, runM7b } from "../../runtime/jobs/index.js";
import { openJudgments, readCoverage } from "../../runtime/judgments/index.js";
import { gatherPulse } from "../../runtime/pages/index.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { ReportState } from "../../schemas/daily.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { repoRoot } from "../rules/helpers.js";

const HOME = "/home/ana";
const NOW = Date.parse("2026-12-06T06:00:00Z");
let tmp: ReturnType<typeof tempDir>;
let v4Dir: string;
const env = () => ({ ERRATA_DIR: tmp.dir, HOME });

async function cli(argv: string[]) {
  const m = memoryIo({ env: env(), cwd: tmp.dir, now: NOW });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

async function json(argv: string[]) {
  const r = await cli([...argv, "--json"]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
}

/** Every reader of the folder, under the cuts the chooser picks with no --cuts. */
async function everyone() {
  const paths = resolvePaths(env(), tmp.dir);
  const engine = engineFromConfig({ paths, env: env(), now: () => NOW }).engine;
  const report = await json(["v4", "report"]);
  const text = (await cli(["v4", "report"])).out;
  const cover = await json(["rules", "cover", "--dry-run"]);
  const weekly = await runM7b({
    v4Dir,
    roots: [],
    home: null,
    managed: [],
    extra: [],
    engine,
    weights: loadRuleNoulWeights(repoDatasetsDir()),
    writer: { lane: null, offlineWhy: "test" },
    upgradesFile: join(tmp.dir, "upgrades.jsonl"),
    cuts: { promoted: { file: join(tmp.dir, "promoted.json") } },
    today: "2026-12-06",
    nowMs: NOW,
    top: 3,
    dryRun: true,
  });
  const pulse = gatherPulse({
    errata: [],
    state: { generated_at: new Date(NOW).toISOString() } as ReportState,
    host: { outputs: new Map(), receipts: new Map(), bad: 0, present: false },
    v4Dir,
    promotedFile: join(tmp.dir, "promoted.json"),
    warn: () => undefined,
  });
  const j = openJudgments({ v4Dir, cuts: { promoted: { file: join(tmp.dir, "promoted.json") } } });
  return { report, text, cover, weekly, pulse, j, engine, paths };
}

async function expectOneAnswer(origin: RegExp) {
  const { report, cover, weekly, pulse, j } = await everyone();
  expect(report.cuts_origin).toMatch(origin);
  // The same stated cuts everywhere.
  expect(cover.cuts_origin).toBe(report.cuts_origin);
  expect(pulse.v4?.cuts_origin).toBe(report.cuts_origin);
  expect(j.cuts.origin).toBe(report.cuts_origin);
  // The same failures: the report's, the Pulse page's; what rules cover and the weekly pass cover.
  const coverable = j.coverable().map((c) => c.exchange.id).sort();
  expect(coverable.length).toBeGreaterThan(0);
  expect(pulse.v4?.failures).toBe(report.failures);
  expect(pulse.v4?.synthetic?.failures).toBe(report.synthetic.failures);
  expect(cover.failures).toBe(coverable.length);
  expect(weekly.counts["failures"]).toBe(coverable.length);
  expect(report.most_broken_rules.failures).toBe(coverable.length);
  // The most-broken rules: the Pulse page shows the report's rows, ids and counts only.
  expect(pulse.rules).toEqual(report.most_broken_rules.rows.map((r: { rule_id: string; source: string; count: number; sessions: number; judged_in_view: number }) => ({ rule_id: r.rule_id, source: r.source, count: r.count, sessions: r.sessions, judged_in_view: r.judged_in_view })));
  return { report, coverable };
}

beforeAll(async () => {
  tmp = tempDir();
  v4Dir = join(tmp.dir, "v4");
  mkdirSync(v4Dir, { recursive: true });
  const synthetic = join(repoRoot, "datasets", "synthetic");
  copyFileSync(join(synthetic, "exchanges.jsonl"), join(v4Dir, "exchanges.jsonl"));
  copyFileSync(join(synthetic, "labels.jsonl"), join(v4Dir, "labels.jsonl"));
  for (const step of [["v4", "detect"], ["v4", "diagnose"]]) expect((await cli(step)).code).toBe(0);
  const projects = join(synthetic, "projects");
  const roots = readdirSync(projects).sort().flatMap((n) => ["--root", join(projects, n), "--project", `/home/dev/projects/${n}`]);
  expect((await cli(["rules", "build", "--no-home", "--no-git", ...roots])).code).toBe(0);
  expect((await cli(["rules", "cover"])).code).toBe(0);
  // The weekly pass in dry run recommends from the clusters already on disk.
  expect((await cli(["rules", "cluster"])).code).toBe(0);
});

afterAll(() => tmp.cleanup());

describe("one answer from the v4 folder", () => {
  it("under the judge's weights' cuts: the weekly pass, rules cover, the v4 report and the Pulse page compose the same failures", async () => {
    const { report, coverable } = await expectOneAnswer(/^calibrated with the weights/);
    // Before the judgments room, the weekly pass composed at 0.5 and covered 1 of these.
    expect(coverable.length).toBe(30);
    expect(report.synthetic.failures).toBe(46);
    // What rules cover stored is exactly the failures these cuts make.
    expect([...new Set(readCoverage(v4Dir).map((r) => r.exchange_id))].sort()).toEqual(coverable);
  });

  it("the daily run's v4 report is the very text `errata v4 report` prints on the same folder", async () => {
    // Only what this comparison reads (the first test asks every reader).
    const paths = resolvePaths(env(), tmp.dir);
    const engine = engineFromConfig({ paths, env: env(), now: () => NOW }).engine;
    const text = (await cli(["v4", "report"])).out;
    const out = await runDailyV4(
      { root: join(tmp.dir, "no-transcripts"), limit: null, shadow: true, dryRun: false },
      { paths, ledger: { readAll: async () => { throw new Error("not read without transcripts"); }, patch: async () => undefined, append: (e) => e }, engine: async () => engine, promoted: null, home: HOME, nowMs: () => NOW },
    );
    const written = readFileSync(out.wrote?.["report"] ?? join(v4Dir, "report-2026-12-06.md"), "utf8");
    expect(written).toBe(`# v4 report 2026-12-06 (shadow)\n\n${text}`);
  });

  it("under cuts made the default by `errata calibrate use`: every reader moves to them together", async () => {
    writeFileSync(join(tmp.dir, "mine.json"), JSON.stringify({ "detect.unhappy": 0.2, "rules.rule_covers": 0.3 }));
    expect((await cli(["calibrate", "use", "mine.json"])).code).toBe(0);
    expect(existsSync(join(v4Dir, "cuts.json"))).toBe(true);
    // More failures at the lower cut: diagnose and cover them, then ask everyone again.
    expect((await cli(["v4", "diagnose"])).code).toBe(0);
    expect((await cli(["rules", "cover"])).code).toBe(0);
    const { report, coverable } = await expectOneAnswer(/^the judge's calibrated cuts \(cuts\.json in the v4 folder, errata calibrate use: detect\.unhappy, rules\.rule_covers from mine\.json/);
    expect(report.cuts["detect.unhappy"]).toBe(0.2);
    expect(report.most_broken_rules.cut).toBe(0.3);
    expect(coverable.length).toBeGreaterThan(30);
  });
});
