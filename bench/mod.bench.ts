/**
 * The Errata mod's cost (docs/mod.md), two ways, each against a baseline in the same run.
 *
 * 1. In process: the bundled handlers (mod/hooks/errata-core.js) called as the client calls
 *    them, `(ports, e, next)` with a `next` that resolves at once and ports that answer from
 *    memory (the client's worker hop is not Errata's work), against an empty handler
 *    (`next(e)`). Per prompt: an ordinary prompt (classified, nothing handed over). Per tool
 *    call: tool.check then tool.call with six installed checks none of which fires, as a call
 *    runs through both. Goal: Errata's own work under 1 ms at the median. tinybench; the
 *    one-time costs (the classifier's first load, the session's first look-up) are paid in a
 *    warm-up before timing, as the client's worker pays them once a session.
 *
 * 2. In the real client (pinned; test/e2e/client.ts): sessions of MOD_BENCH_CLIENT_TURNS (4)
 *    scripted turns (each an ordinary prompt, one Bash call, a reply) in one client process
 *    (`claude -p` with stream-json input, the prompts sent one after another as an interactive
 *    session sends them), with no Errata, with the README's settings hooks, with the mod
 *    (`--plugin-dir` of the installed package), and with an empty mod hooking the same six
 *    events (each handler `next(e)`: what the client's worker and its hops cost any mod); the
 *    arms alternate so that load hits all alike; MOD_BENCH_CLIENT_RUNS (3) runs after one
 *    warm-up each. Two figures per arm: the first turn, from the process's start to its result
 *    (what a one-turn `claude -p` pays, the session's cold costs included), and the later
 *    turns, each from its prompt to its result (the cold costs paid). The goal's ratio: the time
 *    the mod adds to a turn over the time the hooks add, at most 0.1; beside it, the same for
 *    the mod over the empty mod (Errata's own share). MOD_BENCH_CLIENT=0 skips this part.
 *
 * Run: `npm run build && node dist/bench/run.js mod`
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { Bench } from "tinybench";
import type { ModApi } from "../runtime/mod/api.js";
import type * as Core from "../runtime/mod/core.js";
import { clientBinary, clientReady, CLAUDE_CODE_VERSION, installErrata, readmeHooks, repoRoot, workspace, type Workspace } from "../test/e2e/client.js";
import { startModelServer, type Turn } from "../test/e2e/model-server.js";
import { BenchFailed } from "./fail.js";

const fail = (what: string): never => {
  throw new BenchFailed(what);
};

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

const CHECKS = [
  { id: "no-npm", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm.", mode: "active" },
  { id: "no-force-push", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "git\\s+push\\s+.*--force" }], action: "deny", message: "Never force-push.", mode: "active" },
  { id: "ask-deploy", tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "deploy" }], action: "ask", message: "Deploys need a yes.", mode: "active" },
  { id: "colour", tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "colour" }], action: "rewrite", message: "American spelling.", rewrite: { field: "command", pattern: "colour", replacement: "color", decision: "allow" }, mode: "active" },
  { id: "env-file", tools: ["Write", "Edit"], conditions: [{ field: "file_path", operator: "ends_with", pattern: ".env" }], action: "deny", message: "No .env edits.", mode: "active" },
  { id: "shadow-rm", tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "rm -rf" }], action: "deny", message: "No rm -rf.", mode: "shadow" },
];
const ORDINARY = [
  "Check that the build still works.",
  "Add a test for the parser's empty input.",
  "What does the retry loop in client.ts do?",
  "Rename fetchAll to fetchEvery across the package.",
  "Prüfe bitte, ob die Tests durchlaufen.",
  "Lisää README:hen asennusohje.",
];

function ports(): ModApi {
  const checks = JSON.stringify({ version: 1, checks: CHECKS.map((c) => ({ rule_id: null, ...c })) });
  return {
    log: () => undefined,
    sessionInfo: async () => ({ transcriptPath: "/h/.claude/projects/p/s1.jsonl" }),
    sessionId: async () => "s1",
    sessionCwd: async () => "/p",
    hookEnv: async () => ({ CLAUDE_PLUGIN_ROOT: "/pkg/mod" }),
    read: async (p) => {
      if (p.endsWith("/ladder/checks.json")) return checks;
      throw new Error("ENOENT");
    },
    write: async () => undefined,
    exists: async () => true,
    // The ladder folder holds checks.json (its size and time unchanged: the change test finds it read).
    list: async (dir) => (dir.endsWith("/ladder") ? [{ name: "checks.json", kind: "file", size: checks.length, mtimeMs: 1, isLink: false }] : []),
    run: async () => ({ exitCode: 0, stdout: "", stderr: "" }),
    settings: async () => ({}),
    env: async () => ({ HOME: "/h" }),
    registerCommand: async () => ({}),
    readData: async (p) => readFileSync(join(repoRoot, "mod", "lang", p.slice(p.lastIndexOf("/") + 1)), "utf8"),
  };
}

async function inProcess(): Promise<void> {
  const bundle = join(repoRoot, "mod", "hooks", "errata-core.js");
  if (!existsSync(bundle)) fail(`${bundle} is missing: npm run build`);
  const core = (await import(bundle)) as typeof Core;
  const mod = core.createErrataMod();
  const api = ports();
  const next = async <E>(e: E) => e;
  const empty = async <E>(_: ModApi, e: E, n: (e: E) => Promise<E>) => n(e);
  let k = 0;
  const prompt = () => ({ text: ORDINARY[k++ % ORDINARY.length]!, wait: false });
  const call = (i: number) => ({ tool: "Bash", command: `ls -la src/${i % 7}`, description: "list", tool_use_id: `t${i}` });
  // Warm-up: the classifier's first load and the session's first look-up, paid once a session.
  for (let i = 0; i < 50; i++) {
    await mod.promptSubmit(api, prompt(), next);
    const c = call(i);
    await mod.toolCheck(api, { tool: "Bash", input: { command: c.command }, tool_use_id: c.tool_use_id }, async () => ({ decision: "allow" as const }));
    await mod.toolCall(api, c, async (e) => ({ result: e }));
  }
  // The six checks are read (a call one denies is denied), else the tool-call figure would time no checks.
  const denied = await mod.toolCheck(api, { tool: "Bash", input: { command: "npm i" }, tool_use_id: "deny-probe" }, async () => ({ decision: "allow" as const }));
  if (denied.decision !== "deny") fail(`the bench's checks were not read (npm i: ${JSON.stringify(denied)})`);
  // An ordinary prompt hands nothing over: check it before timing it.
  let handed = 0;
  const countingApi = { ...api, run: async () => ((handed += 1), { exitCode: 0, stdout: "", stderr: "" }) };
  for (const text of ORDINARY) await mod.promptSubmit(countingApi, { text, wait: false }, next);
  if (handed !== 0) fail(`an ordinary prompt was handed over (${handed} of ${ORDINARY.length}): the bench would time a process`);
  let n = 1000;
  const bench = new Bench({ time: 1500, warmupTime: 200 });
  bench
    .add("prompt: empty handler", async () => void (await empty(api, prompt(), next)))
    .add("prompt: Errata's prompt.submit", async () => void (await mod.promptSubmit(api, prompt(), next)))
    .add("tool call: empty handlers", async () => {
      const c = call(n++);
      await empty(api, { tool: "Bash", input: { command: c.command } }, next);
      await empty(api, c, next);
    })
    .add("tool call: Errata's tool.check + tool.call (6 checks, none fires)", async () => {
      const c = call(n++);
      await mod.toolCheck(api, { tool: "Bash", input: { command: c.command }, tool_use_id: c.tool_use_id }, async () => ({ decision: "allow" as const }));
      await mod.toolCall(api, c, async (e) => ({ result: e }));
    });
  await bench.run();
  const med = (name: string): number => {
    const t = bench.tasks.find((x) => x.name === name);
    const r = t?.result as { latency?: { p50?: number } } | undefined;
    const v = r?.latency?.p50;
    return typeof v === "number" ? v : fail(`no median for ${name}`);
  };
  const pe = med("prompt: empty handler");
  const pm = med("prompt: Errata's prompt.submit");
  const te = med("tool call: empty handlers");
  const tm = med("tool call: Errata's tool.check + tool.call (6 checks, none fires)");
  process.stdout.write("in process, the bundled handlers as the client calls them (medians, tinybench):\n");
  process.stdout.write(`  per ordinary prompt: ${pm.toFixed(4)} ms against an empty handler's ${pe.toFixed(4)} ms: Errata's own work ${(pm - pe).toFixed(4)} ms (${(pm / pe).toFixed(1)}x the empty handler; goal: under 1 ms)\n`);
  process.stdout.write(`  per tool call: ${tm.toFixed(4)} ms against empty handlers' ${te.toFixed(4)} ms: Errata's own work ${(tm - te).toFixed(4)} ms (${(tm / te).toFixed(1)}x; goal: under 1 ms)\n`);
}

/** The model's part of one scripted turn: one Bash call, then a reply. */
const TURN: Turn[] = [{ tool: "Bash", input: { command: "echo ok", description: "Check" } }, { text: "Checked: ok." }];
const PROMPT = "Check that the build still works.";

