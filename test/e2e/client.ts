/**
 * The real Claude Code client, pinned (scripts/claude-code.mjs installs it into a cache
 * folder outside the package), and Errata installed as the README says: the packed tarball
 * installed into a prefix, `errata` and `errata-tool-hook` on PATH, the README's hooks block
 * in the project's `.claude/settings.json`. A session is `claude -p` against the scripted
 * model (model-server.ts) with a scratch HOME.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { HANG_MS } from "../helpers/child.js";
import { repoRoot } from "./install.js";

export { installErrata, repoRoot } from "./install.js";

export const CLAUDE_CODE_VERSION = "2.1.328";
/**
 * The suite's tests and setup run real sessions (several seconds each on two cores) and may
 * pack and install Errata first: their only time limit is this guard against a hang, far
 * above any normal run, so a busy machine never fails them.
 */
export const HANG_GUARD_MS = 30 * 60_000;
/** Where scripts/claude-code.mjs installs the client (the same rule, kept equal by test/e2e/install.test.ts). */
export function clientCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env["ERRATA_CLAUDE_CODE_CACHE"] ?? join(env["XDG_CACHE_HOME"] ?? join(homedir(), ".cache"), "errata", "claude-code", CLAUDE_CODE_VERSION);
}
export const clientBinary = (): string => join(clientCacheDir(), "node_modules", ".bin", "claude");
/** True when the pinned client is installed and dist/ is built (the tarball packs dist/). */
export const clientReady = (): boolean => existsSync(clientBinary()) && existsSync(join(repoRoot, "dist", "cli", "main.js"));

/** A recording hook (a shell script: it runs beside every hook): appends `{event, payload}` to $ERRATA_E2E_PAYLOADS, answers nothing. */
export const RECORDER = join(repoRoot, "test", "e2e", "record-hook.sh");

/** A settings hook: a command, or an http hook posting the payload to a URL (a team's server). */
type HookHandler = { type: "command"; command: string } | { type: "http"; url: string; headers?: Record<string, string>; allowedEnvVars?: string[] };
type HookEntry = { matcher?: string; hooks: HookHandler[] };

/** The README's hooks block (errata, errata-tool-hook on PATH), with the recorder beside each hook when asked. */
export function readmeHooks(opts: { record?: boolean; errata?: boolean } = {}): Record<string, HookEntry[]> {
  const errata = opts.errata ?? true;
  const events: Array<[string, string | null, string]> = [
    ["UserPromptSubmit", null, "errata hook user-prompt-submit"],
    ["Stop", null, "errata hook stop"],
    ["PreToolUse", "*", "errata-tool-hook pre-tool-use"],
    ["InstructionsLoaded", null, "errata-tool-hook instructions-loaded"],
  ];
  const extra = opts.record ? ["PostToolUse", "SessionStart", "SessionEnd"] : [];
  const out: Record<string, HookEntry[]> = {};
  for (const [event, matcher, command] of events) {
    const hooks: Array<{ type: "command"; command: string }> = [];
    if (errata) hooks.push({ type: "command", command });
    if (opts.record) hooks.push({ type: "command", command: `sh ${JSON.stringify(RECORDER)} ${event}` });
    if (hooks.length > 0) out[event] = [{ ...(matcher ? { matcher } : {}), hooks }];
  }
  for (const event of extra) out[event] = [{ hooks: [{ type: "command", command: `sh ${JSON.stringify(RECORDER)} ${event}` }] }];
  return out;
}

export interface Workspace {
  /** The scratch HOME (the client's ~/.claude, transcripts under projects/). */
  home: string;
  /** The project folder the client runs in. */
  project: string;
  /** The default ledger under the scratch HOME (no ERRATA_DIR, as the README installs it); ladder/ inside. */
  ledger: string;
  /** The default run state (the Stop hook's last-reply record, attachments). */
  state: string;
  /** Where the recorder writes the hook payloads. */
  payloads: string;
  bin: string;
}

