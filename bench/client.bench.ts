/**
 * Errata's cost inside the real Claude Code client (pinned; test/e2e/client.ts): the wall time
 * of one scripted turn (a prompt, one Bash call, a reply; `claude -p` against the scripted
 * model on loopback) with the README's hooks installed from the packed tarball, against the
 * same turn with no hooks, in the same run, runs alternating so that machine load hits both
 * alike; medians of CLIENT_BENCH_RUNS (5) runs each, after one warm-up run each. Two prompts:
 * an ordinary one (the capture writes nothing) and a correction (one row and its attachment;
 * the Stop hook's reflection sorts it).
 *
 * A third set runs `node -e 0` as each of the four hooks: the floor of any command hook in
 * the client, so Errata's hooks are also put as a ratio to it.
 *
 * Also the client's own timing of each Errata hook, from its debug log (`--debug`: lines
 * "Hooks: <event> [<command>] finished with status 0 (N ms)"; InstructionsLoaded is logged
 * without a time). The client runs its hooks for one event in parallel and a turn waits for
 * them, so these are the delays a person waits for, Node's start included.
 *
 * Run: `npm run build && node dist/bench/run.js client` (needs `node scripts/claude-code.mjs install`).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { clientReady, CLAUDE_CODE_VERSION, installErrata, readmeHooks, runClient, workspace, type Workspace } from "../test/e2e/client.js";
import { startModelServer, type Turn } from "../test/e2e/model-server.js";

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};

const TURN: Turn[] = [{ tool: "Bash", input: { command: "echo ok", description: "Check" } }, { text: "Checked: ok." }];
const PROMPTS = { ordinary: "Check that the build still works.", correction: "No, that's wrong. I told you to check the other build." } as const;

/** "Hooks: Stop [errata hook stop] finished with status 0 (512ms)" -> per command, the times in ms. */
export function hookTimes(debugLog: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const m of debugLog.matchAll(/Hooks: (\S+) \[((?:errata|node -e 0)[^\]]*)\] finished with status \d+ \((\d+)ms\)/g)) {
    const key = `${m[1]} [${m[2]}]`;
    out.set(key, [...(out.get(key) ?? []), Number(m[3])]);
  }
  return out;
}

function debugLogs(ws: Workspace): string {
  const dir = join(ws.home, ".claude", "debug");
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".txt"));
  } catch {
    names = [];
  }
  return names.map((n) => readFileSync(join(dir, n), "utf8")).join("\n");
}

export async function run(): Promise<void> {
  if (!clientReady()) {
    process.stdout.write(`skipping the client bench: Claude Code ${CLAUDE_CODE_VERSION} is not installed (node scripts/claude-code.mjs install) or dist/ is not built\n`);
    return;
  }
  const runs = Number(process.env["CLIENT_BENCH_RUNS"] ?? 5);
  const root = mkdtempSync(join(tmpdir(), "errata-client-bench-"));
  const server = await startModelServer();
  try {
    const bin = await installErrata();
    const claudeMd = "# Project\n\n- Use pnpm, never npm.\n";
    const withHooks = workspace(join(root, "with"), bin, { hooks: readmeHooks(), claudeMd });
    const without = workspace(join(root, "without"), bin, { hooks: {}, claudeMd });
    // The floor of any command hook in the client: `node -e 0` on the same four events.
    const bare = workspace(join(root, "bare"), bin, { hooks: Object.fromEntries(Object.entries(readmeHooks()).map(([event, entries]) => [event, entries.map((e) => ({ ...e, hooks: e.hooks.map(() => ({ type: "command" as const, command: "node -e 0 errata-floor" })) }))])), claudeMd });
    const times: Record<string, number[]> = {};
    for (let i = 0; i <= runs; i++) {
      for (const [kind, prompt] of Object.entries(PROMPTS)) {
        for (const [name, ws] of [["without", without], ["bare", bare], ["with", withHooks]] as const) {
          server.script(TURN);
          const r = await runClient(ws, server.url, prompt, { args: ["--debug"] });
          if (r.code !== 0) throw new Error(`claude -p exited ${r.code}: ${r.stderr.slice(0, 400)}`);
          if (i > 0) (times[`${kind} ${name}`] ??= []).push(r.ms);
        }
      }
    }
    process.stdout.write(`Claude Code ${CLAUDE_CODE_VERSION}, one scripted turn (prompt, one Bash call, reply), medians of ${runs} runs each:\n`);
    for (const kind of Object.keys(PROMPTS)) {
      const a = median(times[`${kind} without`]!);
      const b = median(times[`${kind} with`]!);
      const f = median(times[`${kind} bare`]!);
      process.stdout.write(`  ${kind.padEnd(10)} no hooks ${a.toFixed(0)} ms, Errata's hooks ${b.toFixed(0)} ms: ${(b / a).toFixed(3)}x (+${(b - a).toFixed(0)} ms); \`node -e 0\` hooks ${f.toFixed(0)} ms: Errata's ${(b / f).toFixed(3)}x of them\n`);
    }
    process.stdout.write("the client's own hook timing (its debug log; every run, warm-up included), median and count, against `node -e 0` on the same event:\n");
    const floor = new Map([...hookTimes(debugLogs(bare))].map(([k, ms]) => [k.split(" ")[0], median(ms)]));
    for (const [key, ms] of [...hookTimes(debugLogs(withHooks))].sort()) {
      const f = floor.get(key.split(" ")[0]);
      process.stdout.write(`  ${key}: ${median(ms)} ms (n=${ms.length})${f ? `; node -e 0: ${f} ms, ${(median(ms) / f).toFixed(3)}x` : ""}\n`);
    }
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}
