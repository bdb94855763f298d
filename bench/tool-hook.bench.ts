/**
 * The PreToolUse check runner as a process: `node bin/errata.cjs hook pre-tool-use` reading a
 * Bash tool call on stdin, against a bare `node -e 0` started the same way (spawnSync, the
 * same stdin) in the same run. It runs on every tool call; goal: within 1.05x of a bare start.
 *
 * Variants: an empty script file (the floor of any hook started as a file: Node's main-module
 * loading, which `-e` skips, costs several percent of a bare start by itself); no check file; six installed checks (checks.json) and the five hookify
 * example files in the project, none firing (the usual call: one log line per eligible
 * check); the same with a deny firing.
 *
 * Wall time, runs alternating so that machine load hits all alike, medians of
 * TOOL_HOOK_BENCH_RUNS (30) runs each; in the environment as given and, when it sets
 * NODE_EXTRA_CA_CERTS, also without it (that makes every Node start dearer and hides the
 * hook's own cost; the stock figure is the honest one).
 *
 * Also instructions executed under valgrind's callgrind (when installed; stock environment;
 * medians of TOOL_HOOK_BENCH_CALLGRIND_RUNS (3)): deterministic but for Node's background
 * threads and hash seeds, so it is the clearer figure on a shared, loaded machine.
 * TOOL_HOOK_BENCH_CALLGRIND=0 skips it.
 *
 * Run: `npm run build && node dist/bench/run.js tool-hook`
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

const CHECKS = [
  { id: "no-npm", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm.", mode: "active" },
  { id: "no-force-push", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "git\\s+push\\s+.*--force" }], action: "ask", message: "Force push?", mode: "active" },
  { id: "lockfile", tools: ["Edit", "Write"], conditions: [{ field: "file_path", operator: "ends_with", pattern: ".lock" }], action: "deny", message: "Generated.", mode: "active" },
  { id: "todo", tools: "*", conditions: [{ field: "content", operator: "contains", pattern: "TODO" }], action: "warn", message: "A TODO.", mode: "active" },
  { id: "py3", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^python\\s" }], action: "rewrite", message: "python3.", rewrite: { field: "command", pattern: "^python\\b", replacement: "python3" }, mode: "active" },
  { id: "sudo", tools: ["Bash"], conditions: [{ field: "command", operator: "starts_with", pattern: "sudo " }], action: "deny", message: "No sudo.", mode: "shadow" },
];

interface Variant {
  name: string;
  args: string[];
  input: string;
  env: Record<string, string>;
}

/** Instructions executed by each variant under callgrind (all threads), medians of a few runs. */
function measureInstructions(variants: readonly Variant[], env: NodeJS.ProcessEnv, dir: string): void {
  const cgRuns = Number(process.env["TOOL_HOOK_BENCH_CALLGRIND_RUNS"] ?? 3);
  if (process.env["TOOL_HOOK_BENCH_CALLGRIND"] === "0" || cgRuns < 1) return;
  if (spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status !== 0) {
    process.stdout.write("instructions: skipped (valgrind is not installed)\n");
    return;
  }
  const counts = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  for (let i = 0; i < cgRuns; i++) {
    for (const v of variants) {
      const r = spawnSync("valgrind", ["--tool=callgrind", `--callgrind-out-file=${join(dir, "callgrind.out")}`, process.execPath, ...v.args], { input: v.input, env: { ...env, ...v.env }, encoding: "utf8" });
      const m = /Collected : (\d+)/.exec(r.stderr);
      if (r.status !== 0 || !m) throw new Error(`${v.name} under callgrind exited ${r.status}: ${r.stderr.slice(-400)}`);
      counts.get(v.name)?.push(Number(m[1]));
    }
  }
  process.stdout.write(`instructions under callgrind, medians of ${cgRuns} alternating runs:\n`);
  const base = median(counts.get("node -e 0") ?? []);
  for (const [name, xs] of counts) {
    const m = median(xs);
    process.stdout.write(`  ${name}: ${(m / 1e6).toFixed(1)} M, ratio to node -e 0: ${(m / base).toFixed(3)}x${name === "node -e 0" ? "" : " (goal <= 1.05x)"}\n`);
  }
}

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const bin = join(repoRoot, "bin", "errata.cjs");
  const runs = Number(process.env["TOOL_HOOK_BENCH_RUNS"] ?? 30);
  const dir = mkdtempSync(join(tmpdir(), "errata-tool-hook-bench-"));
  try {
    const home = join(dir, "home");
    mkdirSync(home);
    const bare = join(dir, "bare");
    const full = join(dir, "full");
    mkdirSync(join(full, "ladder"), { recursive: true });
    writeFileSync(join(full, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: CHECKS }));
    const proj = join(dir, "proj");
    mkdirSync(join(proj, ".claude"), { recursive: true });
    const fixtures = join(repoRoot, "test", "ladder", "fixtures", "hookify");
    for (const f of readdirSync(fixtures).filter((n) => n.endsWith(".local.md"))) cpSync(join(fixtures, f), join(proj, ".claude", f));
    const call = (command: string) =>
      JSON.stringify({ session_id: "s1", transcript_path: join(dir, "t.jsonl"), cwd: proj, permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command, description: "run" }, tool_use_id: "toolu_1" });
    const hook = [bin, "hook", "pre-tool-use"];
    const emptyScript = join(dir, "empty.cjs");
    writeFileSync(emptyScript, "");
    const asGiven: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete asGiven["CLAUDE_PROJECT_DIR"];
    const variants: Variant[] = [
      { name: "node -e 0", args: ["-e", "0"], input: call("pnpm test"), env: { ERRATA_DIR: bare } },
      // The floor of any hook started as a script file: Node's main-module loading, which -e skips.
      { name: "node empty.cjs (a script file that does nothing)", args: [emptyScript], input: call("pnpm test"), env: { ERRATA_DIR: bare } },
      { name: "pre-tool-use, no checks", args: hook, input: JSON.stringify({ tool_name: "Bash", tool_input: { command: "pnpm test" }, cwd: dir }), env: { ERRATA_DIR: bare } },
      { name: "pre-tool-use, 6 checks + 5 hookify files, none fires", args: hook, input: call("pnpm test"), env: { ERRATA_DIR: full } },
      { name: "pre-tool-use, 6 checks + 5 hookify files, a deny fires", args: hook, input: call("npm test"), env: { ERRATA_DIR: full } },
    ];
    const envs: Array<[string, NodeJS.ProcessEnv]> = [["environment as given", asGiven]];
    if (process.env["NODE_EXTRA_CA_CERTS"]) {
      const stock = { ...asGiven };
      delete stock["NODE_EXTRA_CA_CERTS"];
      envs.push(["without NODE_EXTRA_CA_CERTS", stock]);
    }
    process.stdout.write(`wall time, medians of ${runs} alternating runs (spawnSync, stdin piped):\n`);
    measureInstructions(variants, envs[envs.length - 1]![1], dir);
    for (const [label, env] of envs) {
      const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
      const once = (v: (typeof variants)[number]) => spawnSync(process.execPath, v.args, { input: v.input, env: { ...env, ...v.env }, encoding: "utf8" });
      for (let i = 0; i < 2; i++) for (const v of variants) once(v); // warm the file cache
      const fired = once(variants[4]!);
      if (!fired.stdout.includes('"permissionDecision":"deny"')) throw new Error(`tool-hook bench: the deny variant did not deny: ${fired.stdout}${fired.stderr}`);
      for (let i = 0; i < runs; i++) {
        for (const v of variants) {
          const t0 = process.hrtime.bigint();
          const r = once(v);
          const ms = Number(process.hrtime.bigint() - t0) / 1e6;
          if (r.status !== 0 || r.stderr !== "") throw new Error(`${v.name} exited ${r.status}: ${r.stderr}`);
          times.get(v.name)?.push(ms);
        }
      }
      const base = median(times.get("node -e 0") ?? []);
      process.stdout.write(`${label}:\n`);
      for (const [name, xs] of times) {
        const m = median(xs);
        process.stdout.write(`  ${name}: ${m.toFixed(1)} ms, ratio to node -e 0: ${(m / base).toFixed(3)}x${name === "node -e 0" ? "" : " (goal <= 1.05x)"}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