/** A scratch HOME, a project with `.claude/settings.json` holding `hooks`, and a CLAUDE.md when given. */
export function workspace(root: string, bin: string, opts: { hooks: Record<string, HookEntry[]>; claudeMd?: string }): Workspace {
  const home = join(root, "home");
  const project = join(root, "project");
  const ledger = join(home, ".local", "share", "errata");
  const state = join(home, ".local", "state", "errata");
  mkdirSync(join(home, ".claude"), { recursive: true });
  mkdirSync(join(project, ".claude"), { recursive: true });
  mkdirSync(ledger, { recursive: true });
  writeFileSync(join(project, ".claude", "settings.json"), `${JSON.stringify({ hooks: opts.hooks }, null, 2)}\n`);
  if (opts.claudeMd !== undefined) writeFileSync(join(project, "CLAUDE.md"), opts.claudeMd);
  spawnSync("git", ["init", "-q"], { cwd: project });
  return { home, project, ledger, state, payloads: join(root, "payloads.jsonl"), bin };
}

export interface ClientRun {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** The client's environment: the scratch HOME, the scripted model, no update or other traffic. */
function clientEnv(ws: Workspace, serverUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: `${ws.bin}:${process.env["PATH"] ?? ""}`,
    HOME: ws.home,
    ANTHROPIC_BASE_URL: serverUrl,
    ANTHROPIC_API_KEY: "sk-ant-e2e-scripted",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ERRATA_E2E_PAYLOADS: ws.payloads,
    ...extra,
  };
}

/** One `claude -p` turn (with `-c`, continuing the last session in the project). */
export function runClient(ws: Workspace, serverUrl: string, prompt: string, opts: { continue?: boolean; args?: string[]; env?: Record<string, string> } = {}): Promise<ClientRun> {
  const args = ["-p", prompt, "--allowedTools", "Bash", ...(opts.continue ? ["-c"] : []), ...(opts.args ?? [])];
  const env = clientEnv(ws, serverUrl, opts.env);
  const t0 = performance.now();
  // stdin closed: in print mode the client otherwise waits 3 s for piped input.
  return new Promise((done, fail) => {
    const child = spawn(clientBinary(), args, { cwd: ws.project, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr, ms: performance.now() - t0 }));
  });
}

/** What the client reports at the end of one turn of a streamed session (`type: "result"`). */
export interface TurnResult {
  subtype: string;
  is_error: boolean;
  /** The reply's text, as `claude -p` would print it. */
  result: string;
  session_id: string;
}

export interface ClientSession {
  /** Types one prompt and waits until the client reports the turn done and its hooks have ended. */
  turn(prompt: string): Promise<TurnResult>;
  /** Waits for the hooks still running (`hooksEnded`), then closes the client's input; the process ends. */
  end(): Promise<ClientRun>;
}

/**
 * One `claude -p` process taking several prompts, one turn each, as the Agent SDK drives it
 * (`--input-format stream-json --output-format stream-json`): the same session, hooks and
 * transcript as a `claude -p` run followed by `-c` runs, at one start of the client instead of
 * one per prompt (a start is most of a short turn's CPU). The prompts are written as typed
 * (`promptSource: "sdk"`, `entrypoint: "sdk-cli"`, the same as a `-p` prompt).
 */
