/**
 * The one append: bytes that end in a newline, in one `write(2)` on a file opened with
 * O_APPEND, after setting apart a torn tail; what the ledger (runtime/store/append-line.ts)
 * and every JSONL appender (jsonl.ts) write through. zod-free and import-free beyond node:
 * the capture hook bundles it.
 *
 * On a full disk or a short write the bytes this append left are cut off again (the file is
 * back to its size before the append), and the error says so: `DISK_FULL` or `SHORT_WRITE`
 * (kind io). A failed fsync also cuts the line back: the caller is told it was not kept.
 *
 * Example: `appendWhole("/tmp/v4/answers.jsonl", Buffer.from('{"a":1}\\n'))` -> `{bytes: 8,
 * setApartTornTail: false}`; on a full tmpfs it throws `disk full: line not written to
 * /tmp/v4/answers.jsonl (expected room for 8 bytes; found ENOSPC); nothing was left in the file`.
 */
import { closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readSync, statfsSync, writeSync, constants } from "node:fs";
import { dirname } from "node:path";
import { CodedError } from "../../core/errors.js";

/**
 * A line refused (kind `input`), or not written (kind `io`): `DISK_FULL` (ENOSPC or a
 * quota), `SHORT_WRITE` (the device took part of it). Either way the file was cut back to
 * its size before the append when that was safe (`cutBack`), so no fragment is left.
 */
export class AppendError extends CodedError {
  declare readonly code: "LINE_HAS_NEWLINE" | "LINE_TOO_LONG" | "SHORT_WRITE" | "DISK_FULL";
  constructor(code: AppendError["code"], message: string) {
    super(code === "SHORT_WRITE" || code === "DISK_FULL" ? "io" : "input", code, message);
    this.name = "AppendError";
  }
}

/** The seams a test uses to make the device fail (a short write, ENOSPC); the real calls by default. */
export interface AppendSeams {
  write: (fd: number, buf: Buffer) => number;
  fsync: (fd: number) => void;
}
const realSeams: AppendSeams = { write: (fd, buf) => writeSync(fd, buf, 0, buf.length), fsync: (fd) => fsyncSync(fd) };
let seams: AppendSeams = realSeams;
/** For tests: replace the write or fsync call (null restores the real ones). */
export function setAppendSeams(s: Partial<AppendSeams> | null): void {
  seams = s === null ? realSeams : { ...realSeams, ...s };
}

const NEWLINE = 0x0a;
/** How many 1 ms looks a last byte that is not a newline gets before it counts as torn (see `settledLastByte`). */
const SETTLE_LOOKS = 5;
const EMPTY = Buffer.alloc(0);
const pause = new Int32Array(new SharedArrayBuffer(4));

export interface WholeAppend {
  bytes: number;
  /** The file ended in a torn fragment, and the write started on a fresh line. */
  setApartTornTail: boolean;
}

/** Appends `body` (whole lines, ending in a newline) in one write; see the module comment. */
export function appendWhole(file: string, body: Buffer, opts: { fsync?: boolean; mode?: number } = {}): WholeAppend {
  mkdirSync(dirname(file), { recursive: true });
  const fd = openSync(file, constants.O_RDWR | constants.O_APPEND | constants.O_CREAT, opts.mode ?? 0o644);
  try {
    let buf = body;
    let setApartTornTail = false;
    if (settledLastByte(fd) !== NEWLINE) {
      buf = Buffer.concat([Buffer.from("\n"), buf]);
      setApartTornTail = true;
    }
    let written: number;
    try {
      written = seams.write(fd, buf);
    } catch (err) {
      // A write that fails outright wrote nothing.
      throw deviceError(file, buf.length, 0, err, null);
    }
    if (written !== buf.length) throw deviceError(file, buf.length, written, null, cutBack(fd, buf, written));
    if (opts.fsync) {
      try {
        seams.fsync(fd);
      } catch (err) {
        throw deviceError(file, buf.length, written, err, cutBack(fd, buf, written));
      }
    }
    return { bytes: written, setApartTornTail };
  } finally {
    closeSync(fd);
  }
}

/**
 * The file's last byte, or a newline for an empty file. A last byte that is not a newline is
 * either a torn fragment (a crash, a full disk) or another appender's line still being
 * copied in: Linux lets a reader see an O_APPEND write part-way. Setting that apart would
 * leave a blank line once the other write completes, so it is looked at again for a few
 * milliseconds; only a tail that stays unterminated is torn. The wait costs an append only
 * when the file does not end in a newline, which an ordinary append never leaves.
 */
function settledLastByte(fd: number): number {
  let last = lastByte(fd);
  if (last === NEWLINE) return last;
  // An empty write waits for the inode lock, which a write in progress holds (ext4, tmpfs,
  // xfs), so after it another appender's line is whole.
  writeSync(fd, EMPTY, 0, 0);
  last = lastByte(fd);
  for (let i = 0; i < SETTLE_LOOKS && last !== NEWLINE; i++) {
    Atomics.wait(pause, 0, 0, 1);
    last = lastByte(fd);
  }
  return last;
}

function lastByte(fd: number): number {
  const size = fstatSync(fd).size;
  if (size === 0) return NEWLINE;
  const one = Buffer.alloc(1);
  return readSync(fd, one, 0, 1, size - 1) === 1 ? (one[0] ?? NEWLINE) : NEWLINE;
}

/**
 * Cuts off the `written` bytes this append left, when they are still the file's last bytes
 * (under O_APPEND another writer may have appended after them; then they stay, a fragment
 * the next append sets apart and readers skip). Returns whether the file was cut back.
 */
function cutBack(fd: number, buf: Buffer, written: number): boolean {
  if (written <= 0) return true;
  try {
    const size = fstatSync(fd).size;
    const start = size - written;
    if (start < 0) return false;
    const tail = Buffer.alloc(written);
    if (readSync(fd, tail, 0, written, start) !== written || !tail.equals(buf.subarray(0, written))) return false;
    ftruncateSync(fd, start);
    return true;
  } catch {
    return false;
  }
}

function freeBytes(file: string): number {
  try {
    const st = statfsSync(dirname(file));
    return st.bavail * st.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

function deviceError(file: string, want: number, written: number, err: unknown, cut: boolean | null): AppendError | unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  // A short write with no error is a full device when the device has no room left for the line.
  const full = code === "ENOSPC" || code === "EDQUOT" || (err === null && freeBytes(file) < want);
  if (err !== null && !full && written === 0) return err; // not a device-space fault (EISDIR, EACCES, ...): as it came
  const left = cut === false ? `; a fragment of ${written} bytes could not be cut back and is left for readers to skip` : "; nothing was left in the file";
  if (full) return new AppendError("DISK_FULL", `disk full: line not written to ${file} (expected room for ${want} bytes; found ${code ?? `room for ${written}`})${left}`);
  return new AppendError("SHORT_WRITE", `short write to ${file} (expected ${want} bytes; found ${written}${code ? `, then ${code}` : ""})${left}`);
}
