import { watch, type FSWatcher } from "node:fs";
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Io } from "../../cli/shared/io.js";

/**
 * An `errata` on PATH that runs in this process: a small shell script that hands its
 * arguments, working folder, environment and stdin to the test process, which runs them
 * through `run(argv, io)` (cli/main.ts) and hands back stdout, stderr and the exit code. An
 * example is still pasted into a real shell (its pipes, redirections, `$(...)` and `&&` are
 * the shell's), but no `errata` in it starts Node: the CLI's modules are loaded once.
 *
 * A call is a folder in the queue: the script writes `cwd`, `argv` (NUL-separated), `env`
 * (`env -0`), `stdin` and a FIFO `done`, then renames the folder into view; the test process
 * writes `out` and `err`, then the exit code into `done`, which the script is blocked reading
 * (with the shell's own `read`: every process the script starts is paid once per call, 470
 * calls a walk). Served calls stay in the queue until `close` removes it, so the script does
 * not start an `rm` either.
 *
 * Calls run one at a time, each hermetic: `io` carries the call's env and cwd, and around the
 * run the process's own working folder and environment (which `os.tmpdir()`, `os.homedir()`
 * and any `process.cwd()` read) are set to the call's and restored after; the process's exit
 * code must be left as it was. Anything a run leaves changed is recorded in `leaks`.
 *
 * Example: `const s = await inProcessErrata(run); await sh("errata list", dir, {PATH: s.dir + ":/bin"}); await s.close();`
 */
export interface InProcessErrata {
  /** The folder holding `errata`: put it first on PATH. */
  dir: string;
  /** Calls served so far. */
  calls: () => number;
  /** Each call's arguments and how long its run took, in the order served. */
  timings: { argv: string[]; ms: number }[];
  /** What a run left changed in the process (environment, working folder, exit code), one line each. */
  leaks: string[];
  close: () => Promise<void>;
}

type RunCli = (argv: string[], io: Io) => Promise<number>;

/** The shim: POSIX sh, mktemp, mkfifo and `env -0` (GNU or BSD env). */
function script(queue: string): string {
  return `#!/bin/sh
# errata, run in the test process that made this file (test/cli/in-process.ts).
q='${queue}'
r=$(mktemp -d "$q/.call.XXXXXX") || exit 125
pwd -P > "$r/cwd" && printf '%s\\0' "$@" > "$r/argv" && env -0 > "$r/env" && cat > "$r/stdin" && mkfifo "$r/done" || exit 125
c="$q/call.\${r##*/.call.}"
mv "$r" "$c" || exit 125
read -r code < "$c/done"
cat "$c/out"
cat "$c/err" >&2
exit "\${code:-125}"
`;
}

