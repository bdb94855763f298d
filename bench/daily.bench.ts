/**
 * The daily run on a large ledger: N errata over a year (default 100,000; DAILY_BENCH_ENTRIES
 * to change it), the host's outputs and receipts, and a year of synthetic transcripts
 * (helper C's seeded generator, DAILY_BENCH_SESSIONS_PER_DAY sessions a day, default 3),
 * all generated seeded into a temp folder. Each measurement runs in its own process, so peak
 * memory (maxRSS) is that run's own. Baselines measured in the same run: a plain
 * `JSON.parse` of every ledger line, and the store's `readAll` (parse, validate, fold).
 * Reported: wall time, peak memory, the share of each stage, and the ratio to the baselines;
 * then a second daily run on the same data (steady state: nothing new).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { generateDailyBench } from "./daily-data.js";
import { mustSucceed } from "./fail.js";

interface ChildResult {
  mode: string;
  wall_ms: number;
  max_rss_mb: number;
  read_ms?: number;
  ok?: boolean;
  failed?: string[];
  stages?: Array<{ name: string; ms: number; ok: boolean; skipped: boolean; counts: Record<string, number>; error: { code: string; message: string } | null }>;
  [k: string]: unknown;
}

function child(mode: string, args: string[]): ChildResult {
  const script = fileURLToPath(new URL("./daily-child.js", import.meta.url));
  const out = execFileSync(process.execPath, [script, mode, ...args], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.trim().split("\n").pop()!) as ChildResult;
}

function printDaily(label: string, r: ChildResult, plain: ChildResult, store: ChildResult): void {
  const total = r.wall_ms;
  process.stdout.write(`\n${label}: wall ${(total / 1000).toFixed(2)} s, peak RSS ${r.max_rss_mb.toFixed(0)} MB, ok=${r.ok} failed=[${(r.failed ?? []).join(", ")}]\n`);
  process.stdout.write(`  ${"part".padEnd(12)} ${"ms".padStart(9)} ${"share".padStart(7)}  counts\n`);
  process.stdout.write(`  ${"ledger read".padEnd(12)} ${(r.read_ms ?? 0).toFixed(0).padStart(9)} ${(((r.read_ms ?? 0) / total) * 100).toFixed(1).padStart(6)}%\n`);
  for (const s of r.stages ?? []) {
    const c = s.skipped ? "skipped" : s.ok ? Object.entries(s.counts).map(([k, v]) => `${k}=${v}`).join(" ") : `FAILED ${s.error?.code}: ${s.error?.message}`;
    process.stdout.write(`  ${s.name.padEnd(12)} ${String(s.ms).padStart(9)} ${((s.ms / total) * 100).toFixed(1).padStart(6)}%  ${c}\n`);
  }
  const failedStages = (r.stages ?? []).filter((s) => !s.ok && !s.skipped).map((s) => s.name);
  // A failed run measured less work than a whole one: its ratio would flatter the daily.
  mustSucceed(r.ok === true && failedStages.length === 0, `${label}: ok=${r.ok}, stages failed: ${failedStages.join(", ") || "(none named)"}`);
  process.stdout.write(`  ratio to plain JSON.parse of the ledger: ${(total / plain.wall_ms).toFixed(1)}x; to the store's readAll: ${(total / store.wall_ms).toFixed(1)}x\n`);
}

export async function run(): Promise<void> {
  const entries = Number(process.env["DAILY_BENCH_ENTRIES"] ?? 100_000);
  const sessionsPerDay = Number(process.env["DAILY_BENCH_SESSIONS_PER_DAY"] ?? 3);
  const dir = mkdtempSync(join(tmpdir(), "errata-daily-bench-"));
  try {
    const g0 = performance.now();
    const data = await generateDailyBench({ dir, entries, days: 365, sessionsPerDay, seed: 7, nowMs: Date.now() });
    process.stdout.write(
      `data: ${entries} errata (${data.ledgerLines} ledger lines), ${data.outputs} host outputs, ${data.transcriptFiles} transcript files with ${data.prompts} typed prompts planned; generated in ${((performance.now() - g0) / 1000).toFixed(1)} s\n`,
    );
    const args = [data.ledgerDir, data.hostDir, data.transcriptsDir, dir];
    const plain = child("plain", args);
    const store = child("store", args);
    process.stdout.write(`baseline plain JSON.parse of every ledger line: ${(plain.wall_ms / 1000).toFixed(2)} s, peak RSS ${plain.max_rss_mb.toFixed(0)} MB\n`);
    process.stdout.write(`baseline store readAll (parse, validate, fold): ${(store.wall_ms / 1000).toFixed(2)} s, peak RSS ${store.max_rss_mb.toFixed(0)} MB\n`);
    printDaily("daily, first run", child("daily", args), plain, store);
    printDaily("daily, second run (nothing new)", child("daily", args), plain, store);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
