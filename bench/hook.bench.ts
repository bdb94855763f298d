/**
 * The whole hook as a process: `node bin/errata.cjs hook user-prompt-submit` (compiled
 * JavaScript) reading a prompt on stdin and appending to a scratch ledger, against a bare
 * `node -e 0` started the same way (spawnSync, same stdin) in the same run. Runs alternate
 * so that machine load hits both alike; the figures are medians of HOOK_BENCH_RUNS (30) runs
 * each. Target: the capturing hook within 1.3x of a bare Node start.
 *
 * Two environments: as given, and without NODE_EXTRA_CA_CERTS. A Node start that must load
 * an extra CA bundle costs several times a stock start (about 500M vs 90M instructions under
 * valgrind on the reference container), which hides the hook's own cost; the stock figure is
 * the honest one for most machines.
 *
 * Run: `npx tsc -p tsconfig.json && node dist/bench/run.js hook`
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const bin = join(repoRoot, "bin", "errata.cjs");
  const runs = Number(process.env["HOOK_BENCH_RUNS"] ?? 30);
  const dir = mkdtempSync(join(tmpdir(), "errata-hook-bench-"));
  try {
    const ledger = join(dir, "ledger");
    const transcript = join(dir, "session.jsonl");
    // A real transcript tail for the hook to read: the bundled spotter session.
    writeFileSync(transcript, readFileSync(join(repoRoot, "datasets", "claude-code", "spotter", "tool_heavy.jsonl")));
    const asGiven = { ...process.env, ERRATA_DIR: ledger };
    const stock: NodeJS.ProcessEnv = { ...asGiven };
    delete stock["NODE_EXTRA_CA_CERTS"];
    const stdinFor = (prompt: string) =>
      JSON.stringify({ session_id: "bench", transcript_path: transcript, cwd: dir, hook_event_name: "UserPromptSubmit", permission_mode: "default", prompt });
    const variants: Array<[string, string[], string]> = [
      ["node -e 0", ["-e", "0"], stdinFor("no, that's wrong")],
      ["hook, capturing prompt", [bin, "hook", "user-prompt-submit"], stdinFor("No, that's wrong. I already told you to keep the old API.")],
      ["hook, ordinary prompt", [bin, "hook", "user-prompt-submit"], stdinFor("add a retry to the fetch call and run the tests")],
    ];
    const envs: Array<[string, NodeJS.ProcessEnv]> = [["environment as given", asGiven]];
    if (process.env["NODE_EXTRA_CA_CERTS"]) envs.push(["without NODE_EXTRA_CA_CERTS", stock]);
    for (const [label, env] of envs) {
      const times = new Map<string, number[]>(variants.map(([name]) => [name, []]));
      for (let i = 0; i < 2; i++) for (const [, args, input] of variants) spawnSync(process.execPath, args, { input, env }); // warm the file cache
      for (let i = 0; i < runs; i++) {
        for (const [name, args, input] of variants) {
          const t0 = process.hrtime.bigint();
          const r = spawnSync(process.execPath, args, { input, env });
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (r.status !== 0) throw new Error(`${name} exited ${r.status}: ${String(r.stderr)}`);
          times.get(name)?.push(ms);
        }
      }
      const base = median(times.get("node -e 0") ?? []);
      process.stdout.write(`${label}:\n`);
      for (const [name, xs] of times) {
        const m = median(xs);
        process.stdout.write(`  ${name}: median ${m.toFixed(1)} ms over ${xs.length} runs, ratio to node -e 0: ${(m / base).toFixed(2)}x\n`);
      }
    }
    const rows = readdirSync(ledger).filter((f) => f.endsWith(".jsonl")).flatMap((f) => readFileSync(join(ledger, f), "utf8").trim().split("\n"));
    process.stdout.write(`ledger rows appended by the capturing runs: ${rows.length}\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
