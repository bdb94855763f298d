/**
 * Rotation: gzip whole months older than `before` into `archive/errata-YYYY-MM.jsonl.gz`,
 * verify the archive decompresses to exactly the bytes it must hold, and only then remove
 * the live file. Archived months are read as if they were live (read-files.ts).
 *
 * Steps for one month (live file L, existing archive A, possibly empty):
 *  1. rest = L minus any head already at the end of A (an earlier interrupted rotation);
 *     nothing new -> go to 5.
 *  2. write gzip(A + rest) to `archive/.errata-M.jsonl.gz.<pid>.tmp`, fsync.
 *  3. read the temp file back from disk, gunzip, compare byte for byte with A + rest;
 *     any difference -> delete the temp file, keep L, report an error.
 *  4. rename the temp file over the archive (atomic), fsync the folder.
 *  5. if L has not grown since it was read, unlink it and fsync the folder; if it grew (an
 *     append raced the rotation), keep it: the reader counts the overlap once, and a re-run
 *     finishes the month.
 *
 * A crash between any two steps loses nothing: before 4 the live file is untouched; after 4
 * the archive holds every byte of L, and the reader skips L's overlap until step 5 runs on a
 * re-run. Stale temp files from a crash are removed by the next run.
 *
 * Example: `rotateLedger("/tmp/l", { before: "2026-10", currentMonth: "2026-11" })`
 * -> `{ months: [{ month: "2026-09", action: "archived", bytes: 48213, lines: 131 }] }`
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { ErrataError, badInput } from "../../core/errors.js";
import { MONTH_PATTERN, archiveFileName } from "./ids.js";
import { ARCHIVE_DIR, listMonths, overlapBytes } from "./read-files.js";

export type RotateStep = "read" | "temp-written" | "verified" | "renamed" | "unlinked";

export interface RotateOptions {
  /** Rotate months strictly before this YYYY-MM. */
  before: string;
  /** The month now (YYYY-MM): `before` may not be later, so the month being written stays live. */
  currentMonth: string;
  dryRun?: boolean;
  /** Called after each step (tests use it to crash at every point). */
  onStep?: (step: RotateStep, month: string) => void;
}

export interface RotatedMonth {
  month: string;
  /** archived: new archive; merged: late lines added to an archive; finished: an interrupted rotation completed; kept: live file grew, re-run; failed: see error. */
  action: "archived" | "merged" | "finished" | "kept" | "failed" | "would-archive" | "would-merge" | "would-finish";
  /** Bytes of JSONL now in the archive (uncompressed). */
  bytes: number;
  lines: number;
  gzBytes?: number;
  error?: string;
}

export interface RotateResult {
  before: string;
  months: RotatedMonth[];
  removedTempFiles: number;
}

export function rotateLedger(ledgerDir: string, opts: RotateOptions): RotateResult {
  if (!MONTH_PATTERN.test(opts.before)) throw badInput("bad --before", "a month YYYY-MM", JSON.stringify(opts.before));
  if (opts.before > opts.currentMonth) {
    throw badInput("cannot rotate the month being written", `--before at most ${opts.currentMonth} (this month)`, opts.before);
  }
  const archiveDir = join(ledgerDir, ARCHIVE_DIR);
  let removedTempFiles = 0;
  if (!opts.dryRun && existsSync(archiveDir)) {
    for (const name of readdirSync(archiveDir)) {
      if (/^\.errata-\d{4}-\d{2}\.jsonl\.gz\.\d+\.tmp$/.test(name)) {
        unlinkSync(join(archiveDir, name));
        removedTempFiles += 1;
      }
    }
  }
  const months: RotatedMonth[] = [];
  for (const m of listMonths(ledgerDir)) {
    if (m.month >= opts.before || !m.live) continue;
    try {
      months.push(rotateMonth(ledgerDir, m.month, m.live, m.archive, opts));
    } catch (err) {
      months.push({ month: m.month, action: "failed", bytes: 0, lines: 0, error: (err as Error).message });
    }
  }
  return { before: opts.before, months, removedTempFiles };
}

function rotateMonth(ledgerDir: string, month: string, livePath: string, archivePath: string | null, opts: RotateOptions): RotatedMonth {
  const step = (s: RotateStep) => opts.onStep?.(s, month);
  const archiveDir = join(ledgerDir, ARCHIVE_DIR);
  const finalPath = join(archiveDir, archiveFileName(month));
  const archived = archivePath ? gunzipSync(readFileSync(archivePath)) : Buffer.alloc(0);
  const live = readFileSync(livePath);
  step("read");
  const rest = live.subarray(overlapBytes(archived, live));
  const sep = archived.length > 0 && archived[archived.length - 1] !== 0x0a && rest.length > 0 ? Buffer.from("\n") : Buffer.alloc(0);
  const merged = Buffer.concat([archived, sep, rest]);
  const lines = countLines(merged);
  const kind = rest.length === 0 ? "finish" : archived.length > 0 ? "merge" : "archive";
  if (opts.dryRun) return { month, action: `would-${kind}`, bytes: merged.length, lines };

  let gzBytes: number | undefined;
  if (rest.length > 0) {
    mkdirSync(archiveDir, { recursive: true });
    const gz = gzipSync(merged, { level: 9 });
    const tmp = join(archiveDir, `.${archiveFileName(month)}.${process.pid}.tmp`);
    writeDurably(tmp, gz);
    step("temp-written");
    let back: Buffer | null = null;
    let why = "";
    try {
      back = gunzipSync(readFileSync(tmp));
    } catch (err) {
      why = (err as Error).message;
    }
    if (back === null || !back.equals(merged)) {
      unlinkSync(tmp);
      throw new ErrataError("IO", `archive round trip differs for ${month}; live file kept`, {
        expected: `${merged.length} identical bytes`,
        found: back === null ? `an unreadable archive (${why})` : `${back.length} bytes${back.length === merged.length ? " that differ" : ""}`,
      });
    }
    step("verified");
    renameSync(tmp, finalPath);
    fsyncDir(archiveDir);
    step("renamed");
    gzBytes = gz.length;
  }
  if (statSync(livePath).size !== live.length) {
    return { month, action: "kept", bytes: merged.length, lines, ...(gzBytes !== undefined ? { gzBytes } : {}), error: "the live file grew during rotation; re-run rotate to finish it" };
  }
  unlinkSync(livePath);
  fsyncDir(ledgerDir);
  step("unlinked");
  const action = kind === "finish" ? "finished" : kind === "merge" ? "merged" : "archived";
  return { month, action, bytes: merged.length, lines, ...(gzBytes !== undefined ? { gzBytes } : {}) };
}

function writeDurably(file: string, data: Buffer): void {
  const fd = openSync(file, "w", 0o644);
  try {
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncDir(dir: string): void {
  const fd = openSync(dir, "r");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function countLines(buf: Buffer): number {
  let n = 0;
  for (let i = buf.indexOf(0x0a); i !== -1; i = buf.indexOf(0x0a, i + 1)) n += 1;
  return buf.length > 0 && buf[buf.length - 1] !== 0x0a ? n + 1 : n;
}
