/**
 * `errata --version` as a process (`node bin/errata.cjs --version`, the package's bin) against
 * a bare `node -e 0` started the same way (spawnSync) in the same run, alternating so machine
 * load hits both alike; medians of VERSION_BENCH_RUNS (30) runs each. Target: within 1.3x of
 * the bare start (the bin answers from package.json without loading the CLI's modules).
 *
 * Run: `npm run build && node dist/bench/run.js version`
 */
import { spawnSync } from "node:child_process";
import { mustSucceed } from "./fail.js";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

function timeOnce(args: string[]): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-300)}`);
  return ms;
}

export async function run(): Promise<void> {
  const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
  const bin = resolve(root, "bin", "errata.cjs");
  const runs = Number(process.env["VERSION_BENCH_RUNS"] ?? 30);
  const bare: number[] = [];
  const version: number[] = [];
  const probe = spawnSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
  const out = probe.stdout.trim();
  mustSucceed(probe.status === 0 && /^\d+\.\d+\.\d+/.test(out), `errata --version exited ${probe.status} printing ${JSON.stringify(out.slice(0, 80))}`);
  for (let i = 0; i < runs; i++) {
    bare.push(timeOnce(["-e", "0"]));
    version.push(timeOnce([bin, "--version"]));
  }
  const b = median(bare);
  const v = median(version);
  process.stdout.write(`bare node -e 0:        ${b.toFixed(1)} ms (median of ${runs})\n`);
  process.stdout.write(`errata --version (${out}): ${v.toFixed(1)} ms (median of ${runs})\n`);
  process.stdout.write(`ratio: ${(v / b).toFixed(2)}x (target <= 1.3x)\n`);
}
