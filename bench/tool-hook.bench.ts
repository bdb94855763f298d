/**
 * The PreToolUse check runner as a process, against a bare `node -e 0` started the same way
 * (spawnSync, the same stdin) in the same run. It runs on every tool call; goal: within 1.05x
 * of a bare start.
 *
 * Variants: an empty script file (the floor of any hook started as a file: Node's main-module
 * loading, which `-e` skips); `errata-tool-hook pre-tool-use` (the documented settings.json
 * line) and `errata hook pre-tool-use` with no check file (the usual call: answered by
 * bin/errata-tool-hook.cjs's own lines, no bundle); six installed checks (checks.json) and the
 * five hookify example files in the project, none firing (the bundle runs: one log line per
 * eligible check); the same with a deny firing.
 *
 * Instructions under valgrind's callgrind (when installed; stock environment; medians of
 * TOOL_HOOK_BENCH_CALLGRIND_RUNS (3) alternating runs; TOOL_HOOK_BENCH_CALLGRIND=0 skips it).
 * The figure compared is the count *net* of V8's hash-seed set-up
 * (`v8::internal::HashSeed::InitializeRoots`, read from the callgrind file): that one function
 * costs 2 to 18 M instructions by the random seed alone, the same distribution for every
 * process, and it made whole-process counts move by 10% run to run; net of it a variant
 * repeats within about 0.3 M. Whole-process medians are printed beside it.
 *
 * Wall time, runs alternating so that machine load hits all alike, medians of
 * TOOL_HOOK_BENCH_RUNS (30) runs each; in the environment as given and, when it sets
 * NODE_EXTRA_CA_CERTS, also without it (that makes every Node start dearer and hides the
 * hook's own cost; the stock figure is the honest one).
 *
 * Run: `npm run build && node dist/bench/run.js tool-hook`
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

/**
 * A callgrind output file's total, and the inclusive cost of the calls to V8's hash-seed
 * set-up (HashSeed::InitializeRoots, called once, never recursively). Read by hand: the
 * format is callgrind's own (`fn=`/`cfn=(id) name`, `calls=` followed by the call's
 * inclusive cost line); callgrind_annotate would be a second process per run.
 */
export function callgrindNet(text: string): { total: number; hashSeed: number; net: number } {
  const names = new Map<string, string>();
  let total = 0;
  let hashSeed = 0;
  let target = false;
  let afterCalls = false;
  for (const line of text.split("\n")) {
    if (afterCalls) {
      afterCalls = false;
      if (target) hashSeed += Number(line.split(" ")[1] ?? 0);
      continue;
    }
    const named = /^c?fn=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      if (named[2] !== undefined) names.set(named[1]!, named[2]);
      if (line.startsWith("cfn=")) target = (names.get(named[1]!) ?? "").includes("HashSeed::InitializeRoots");
    } else if (line.startsWith("calls=")) afterCalls = true;
    else if (line.startsWith("summary:") || line.startsWith("totals:")) total = Number(line.split(/\s+/)[1]);
  }
  return { total, hashSeed, net: total - hashSeed };
}