/**
 * One client process holding a session of `turns` turns (`claude -p --input-format stream-json
 * --output-format stream-json --verbose`, the prompts on stdin one after another, as an
 * interactive session sends them): the first turn's time is from the process's start to its
 * result (what a one-turn `claude -p` pays: the client's start, the session's, the turn); each
 * later turn's from its prompt to its result (the session's cold costs already paid).
 */
function session(ws: Workspace, serverUrl: string, turns: number, args: readonly string[]): Promise<{ code: number | null; ms: number[]; stderr: string }> {
  const env: Record<string, string> = {
    PATH: `${ws.bin}:${process.env["PATH"] ?? ""}`,
    HOME: ws.home,
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: "sk-ant-e2e-scripted",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
  const argv = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash", ...args];
  return new Promise((done, failed) => {
    const t0 = performance.now();
    const child = spawn(clientBinary(), argv, { cwd: ws.project, env, stdio: ["pipe", "pipe", "pipe"] });
    const ms: number[] = [];
    let sent = t0;
    let out = "";
    let stderr = "";
    const send = (): void => {
      sent = performance.now();
      child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: PROMPT } })}\n`);
    };
    child.stdout.setEncoding("utf8").on("data", (d: string) => {
      out += d;
      for (let nl = out.indexOf("\n"); nl >= 0; nl = out.indexOf("\n")) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (line === "" || !line.startsWith("{")) continue;
        const m = JSON.parse(line) as { type?: string; subtype?: string };
        if (m.type !== "result") continue;
        if (m.subtype !== "success") stderr += `turn ${ms.length + 1}: ${line.slice(0, 300)}\n`;
        ms.push(performance.now() - sent);
        if (ms.length < turns) send();
        else child.stdin.end();
      }
    });
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", failed);
    child.on("close", (code) => done({ code: ms.length === turns ? code : (code ?? 1) || 1, ms, stderr }));
    send();
  });
}

async function inClient(): Promise<void> {
  if (process.env["MOD_BENCH_CLIENT"] === "0") return;
  if (!clientReady()) {
    process.stdout.write(`skipping the in-client part: Claude Code ${CLAUDE_CODE_VERSION} is not installed (node scripts/claude-code.mjs install) or dist/ is not built\n`);
    return;
  }
  const runs = Number(process.env["MOD_BENCH_CLIENT_RUNS"] ?? 3);
  const turns = Number(process.env["MOD_BENCH_CLIENT_TURNS"] ?? 4);
  if (!(runs >= 1 && turns >= 2)) fail(`MOD_BENCH_CLIENT_RUNS must be at least 1 and MOD_BENCH_CLIENT_TURNS at least 2; found ${runs} and ${turns}`);
  const root = mkdtempSync(join(tmpdir(), "errata-mod-bench-"));
  const server = await startModelServer();
  try {
    const bin = await installErrata();
    const modDir = join(dirname(bin), "errata", "mod");
    const claudeMd = "# Project\n\n- Use pnpm, never npm.\n";
    // The empty mod: the same events, each handler passing the event on.
    const empty = join(root, "empty-mod");
    mkdirSync(join(empty, ".claude-plugin"), { recursive: true });
    mkdirSync(join(empty, "hooks"));
    writeFileSync(join(empty, ".claude-plugin", "plugin.json"), JSON.stringify({ name: "empty-mod", version: "0.0.1", description: "Hooks Errata's events and passes each on." }));
    writeFileSync(join(empty, "hooks", "hooks.json"), JSON.stringify({ modules: ["./register.js"] }));
    writeFileSync(
      join(empty, "hooks", "register.js"),
      `export function register(on) {\n${["session.start", "prompt.submit", "turn.complete", "tool.check", "tool.call", "prompt.context"].map((ev) => `  on(${JSON.stringify(ev)}, async ($, e, next) => next(e));\n`).join("")}}\n`,
    );
    // MOD_BENCH_BEFORE: another build's mod folder (with its package's bin/ beside it), timed as a fifth arm.
    const before = process.env["MOD_BENCH_BEFORE"];
    if (before !== undefined && !existsSync(join(before, "hooks", "register.js"))) fail(`MOD_BENCH_BEFORE should name a mod folder (hooks/register.js inside); found ${before}`);
    const arms: Array<readonly [string, Workspace, readonly string[]]> = [
      ["none", workspace(join(root, "none"), bin, { hooks: {}, claudeMd }), []],
      ["empty mod", workspace(join(root, "empty"), bin, { hooks: {}, claudeMd }), ["--plugin-dir", empty]],
      ["hooks", workspace(join(root, "hooks"), bin, { hooks: readmeHooks(), claudeMd }), []],
      ["mod", workspace(join(root, "mod"), bin, { hooks: {}, claudeMd }), ["--plugin-dir", modDir]],
      ...(before === undefined ? [] : [["mod before", workspace(join(root, "before"), bin, { hooks: {}, claudeMd }), ["--plugin-dir", before]] as const]),
    ];
    const first: Record<string, number[]> = {};
    const later: Record<string, number[]> = {};
    const loads: number[] = [];
    process.stdout.write(`in Claude Code ${CLAUDE_CODE_VERSION}: ${runs} runs after a warm-up, the ${arms.length} arms alternating, each a session of ${turns} scripted turns (ordinary prompt, one Bash call, reply)\n`);
    for (let i = 0; i <= runs; i++) {
      for (const [name, ws, args] of arms) {
        server.script(Array.from({ length: turns }, () => TURN).flat());
        loads.push(loadavg()[0] ?? NaN);
        const r = await session(ws, server.url, turns, args);
        if (r.code !== 0) fail(`the client (${name}) exited ${r.code}: ${r.stderr.slice(0, 400)}`);
        if (server.pending() !== 0) fail(`the client (${name}) left ${server.pending()} scripted model turns unserved`);
        if (i === 0) continue;
        (first[name] ??= []).push(r.ms[0]!);
        (later[name] ??= []).push(...r.ms.slice(1));
      }
      if (i > 0) process.stdout.write(`  run ${i}/${runs} done (load average ${loadavg()[0]?.toFixed(1)})\n`);
    }
    const report = (label: string, t: Record<string, number[]>): void => {
      const [a, h, m, z] = [median(t["none"]!), median(t["hooks"]!), median(t["mod"]!), median(t["empty mod"]!)];
      const n = t["none"]!.length;
      process.stdout.write(`  ${label} (medians of ${n}): no Errata ${a.toFixed(0)} ms; settings hooks ${h.toFixed(0)} ms (+${(h - a).toFixed(0)} ms); Errata's mod ${m.toFixed(0)} ms (+${(m - a).toFixed(0)} ms); an empty mod on the same events ${z.toFixed(0)} ms (+${(z - a).toFixed(0)} ms)\n`);
      // The same figures paired: each arm's time minus no Errata's in the same run and turn (load drifts between runs).
      const added = (arm: string): number[] => t[arm]!.map((x, k) => x - t["none"]![k]!);
      const q = (xs: number[], p: number): number => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
      const say = (arm: string): string => `${median(added(arm)).toFixed(0)} ms (quartiles ${q(added(arm), 0.25).toFixed(0)} to ${q(added(arm), 0.75).toFixed(0)})`;
      const [ph, pm, pz] = [median(added("hooks")), median(added("mod")), median(added("empty mod"))];
      process.stdout.write(`    paired, added over no Errata in the same run: settings hooks ${say("hooks")}; Errata's mod ${say("mod")}; the empty mod ${say("empty mod")}\n`);
      process.stdout.write(`    what the mod adds over what the hooks add: ${(pm / ph).toFixed(3)} paired, ${((m - a) / (h - a)).toFixed(3)} from the medians (goal: at most 0.1); the mod over the empty mod, over what the hooks add: ${((pm - pz) / ph).toFixed(3)} paired\n`);
      if (t["mod before"] !== undefined) {
        const b = median(t["mod before"]);
        process.stdout.write(`    MOD_BENCH_BEFORE's mod ${b.toFixed(0)} ms (+${(b - a).toFixed(0)} ms); paired ${say("mod before")}: over what the hooks add ${(median(added("mod before")) / ph).toFixed(3)} paired\n`);
      }
    };
    report("first turn, from the client's start (a one-turn claude -p)", first);
    report(`later turns, from the prompt (turns 2-${turns} of each session)`, later);
    const ls = [...loads].sort((x, y) => x - y);
    process.stdout.write(`  load average (1 min) during the runs: ${ls[0]?.toFixed(1)}-${ls.at(-1)?.toFixed(1)}, median ${median(loads).toFixed(1)}, on ${cpus().length} cores\n`);
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export async function run(): Promise<void> {
  await inProcess();
  await inClient();
}
