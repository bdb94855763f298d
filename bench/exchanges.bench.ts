/**
 * `errata exchanges` throughput and memory. A corpus of >= 100 MB is made of the real Claude
 * Code sessions (bundled spotter; the shared m-claude ones when present) repeated with fresh
 * ids (bench/exchanges-data.ts). Each measurement runs in its own child process; the three
 * passes alternate three times and the median is kept:
 *   readline  - node:readline over each file, lines counted only (the baseline);
 *   readlines - the reader's own byte splitter (runtime/files/lines.ts), lines only;
 *   parse     - readline + JSON.parse of every line (what any JSON reader must pay);
 *   exchanges - the whole command (read, classify, graph, live branch, exchanges, append).
 * Reported: MB/s of each and exchanges/readline as a ratio (target >= 0.5). Memory: peak RSS
 * of `errata exchanges` over 10 MB and over 100 MB of the same sessions (target: flat), beside
 * a child that only loads the modules.
 */
import { execFileSync } from "node:child_process";
import { mustSucceed } from "./fail.js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCorpus } from "./exchanges-data.js";

interface Child {
  mode: string;
  wall_ms: number;
  bytes: number;
  lines: number;
  max_rss_mb: number;
  retained_heap_mb: number;
  exchanges?: number;
  broken?: number;
  files?: number;
}

function child(mode: string, root: string, scratch: string): Child {
  const script = fileURLToPath(new URL("./exchanges-child.js", import.meta.url));
  const out = execFileSync(process.execPath, ["--expose-gc", script, mode, root, scratch], { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 });
  return JSON.parse(out.trim().split("\n").pop() as string) as Child;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const mbps = (c: Child): number => c.bytes / 1e6 / (c.wall_ms / 1000);

export async function run(): Promise<void> {
  const target = Number(process.env["EXCHANGES_BENCH_MB"] ?? 100) * 1e6;
  const dir = mkdtempSync(join(tmpdir(), "errata-exchanges-bench-"));
  try {
    const big = join(dir, "corpus-100");
    const small = join(dir, "corpus-10");
    const g = buildCorpus(big, target);
    const s = buildCorpus(small, target / 10);
    process.stdout.write(`corpus: ${(g.bytes / 1e6).toFixed(1)} MB in ${g.files} files (${g.copies} copies of the real sessions, fresh ids); small: ${(s.bytes / 1e6).toFixed(1)} MB in ${s.files} files\n`);
    const runs: Record<string, Child[]> = { readline: [], readlines: [], parse: [], exchanges: [] };
    for (let i = 0; i < 3; i++) for (const mode of Object.keys(runs)) runs[mode]?.push(child(mode, big, dir));
    // A sweep that found no exchange in a corpus of real sessions measured nothing worth a ratio.
    for (const c of runs["exchanges"] ?? []) mustSucceed((c.exchanges ?? 0) > 0, `exchanges pass: ${c.exchanges ?? 0} exchanges from ${c.files ?? 0} files`);
    const line = (mode: string): Child => {
      const list = runs[mode] as Child[];
      const m = median(list.map((c) => c.wall_ms));
      return list.find((c) => c.wall_ms === m) as Child;
    };
    const base = line("readline");
    process.stdout.write(`\n${"pass".padEnd(10)} ${"MB/s".padStart(8)} ${"wall s".padStart(8)} ${"ratio".padStart(6)}  (median of 3, each in its own process)\n`);
    for (const mode of ["readline", "readlines", "parse", "exchanges"]) {
      const c = line(mode);
      process.stdout.write(`${mode.padEnd(10)} ${mbps(c).toFixed(1).padStart(8)} ${(c.wall_ms / 1000).toFixed(2).padStart(8)} ${(mbps(c) / mbps(base)).toFixed(2).padStart(6)}\n`);
    }
    const ex = line("exchanges");
    process.stdout.write(`exchanges: ${ex.exchanges} exchanges from ${ex.files} files, ${ex.lines} lines, ${ex.broken} broken lines skipped\n`);
    process.stdout.write(`ratio exchanges / readline throughput: ${(mbps(ex) / mbps(base)).toFixed(2)} (target >= 0.5); exchanges / the reader's own line splitter: ${(mbps(ex) / mbps(line("readlines"))).toFixed(2)}\n`);

    const idle = child("idle", small, dir);
    const m10 = child("exchanges", small, dir);
    const m100 = child("exchanges", big, dir);
    process.stdout.write(`\npeak RSS (maxRSS of the child): modules loaded only ${idle.max_rss_mb.toFixed(0)} MB; exchanges over ${(m10.bytes / 1e6).toFixed(0)} MB: ${m10.max_rss_mb.toFixed(0)} MB; over ${(m100.bytes / 1e6).toFixed(0)} MB: ${m100.max_rss_mb.toFixed(0)} MB; ratio 100/10: ${(m100.max_rss_mb / m10.max_rss_mb).toFixed(2)} (target: flat)\n`);
    process.stdout.write(`heap retained after the pass (after gc): ${m10.retained_heap_mb.toFixed(1)} MB vs ${m100.retained_heap_mb.toFixed(1)} MB (modules only: ${idle.retained_heap_mb.toFixed(1)} MB)\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