/** Instructions executed by each variant under callgrind (all threads), medians of a few runs. */
function measureInstructions(variants: readonly Variant[], env: NodeJS.ProcessEnv, dir: string): void {
  const cgRuns = Number(process.env["TOOL_HOOK_BENCH_CALLGRIND_RUNS"] ?? 3);
  if (process.env["TOOL_HOOK_BENCH_CALLGRIND"] === "0" || cgRuns < 1) return;
  if (spawnSync("valgrind", ["--version"], { encoding: "utf8" }).status !== 0) {
    process.stdout.write("instructions: skipped (valgrind is not installed)\n");
    return;
  }
  const counts = new Map<string, Array<{ total: number; net: number }>>(variants.map((v) => [v.name, []]));
  const out = join(dir, "callgrind.out");
  for (let i = 0; i < cgRuns; i++) {
    for (const v of variants) {
      const r = spawnSync("valgrind", ["--tool=callgrind", `--callgrind-out-file=${out}`, process.execPath, ...v.args], { input: v.input, env: { ...env, ...v.env }, encoding: "utf8" });
      if (r.status !== 0 || !/Collected : \d+/.test(r.stderr)) throw new Error(`${v.name} under callgrind exited ${r.status}: ${r.stderr.slice(-400)}`);
      const got = callgrindNet(readFileSync(out, "utf8"));
      // Another Node (or callgrind) may name it otherwise: then say so rather than compare noise as if net.
      if (got.hashSeed === 0) process.stdout.write(`  (${v.name}: no HashSeed::InitializeRoots in the callgrind file; its figure is the whole process)\n`);
      counts.get(v.name)?.push(got);
    }
  }
  process.stdout.write(`instructions under callgrind, medians of ${cgRuns} alternating runs, net of V8's hash-seed set-up (whole process in brackets):\n`);
  const base = median(counts.get("node -e 0")?.map((c) => c.net) ?? []);
  const baseTotal = median(counts.get("node -e 0")?.map((c) => c.total) ?? []);
  const floor = median(counts.get(EMPTY)?.map((c) => c.net) ?? []);
  for (const [name, xs] of counts) {
    const m = median(xs.map((c) => c.net));
    const t = median(xs.map((c) => c.total));
    const goal = name === "node -e 0" ? "" : ` (goal <= 1.05x), to the empty script ${(m / floor).toFixed(3)}x`;
    process.stdout.write(`  ${name}: ${(m / 1e6).toFixed(1)} M, ratio to node -e 0: ${(m / base).toFixed(3)}x${goal} [${(t / 1e6).toFixed(1)} M, ${(t / baseTotal).toFixed(3)}x]\n`);
  }
}

const EMPTY = "node empty.cjs (a script file that does nothing)";

export async function run(): Promise<void> {
  const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
  const bin = join(repoRoot, "bin", "errata.cjs");
  const toolBin = join(repoRoot, "bin", "errata-tool-hook.cjs");
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
    const hook = [toolBin, "pre-tool-use"];
    const emptyScript = join(dir, "empty.cjs");
    writeFileSync(emptyScript, "");
    const asGiven: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    delete asGiven["CLAUDE_PROJECT_DIR"];
    const noCheck = JSON.stringify({ ...JSON.parse(call("pnpm test")), cwd: dir });
    const variants: Variant[] = [
      { name: "node -e 0", args: ["-e", "0"], input: call("pnpm test"), env: { ERRATA_DIR: bare } },
      // The floor of any hook started as a file: Node's main-module loading, which -e skips.
      { name: EMPTY, args: [emptyScript], input: call("pnpm test"), env: { ERRATA_DIR: bare } },
      { name: "errata-tool-hook pre-tool-use, no check file", args: hook, input: noCheck, env: { ERRATA_DIR: bare } },
      { name: "errata hook pre-tool-use, no check file", args: [bin, "hook", "pre-tool-use"], input: noCheck, env: { ERRATA_DIR: bare } },
      { name: "errata-tool-hook, 6 checks + 5 hookify files, none fires", args: hook, input: call("pnpm test"), env: { ERRATA_DIR: full } },
      { name: "errata-tool-hook, 6 checks + 5 hookify files, a deny fires", args: hook, input: call("npm test"), env: { ERRATA_DIR: full } },
    ];
    const envs: Array<[string, NodeJS.ProcessEnv]> = [["environment as given", asGiven]];
    if (process.env["NODE_EXTRA_CA_CERTS"]) {
      const stock = { ...asGiven };
      delete stock["NODE_EXTRA_CA_CERTS"];
      envs.push(["without NODE_EXTRA_CA_CERTS", stock]);
    }
    measureInstructions(variants, envs[envs.length - 1]![1], dir);
    process.stdout.write(`wall time, medians of ${runs} alternating runs (spawnSync, stdin piped):\n`);
    for (const [label, env] of envs) {
      const times = new Map<string, number[]>(variants.map((v) => [v.name, []]));
      const once = (v: (typeof variants)[number]) => spawnSync(process.execPath, v.args, { input: v.input, env: { ...env, ...v.env }, encoding: "utf8" });
      for (let i = 0; i < 2; i++) for (const v of variants) once(v); // warm the file cache
      const fired = once(variants[5]!);
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
        const floor = median(times.get(EMPTY) ?? []);
        process.stdout.write(`  ${name}: ${m.toFixed(1)} ms, ratio to node -e 0: ${(m / base).toFixed(3)}x${name === "node -e 0" ? "" : ` (goal <= 1.05x), to the empty script ${(m / floor).toFixed(3)}x`}\n`);
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
