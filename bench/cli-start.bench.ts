/**
 * What a command's start costs: the CPU time (user + system, read by the child itself at exit)
 * of a few everyday commands run as processes through the package's bin, each as a ratio to
 * `errata --version` (which answers without loading the ES module CLI) started the same way in
 * the same run, alternating so machine load hits all alike; medians of CLI_START_BENCH_RUNS (5)
 * runs each. CPU time rather than wall time, since the suite and the person share the cores.
 * Each runs in an empty folder with HOME pointed at it, so no ledger of the machine is read.
 * Each command also runs from the unbundled modules (`ERRATA_CLI=dist`: what the bin ran before
 * the CLI was bundled, scripts/bundle-cli.js), and its line gives the bundled run's CPU as a
 * ratio to that, the same run.
 *
 * Run: `npm run build && node dist/bench/run.js cli-start`
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { mustSucceed } from "./fail.js";

// `calibrate cuts --help` shows a group loading only the subcommand named (cli/shared/subcommands.ts).
const COMMANDS: string[][] = [["rules", "approvals", "--json"], ["list"], ["eval", "score", "--help"], ["daily", "--help"], ["calibrate", "cuts", "--help"]];
const MARK = "errata-bench-cpu-us ";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

export async function run(): Promise<void> {
  const root = resolve(fileURLToPath(new URL(".", import.meta.url)), "../..");
  const bin = resolve(root, "bin", "errata.cjs");
  const runs = Number(process.env["CLI_START_BENCH_RUNS"] ?? 5);
  const dir = mkdtempSync(join(tmpdir(), "errata-cli-start-"));
  try {
    // Preloaded into each child: its own CPU time at exit, on stderr's last line.
    const preload = join(dir, "cpu.cjs");
    writeFileSync(preload, `process.on("exit", () => { const u = process.cpuUsage(); require("fs").writeSync(2, "\\n${MARK}" + (u.user + u.system) + "\\n"); });\n`);
    const cpuMs = (args: string[], unbundled = false): number => {
      const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
      if (unbundled) env["ERRATA_CLI"] = "dist";
      else delete env["ERRATA_CLI"];
      const r = spawnSync(process.execPath, ["-r", preload, bin, ...args], { cwd: dir, env, encoding: "utf8" });
      mustSucceed(r.status === 0, `errata ${args.join(" ")} exited ${r.status}: ${r.stderr.slice(-300)}`);
      const line = r.stderr.split("\n").reverse().find((l) => l.startsWith(MARK));
      mustSucceed(line !== undefined, `errata ${args.join(" ")}: no CPU time reported`);
      return Number(line!.slice(MARK.length)) / 1000;
    };
    const times = new Map<string, number[]>([["--version", []], ...COMMANDS.flatMap((c): Array<[string, number[]]> => [[c.join(" "), []], [`dist ${c.join(" ")}`, []]])]);
    for (let i = 0; i < runs; i++) {
      times.get("--version")!.push(cpuMs(["--version"]));
      for (const c of COMMANDS) {
        times.get(c.join(" "))!.push(cpuMs(c));
        times.get(`dist ${c.join(" ")}`)!.push(cpuMs(c, true));
      }
    }
    const base = median(times.get("--version")!);
    process.stdout.write(`errata --version: ${base.toFixed(0)} ms CPU (median of ${runs})\n`);
    for (const c of COMMANDS) {
      const m = median(times.get(c.join(" "))!);
      const u = median(times.get(`dist ${c.join(" ")}`)!);
      process.stdout.write(
        `errata ${c.join(" ")}: ${m.toFixed(0)} ms CPU, ratio ${(m / base).toFixed(1)}x to --version; unbundled ${u.toFixed(0)} ms (${(u / base).toFixed(1)}x); bundled/unbundled ${(m / u).toFixed(2)}\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
