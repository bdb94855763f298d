import { spawn } from "node:child_process";
import { constants } from "node:os";

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

export function runChild(file: string, args: readonly string[], opts: { cwd: string; env?: Record<string, string | undefined>; input?: string | Buffer; hangMs?: number }): Promise<ChildResult> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    // Its own process group, so a hang kills the shell and everything it started.
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr?.on("data", (b: Buffer) => err.push(b));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      try {
        process.kill(-(child.pid as number), "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
    }, opts.hangMs ?? HANG_MS);
    if (opts.input !== undefined && child.stdin) {
      child.stdin.on("error", () => undefined); // a child that exits before reading all its input
      child.stdin.end(opts.input);
    }
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const stderr = Buffer.concat(err).toString("utf8");
      resolve({
        // Killed by a signal: 128 + its number, as a shell reports it.
        code: hung ? 124 : (code ?? 128 + (signal ? constants.signals[signal] : 0)),
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: hung ? `${stderr}\n[killed: still running after ${opts.hangMs ?? HANG_MS} ms, taken for hung]\n` : stderr,
        hung,
        ms: Date.now() - start,
      });
    });
  });
}
