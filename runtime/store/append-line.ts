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
 * file systems that honour fsync). A full disk or a short write leaves no fragment: the
 * write is cut back and `AppendError` DISK_FULL / SHORT_WRITE says so (runtime/files/append.ts).
 *
 * Example: `appendLine("/tmp/l/errata-2026-11.jsonl", '{"schema":"erratum/1",...}')`
 * -> `{ bytes: 312, repairedTornTail: false }`.
 */
import { AppendError, appendWhole } from "../files/index.js";

export { AppendError, setAppendSeams } from "../files/index.js";

/** Lines longer than this are refused: put large context in an attachment instead. */
export const MAX_LINE_BYTES = 1024 * 1024;

export interface AppendResult {
  bytes: number;
  /** True when the file ended in a torn fragment and the line was started on a fresh line. */
  repairedTornTail: boolean;
}

export function appendLine(file: string, line: string, opts: { fsync?: boolean; mode?: number } = {}): AppendResult {
  if (line.includes("\n") || line.includes("\r")) {
    throw new AppendError("LINE_HAS_NEWLINE", `a ledger line must be one line (expected no newline; found one at ${line.search(/[\r\n]/)})`);
  }
  const buf = Buffer.from(`${line}\n`, "utf8");
  if (buf.length > MAX_LINE_BYTES) {
    throw new AppendError("LINE_TOO_LONG", `line too long (expected at most ${MAX_LINE_BYTES} bytes; found ${buf.length})`);
  }
  const r = appendWhole(file, buf, opts);
  return { bytes: r.bytes, repairedTornTail: r.setApartTornTail };
}
