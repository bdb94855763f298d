import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * Runs a child process to its end: its exit code and what it printed. The tests set no time
 * limit of their own (vitest.config.ts: a loaded machine is slow, not wrong), so a child is
 * the one place a hang is bounded: one that has not ended after `hangMs` is taken for hung,
 * its whole process group is killed, and the result says so (`hung: true`, code 124 as
 * timeout(1) gives) with what it printed until then, for the test to fail on. The default
 * bound is a hang detector, not a speed target: far beyond what any child the tests start
 * needs on the busiest machine.
 *
 * Example: `await runChild("/bin/sh", ["-c", "echo hi; exit 3"], { cwd: "/tmp" })`
 * -> `{code: 3, stdout: "hi\n", stderr: "", hung: false, ms: 4}`.
 */
export interface ChildResult {
  code: number;
  stdout: string;
  stderr: string;
  /** True when the child was killed at `hangMs`. */
  hung: boolean;
  ms: number;
}

export const HANG_MS = 15 * 60_000;

/**
 * The spawner (test/helpers/spawner.cjs): one small Node process per test process, forked on
 * the first call, that starts every child and sends back how it ended. A fork costs in
 * proportion to the forking process's memory, and a test worker with the CLI loaded is large,
 * so the children are started from the small one (docs/testing.md, "Suite time"). It holds
 * the test process open only while a child runs.
 */
interface SpawnerReply {
  id: number;
  error?: { message: string; code?: string };
  code: number;
  stdout: Buffer | Uint8Array;
  stderr: Buffer | Uint8Array;
  hung: boolean;
  ms: number;
}
let spawner: ChildProcess | null = null;
const waiting = new Map<number, (r: SpawnerReply) => void>();
let nextId = 0;

function spawnerProcess(): ChildProcess {
  if (spawner !== null) return spawner;
  const p = fork(fileURLToPath(new URL("./spawner.cjs", import.meta.url)), [], { serialization: "advanced", stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: [], cwd: fileURLToPath(new URL(".", import.meta.url)) });
  p.on("message", (r: SpawnerReply) => {
    const done = waiting.get(r.id);
    waiting.delete(r.id);
    if (waiting.size === 0) idle(p);
    done?.(r);
  });
  p.on("exit", (code, signal) => {
    spawner = null;
    const lost = [...waiting.values()];
    waiting.clear();
    for (const done of lost) done({ id: -1, error: { message: `the spawner (test/helpers/spawner.cjs) ended (${signal ?? code}) with a child running` }, code: 0, stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), hung: false, ms: 0 });
  });
  spawner = p;
  return p;
}

function idle(p: ChildProcess): void {
  p.unref();
  (p.channel as unknown as { unref?: () => void } | undefined)?.unref?.();
}

export function runChild(file: string, args: readonly string[], opts: { cwd: string; env?: Record<string, string | undefined>; input?: string | Buffer; hangMs?: number }): Promise<ChildResult> {
  const hangMs = opts.hangMs ?? HANG_MS;
  return new Promise((resolve, reject) => {
    const p = spawnerProcess();
    const id = nextId++;
    waiting.set(id, (r) => {
      if (r.error !== undefined) {
        reject(Object.assign(new Error(r.error.message), { code: r.error.code }));
        return;
      }
      const stderr = Buffer.from(r.stderr).toString("utf8");
      resolve({
        code: r.code,
        stdout: Buffer.from(r.stdout).toString("utf8"),
        stderr: r.hung ? `${stderr}\n[killed: still running after ${hangMs} ms, taken for hung]\n` : stderr,
        hung: r.hung,
        ms: r.ms,
      });
    });
    p.ref();
    (p.channel as unknown as { ref?: () => void } | undefined)?.ref?.();
    const env = Object.fromEntries(Object.entries(opts.env ?? process.env).filter((kv): kv is [string, string] => kv[1] !== undefined));
    p.send({ id, file, args: [...args], cwd: opts.cwd, env, input: opts.input, hangMs });
  });
}
