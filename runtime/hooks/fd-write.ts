/**
 * The hooks' writes to stdout and stderr, shared by the prompt/stop hook (hook-main.ts) and the
 * tool hook (tool-hook.ts). They write with `writeSync` on the descriptor without making
 * `process.stdout`/`process.stderr`: creating those streams costs more than the rest of an
 * ordinary prompt's work, which writes nothing. A descriptor the host left non-blocking
 * (EAGAIN) falls back to the stream; a closed one (EPIPE) is not the hook's fault and is left
 * alone.
 *
 * Example: `writeFd(1, "{}\n")`; then `outputFlushed()` -> true unless a stream took a write.
 */
import { writeSync } from "node:fs";

/** A write went through a stream (see `writeFd`): it may still be pending. */
let streamWrites = false;

export function writeFd(fd: 1 | 2, s: string): void {
  const buf = Buffer.from(s, "utf8");
  let off = 0;
  try {
    while (off < buf.length) off += writeSync(fd, buf, off);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EAGAIN") return;
    streamWrites = true;
    (fd === 1 ? process.stdout : process.stderr).write(buf.subarray(off));
  }
}

/**
 * Whether the process may exit as soon as the hook resolves: everything it wrote is written
 * synchronously, unless a stream took a write. bin/errata.cjs then exits at once instead of
 * letting Node run what it queued for later (a scavenge of the young generation, which an
 * exiting process does not need).
 */
export function outputFlushed(): boolean {
  return !streamWrites;
}
