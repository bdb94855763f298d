import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Io } from "../../cli/shared/io.js";

/** An in-memory Io for running the CLI in process. */
export function memoryIo(opts: { env?: Record<string, string | undefined>; stdin?: string; now?: number; cwd?: string } = {}) {
  let out = "";
  let err = "";
  const io: Io = {
    stdout: { write: (s: string | Uint8Array) => ((out += String(s)), true) },
    stderr: { write: (s: string | Uint8Array) => ((err += String(s)), true) },
    env: opts.env ?? {},
    cwd: opts.cwd ?? process.cwd(),
    now: () => opts.now ?? Date.parse("2026-11-30T12:00:00Z"),
    readStdin: async () => opts.stdin ?? "",
    isTTY: false,
  };
  return { io, out: () => out, err: () => err };
}

/** A fresh temporary folder; call the returned cleanup in afterEach. */
export function tempDir(prefix = "errata-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
