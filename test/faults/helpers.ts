import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** These tests run the compiled CLI (`npm test` builds dist/ first), as a user or cron runs it. */
export const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const bin = join(repoRoot, "bin", "errata.cjs");
export const spotter = join(repoRoot, "datasets", "claude-code", "spotter");

export interface Ran {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs `errata <args>` as a child process; resolves when it exits. */
export function runErrata(args: string[], opts: { env?: Record<string, string>; input?: string; cwd?: string; killAfterMs?: number } = {}): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [bin, ...args], {
      cwd: opts.cwd ?? repoRoot,
      env: { PATH: process.env["PATH"] ?? "", ...opts.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", fail);
    if (opts.killAfterMs !== undefined) setTimeout(() => child.kill("SIGKILL"), opts.killAfterMs);
    child.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
  });
}
