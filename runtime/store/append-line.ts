/**
 * One append = one `write(2)` of one whole line on a file opened with O_APPEND. zod-free:
 * the capture hook imports it (zod alone doubles Node's start time).
 *
 * Why this is enough: on a local POSIX file system the kernel positions and performs an
 * O_APPEND write under the inode lock, so concurrent appenders never interleave bytes
 * within a line, and a process killed after `write` returned has its line in the page
 * cache (intact after the process dies). A write torn by power loss or a full disk leaves a
 * fragment without a newline; the next append notices (the file's last byte is not "\n")
 * and starts on a fresh line, so the fragment stays one malformed line and the new line is
 * intact. `fsync: true` also flushes to the device before returning (survives power loss on
 * file systems that honour fsync).
 *
 * Example: `appendLine("/tmp/l/errata-2026-11.jsonl", '{"schema":"erratum/1",...}')`
 * -> `{ bytes: 312, repairedTornTail: false }`.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readSync, writeSync, constants } from "node:fs";
import { dirname } from "node:path";
import { CodedError } from "../../core/errors.js";

/** Lines longer than this are refused: put large context in an attachment instead. */
export const MAX_LINE_BYTES = 1024 * 1024;

export interface AppendResult {
  bytes: number;
  /** True when the file ended in a torn fragment and the line was started on a fresh line. */
  repairedTornTail: boolean;
}

/** A line refused (kind `input`) or not written whole (`SHORT_WRITE`, kind `io`). */
export class AppendError extends CodedError {
  declare readonly code: "LINE_HAS_NEWLINE" | "LINE_TOO_LONG" | "SHORT_WRITE";
  constructor(code: AppendError["code"], message: string) {
    super(code === "SHORT_WRITE" ? "io" : "input", code, message);
    this.name = "AppendError";
  }
}

export function appendLine(file: string, line: string, opts: { fsync?: boolean; mode?: number } = {}): AppendResult {
  if (line.includes("\n") || line.includes("\r")) {
    throw new AppendError("LINE_HAS_NEWLINE", `a ledger line must be one line (expected no newline; found one at ${line.search(/[\r\n]/)})`);
  }
  let buf = Buffer.from(`${line}\n`, "utf8");
  if (buf.length > MAX_LINE_BYTES) {
    throw new AppendError("LINE_TOO_LONG", `line too long (expected at most ${MAX_LINE_BYTES} bytes; found ${buf.length})`);
  }
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, opts.mode ?? 0o644);
  try {
    let repairedTornTail = false;
    const size = fstatSync(fd).size;
    if (size > 0 && lastByte(file, size) !== 0x0a) {
      buf = Buffer.concat([Buffer.from("\n"), buf]);
      repairedTornTail = true;
    }
    const written = writeSync(fd, buf, 0, buf.length);
    if (written !== buf.length) {
      throw new AppendError("SHORT_WRITE", `short write to ${file} (expected ${buf.length} bytes; found ${written})`);
    }
    if (opts.fsync) fsyncSync(fd);
    return { bytes: written, repairedTornTail };
  } finally {
    closeSync(fd);
  }
}

function lastByte(file: string, size: number): number {
  const rfd = openSync(file, "r");
  try {
    const one = Buffer.alloc(1);
    readSync(rfd, one, 0, 1, size - 1);
    return one[0] ?? 0x0a;
  } finally {
    closeSync(rfd);
  }
}