export function clientSession(ws: Workspace, serverUrl: string, opts: { args?: string[]; env?: Record<string, string> } = {}): ClientSession {
  const args = ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash", ...(opts.args ?? [])];
  const t0 = performance.now();
  const child = spawn(clientBinary(), args, { cwd: ws.project, env: clientEnv(ws, serverUrl, opts.env), stdio: ["pipe", "pipe", "pipe"] });
  const mcp = mcpServerCommands(args);
  let stdout = "";
  let stderr = "";
  let pending = "";
  let waiting: { done: (r: TurnResult) => void; fail: (e: Error) => void } | null = null;
  const closed = new Promise<ClientRun>((done, fail) => {
    child.on("error", fail);
    child.on("close", (code) => {
      waiting?.fail(new Error(`the client ended (exit ${String(code)}) before the turn's result: ${stderr.slice(-600)}`));
      waiting = null;
      done({ code, stdout, stderr, ms: performance.now() - t0 });
    });
  });
  child.stdout.setEncoding("utf8").on("data", (d: string) => {
    stdout += d;
    pending += d;
    for (let i = pending.indexOf("\n"); i >= 0; i = pending.indexOf("\n")) {
      const line = pending.slice(0, i);
      pending = pending.slice(i + 1);
      if (line.trim() === "") continue;
      const msg = JSON.parse(line) as Record<string, unknown>;
      if (msg["type"] === "result" && waiting) {
        const w = waiting;
        waiting = null;
        w.done({ subtype: String(msg["subtype"]), is_error: msg["is_error"] === true, result: String(msg["result"] ?? ""), session_id: String(msg["session_id"]) });
      }
    }
  });
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  return {
    async turn(prompt) {
      if (waiting) throw new Error("one turn at a time");
      const r = await new Promise<TurnResult>((done, fail) => {
        waiting = { done, fail };
        child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: prompt } })}\n`);
      });
      // The result can come before the turn's Stop hook has ended (seen on a loaded machine: the
      // reflection's sorted.jsonl line missing, from the settings hooks' arm in one run and the
      // both-installed arm in the next), and the next prompt then ends it. A person types the
      // next prompt seconds later; here the next turn waits for the hooks of this one.
      if (child.pid !== undefined && child.exitCode === null) await hooksEnded(child.pid, mcp);
      return r;
    },
    async end() {
      if (child.pid !== undefined && child.exitCode === null) await hooksEnded(child.pid, mcp);
      child.stdin.end();
      return closed;
    },
  };
}

/** The command lines of the MCP servers a `--mcp-config` among `args` gives the client (each its child for the whole session). */
function mcpServerCommands(args: readonly string[]): string[] {
  const i = args.indexOf("--mcp-config");
  if (i < 0 || args[i + 1] === undefined) return [];
  const config = JSON.parse(readFileSync(args[i + 1]!, "utf8")) as { mcpServers?: Record<string, { command: string; args?: string[] }> };
  return Object.values(config.mcpServers ?? {}).map((m) => [m.command, ...(m.args ?? [])].join("\0"));
}

/**
 * The client's child processes still running, but the MCP servers it holds for the whole
 * session (`commands`, as mcpServerCommands gives them): its hooks, a tool's shell, the mod's
 * children. A zombie only waits to be reaped. Read from /proc; null where there is none.
 */
function runningChildren(pid: number, mcp: readonly string[]): number[] | null {
  if (!existsSync("/proc/self/stat")) return null;
  const out: number[] = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
      const stat = readFileSync(join("/proc", p, "stat"), "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(ppid) !== pid || state === "Z") continue;
      if (!mcp.includes(readFileSync(join("/proc", p, "cmdline"), "utf8").replace(/\0$/, ""))) out.push(Number(p));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/**
 * Waits until the client runs no hook (nor anything else but its MCP servers): the hooks it
 * started for the turns so far have ended. The client reports a turn's result without waiting
 * for an InstructionsLoaded command hook, and a session that ends while one runs ends it too
 * (docs/e2e.md): a scripted session that ended one reply after a file loaded lost that load on
 * a loaded machine. Waiting for the hook's own end, not for a time, keeps a busy machine from
 * failing a test; the client's own limit on a hook's run bounds the wait, and HANG_MS
 * (test/helpers/child.ts) is the guard against a hang.
 */
async function hooksEnded(pid: number, mcp: readonly string[]): Promise<void> {
  const t0 = Date.now();
  for (let left = runningChildren(pid, mcp); left !== null && left.length > 0; left = runningChildren(pid, mcp)) {
    if (Date.now() - t0 > HANG_MS) throw new Error(`the client's children (processes ${left.join(", ")}) still run after ${HANG_MS} ms: taken for hung`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One broken session as the climb and journey files stage it: the owner asks a question, the
 * scripted model answers (the server's script, set by the caller), the owner corrects it, in
 * one client process; both turns succeed in one session and the server has no turn left.
 * Returns the session id the hooks recorded.
 */
export async function askThenCorrect(ws: Workspace, server: { url: string; pending(): number }, question: string, correction: string): Promise<string> {
  const session = clientSession(ws, server.url);
  const first = await session.turn(question);
  expect(first).toMatchObject({ subtype: "success", is_error: false });
  const r = await session.turn(correction);
  expect(r).toMatchObject({ subtype: "success", is_error: false, session_id: first.session_id });
  const ended = await session.end();
  expect(ended.code, ended.stderr).toBe(0);
  expect(server.pending()).toBe(0);
  return String(readPayloads(ws).at(-1)!.payload["session_id"]);
}

/**
 * Waits until no process has its working folder in `dir` (the client gone, what it left behind
 * too): the Errata mod's children (a tool-event line, an instruction load, the Stop hand-off)
 * run in the background, in the session's folder, and may outlive the turn and the client. Read
 * from /proc; where there is none, waits a fixed 1.5 s, as the suite did before. On Linux the
 * wait ends when the last child does: in the mod file's three arms (2026-12-07) none was left
 * when the client had ended, so the three fixed waits (4.5 s of wall) had waited for nothing.
 */
export async function processesSettled(dir: string): Promise<void> {
  if (!existsSync("/proc/self/cwd")) {
    await new Promise((r) => setTimeout(r, 1500));
    return;
  }
  const real = realpathSync(dir);
  const inside = (pid: string): boolean => {
    try {
      const cwd = readlinkSync(join("/proc", pid, "cwd"));
      return cwd === real || cwd.startsWith(`${real}/`);
    } catch {
      return false; // gone meanwhile, or not ours to read
    }
  };
  const self = String(process.pid);
  while (readdirSync("/proc").some((p) => /^\d+$/.test(p) && p !== self && inside(p))) await new Promise((r) => setTimeout(r, 50));
}

export interface RecordedPayload {
  event: string;
  payload: Record<string, unknown>;
}

/** The hook payloads the recorder kept, in order. */
export function readPayloads(ws: Workspace): RecordedPayload[] {
  if (!existsSync(ws.payloads)) return [];
  return readFileSync(ws.payloads, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as RecordedPayload);
}

/** Every transcript the client wrote under the scratch HOME. */
export function transcripts(ws: Workspace): string[] {
  const root = join(ws.home, ".claude", "projects");
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".jsonl"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The ledger's rows (every month file). */
export function ledgerRows(ws: Workspace): Array<Record<string, unknown>> {
  if (!existsSync(ws.ledger)) return [];
  return readdirSync(ws.ledger)
    .filter((f) => /^errata-\d{4}-\d{2}\.jsonl$/.test(f))
    .flatMap((f) => readFileSync(join(ws.ledger, f), "utf8").split("\n").filter((l) => l !== ""))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** `errata ...` from the installed tarball, in the project, with the scratch HOME, as the owner would type it. */
export function errataCli(ws: Workspace, args: string[]): { code: number | null; out: string; err: string } {
  const r = spawnSync(join(ws.bin, "errata"), args, { cwd: ws.project, env: { PATH: `${ws.bin}:${process.env["PATH"] ?? ""}`, HOME: ws.home }, encoding: "utf8" });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** `errata ... --json`, which must exit 0; its one JSON value. */
export function errataJson<T = Record<string, unknown>>(ws: Workspace, args: string[]): T {
  const r = errataCli(ws, [...args, "--json"]);
  if (r.code !== 0) throw new Error(`errata ${args.join(" ")} exited ${String(r.code)}: ${r.err}`);
  return JSON.parse(r.out) as T;
}
