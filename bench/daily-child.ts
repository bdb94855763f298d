/**
 * One measured run for `bench/daily.bench.ts`, in its own process so that its peak memory
 * (maxRSS) is its own: `node dist/bench/daily-child.js <mode> <ledgerDir> <hostDir> <transcripts> <home>`
 * with mode `plain` (read every ledger line with JSON.parse), `store` (the store's
 * readAll: parse, validate, fold) or `daily` (the whole daily run). Prints one JSON line.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolvePaths } from "../runtime/paths.js";
import { openLedger } from "../runtime/store/index.js";
import { runDaily } from "../runtime/jobs/daily/daily.js";
import { wireDaily } from "../runtime/jobs/daily/wire.js";

const [mode, ledgerDir, hostDir, transcripts, home] = process.argv.slice(2) as [string, string, string, string, string];
const t0 = performance.now();
let extra: Record<string, unknown> = {};
if (mode === "plain") {
  let n = 0;
  for (const f of readdirSync(ledgerDir).filter((x) => x.endsWith(".jsonl"))) {
    for (const line of readFileSync(join(ledgerDir, f), "utf8").split("\n")) if (line) {
      JSON.parse(line);
      n++;
    }
  }
  extra = { lines: n };
} else if (mode === "store") {
  const r = openLedger(resolvePaths({ ERRATA_DIR: ledgerDir, HOME: home }, ledgerDir), { warn: () => {} }).readAll();
  extra = { errata: r.errata.length, problems: r.problems.length };
} else {
  const env = { ERRATA_DIR: ledgerDir, ERRATA_HOST_DIR: hostDir, HOME: home };
  const { ctx, deps } = wireDaily({ paths: resolvePaths(env, ledgerDir), env, cwd: ledgerDir, now: () => Date.now(), dryRun: false, log: () => {} });
  const r0 = performance.now();
  const view = await ctx.ledger.readAll();
  const readMs = performance.now() - r0;
  const result = await runDaily(ctx, deps, { root: transcripts, skipMine: deps.mine === null });
  extra = {
    errata: view.errata.length,
    read_ms: readMs,
    ok: result.ok,
    failed: result.failed,
    stages: result.stages.map((s) => ({ name: s.name, ms: s.duration_ms, ok: s.ok, skipped: s.skipped, counts: s.counts, error: s.error })),
  };
}
const wallMs = performance.now() - t0;
process.stdout.write(`${JSON.stringify({ mode, wall_ms: wallMs, max_rss_mb: process.resourceUsage().maxRSS / 1024, ...extra })}\n`);