export async function inProcessErrata(runCli: RunCli): Promise<InProcessErrata> {
  const dir = await mkdtemp(join(tmpdir(), "errata-inproc-"));
  const queue = join(dir, "queue");
  await mkdir(queue);
  await writeFile(join(dir, "errata"), script(queue), { mode: 0o755 });
  const seen = new Set<string>();
  const leaks: string[] = [];
  let served = 0;
  const timings: { argv: string[]; ms: number }[] = [];
  let chain: Promise<void> = Promise.resolve();
  let closed = false;

  const serve = async (call: string): Promise<void> => {
    const [cwd, argv, env, stdin] = await Promise.all(["cwd", "argv", "env", "stdin"].map((f) => readFile(join(call, f))));
    const args = (argv as Buffer).toString("utf8").split("\0").slice(0, -1);
    const callEnv: Record<string, string> = {};
    for (const kv of (env as Buffer).toString("utf8").split("\0")) {
      const eq = kv.indexOf("=");
      if (eq > 0) callEnv[kv.slice(0, eq)] = kv.slice(eq + 1);
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const sink = (to: Buffer[]) => ({ write: (s: string | Uint8Array) => (to.push(typeof s === "string" ? Buffer.from(s) : Buffer.from(s)), true) });
    const io: Io = {
      stdout: sink(out),
      stderr: sink(err),
      env: callEnv,
      cwd: (cwd as Buffer).toString("utf8").replace(/\n$/, ""),
      now: () => Date.now(),
      readStdin: async () => (stdin as Buffer).toString("utf8"),
      isTTY: false,
    };
    let code: number;
    const start = Date.now();
    const restore = enter(io);
    try {
      code = await runCli(args, io);
    } catch (e) {
      // run() never throws; if it does, the call fails loudly rather than the test process.
      err.push(Buffer.from(`in-process errata: run threw: ${e instanceof Error ? e.stack : String(e)}\n`));
      code = 70;
    } finally {
      const left = restore();
      if (left.length > 0) leaks.push(`errata ${args.join(" ")}: ${left.join("; ")}`);
    }
    served++;
    timings.push({ argv: args, ms: Date.now() - start });
    await writeFile(join(call, "out"), Buffer.concat(out));
    await writeFile(join(call, "err"), Buffer.concat(err));
    await writeFile(join(call, "done"), `${code}\n`);
  };

  const scan = async (): Promise<void> => {
    if (closed) return;
    for (const f of (await readdir(queue)).sort()) {
      if (!f.startsWith("call.") || seen.has(f)) continue;
      seen.add(f);
      chain = chain.then(() => serve(join(queue, f))).catch((e) => void leaks.push(`in-process errata: serving ${f} failed: ${String(e)}`));
    }
  };
  const watcher: FSWatcher = watch(queue, () => void scan());
  // A safety net for a missed notification: a call never waits on it for long.
  const poll = setInterval(() => void scan(), 250);
  await scan();

  return {
    dir,
    calls: () => served,
    timings,
    leaks,
    close: async () => {
      closed = true;
      watcher.close();
      clearInterval(poll);
      await chain;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * One call of the CLI in this process with the process's working folder and environment set to
 * the call's for its length (as the shim's calls are served), one call at a time: a call made
 * while another runs waits for it. What the run left changed is in `leaks` (restored anyway).
 * For tests that would otherwise start `node bin/errata.cjs` for each of many cheap commands
 * (a process start is about 1.9 CPU-s; the compiled CLI loads once in process for about 2.2).
 *
 * Example: `const r = await callInProcess(run, ["rules", "approvals", "--json"], io)` -> `{code: 0, leaks: []}`.
 */
let calling: Promise<unknown> = Promise.resolve();
export function callInProcess(runCli: RunCli, argv: string[], io: Io): Promise<{ code: number; leaks: string[] }> {
  const call = calling.then(async () => {
    const restore = enter(io);
    let code: number;
    try {
      code = await runCli(argv, io);
    } catch (e) {
      restore();
      throw e;
    }
    return { code, leaks: restore() };
  });
  calling = call.catch(() => undefined);
  return call;
}

/**
 * Sets the process's working folder and environment to the call's; returns the restore,
 * which puts them back and says what the run left changed (an exit code set, a folder
 * changed, a variable set), so one run cannot leak into the next.
 */
function enter(io: Io): () => string[] {
  const cwd = process.cwd();
  const env = { ...process.env };
  const exitCode = process.exitCode;
  process.chdir(io.cwd);
  replaceEnv(io.env);
  const during = { ...process.env };
  return () => {
    const left: string[] = [];
    if (process.exitCode !== exitCode) left.push(`process.exitCode set to ${String(process.exitCode)}`);
    process.exitCode = exitCode;
    if (process.cwd() !== io.cwd) left.push(`working folder changed to ${process.cwd()}`);
    const changedVars = [...new Set([...Object.keys(during), ...Object.keys(process.env)])].filter((k) => during[k] !== process.env[k]);
    if (changedVars.length > 0) left.push(`environment changed: ${changedVars.sort().join(", ")}`);
    process.chdir(cwd);
    replaceEnv(env);
    return left;
  };
}

/** Replaces process.env's contents key by key (assigning process.env itself would not reach the C environment that os.homedir() reads). */
function replaceEnv(to: Record<string, string | undefined>): void {
  for (const k of Object.keys(process.env)) if (!(k in to)) delete process.env[k];
  for (const [k, v] of Object.entries(to)) if (v !== undefined) process.env[k] = v;
}
