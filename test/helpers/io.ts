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

/** Every folder `tempDir` made in this test file, for `removeTempDirs` (test/helpers/cleanup.ts runs it after each file). */
const made = new Set<string>();

/** A fresh temporary folder; call the returned cleanup in afterEach (any left over is removed when the file ends). */
export function tempDir(prefix = "errata-test-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.add(dir);
  return {
    dir,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      made.delete(dir);
    },
  };
}

/** Removes every folder `tempDir` made and nobody cleaned up; returns how many there were. */
export function removeTempDirs(): number {
  const n = made.size;
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
  made.clear();
  return n;
}
