/**
 * Finding and reading the month files of a ledger, live and archived, as one stream of text
 * lines labelled with file and line number.
 *
 * Rules:
 * - Months are read oldest first; within a month the archive (`archive/errata-M.jsonl.gz`)
 *   comes before the live file (`errata-M.jsonl`), which holds lines appended after the
 *   month was archived.
 * - An interrupted rotation can leave lines in both. Lines are unique (random ids, times),
 *   so when the start of the live file repeats the end of the archive byte for byte, that
 *   overlap is read once (see `overlapBytes`).
 * - A last line with no newline that does not parse is a torn tail: skipped with a warning.
 *   An empty line is skipped silently (an append after a torn tail starts a fresh line).
 * - Damage is reported, never hidden, and never takes down more than itself: a month file
 *   that cannot be read (a directory in its place, no permission) is a `month-unreadable`
 *   problem naming the file, what was expected and what was found, and the other months are
 *   read; a truncated archive gives up the lines before the cut (read as usual) and is an
 *   `archive-truncated` problem; an archive that is not gzip at all is `archive-unreadable`.
 *   These codes are listed in DAMAGE_CODES: `errata daily` reports them as `degraded`.
 *
 * Example: `readMonthTexts("/tmp/l")` -> `[{ month: "2026-11", lines: [{ file:
 * "errata-2026-11.jsonl", line: 1, text: "{...}" }], problems: [] }]`
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { constants as zlibConstants, gunzipSync } from "node:zlib";
import { ARCHIVE_FILE_PATTERN, LIVE_FILE_PATTERN, archiveFileName, monthFileName } from "./ids.js";

export interface TextLine {
  /** Path relative to the ledger folder, e.g. "errata-2026-11.jsonl" or "archive/errata-2026-01.jsonl.gz". */
  file: string;
  /** 1-based line number within that file (decompressed for archives). */
  line: number;
  text: string;
  /** True for the last line of a file when it lacks its newline. */
  unterminated: boolean;
}

export interface ReadProblem {
  file: string;
  line: number;
  code: string;
  severity: "error" | "warning";
  message: string;
  id?: string;
  /** For a whole file that could not be read (DAMAGE_CODES): what it should have been, and what it was. */
  expected?: string;
  found?: string;
}

/** Problems that mean a whole file (or the end of an archive) could not be read. */
export const DAMAGE_CODES: ReadonlySet<string> = new Set(["month-unreadable", "archive-unreadable", "archive-truncated"]);

/** What a file is, for a problem's `found`: "a directory", "EACCES: permission denied", ... */
function describeReadError(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code === "EISDIR") return "a directory";
  return e.code ? `${e.code}: ${e.message.replace(/^[A-Z]+: /, "").replace(/, open '.*'$|, read$/, "")}` : String(err);
}

function damage(file: string, code: string, expected: string, found: string, what: string): ReadProblem {
  return { file, line: 0, code, severity: "error", message: `${what} (expected ${expected}; found ${found})`, expected, found };
}

/**
 * A gzip file's content, or as much of it as precedes a cut (a truncated archive): zlib
 * with Z_SYNC_FLUSH as the finishing flush returns what it decoded instead of failing at
 * the missing end. Null when nothing could be decoded at all.
 */
function gunzipLenient(buf: Buffer): { bytes: Buffer; whole: boolean; error: string | null } | null {
  try {
    return { bytes: gunzipSync(buf), whole: true, error: null };
  } catch (err) {
    try {
      const bytes = gunzipSync(buf, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      return { bytes, whole: false, error: (err as Error).message };
    } catch {
      return null;
    }
  }
}

export interface MonthFiles {
  month: string;
  live: string | null;
  archive: string | null;
}

export const ARCHIVE_DIR = "archive";

/** Every month with a live or archived file, oldest first. */
export function listMonths(ledgerDir: string): MonthFiles[] {
  const months = new Map<string, MonthFiles>();
  const get = (m: string): MonthFiles => {
    let entry = months.get(m);
    if (!entry) {
      entry = { month: m, live: null, archive: null };
      months.set(m, entry);
    }
    return entry;
  };
  if (existsSync(ledgerDir)) {
    for (const name of readdirSync(ledgerDir)) {
      const m = LIVE_FILE_PATTERN.exec(name);
      if (m?.[1]) get(m[1]).live = join(ledgerDir, name);
    }
  }
  const archiveDir = join(ledgerDir, ARCHIVE_DIR);
  // A file in place of the archive folder holds no archive: the live months are still read.
  if (existsSync(archiveDir) && statSync(archiveDir).isDirectory()) {
    for (const name of readdirSync(archiveDir)) {
      const m = ARCHIVE_FILE_PATTERN.exec(name);
      if (m?.[1]) get(m[1]).archive = join(archiveDir, name);
    }
  }
  return [...months.values()].sort((a, b) => a.month.localeCompare(b.month));
}

/**
 * How many leading bytes of `live` are already at the end of `archive` (an interrupted
 * rotation), aligned on line starts; 0 when none.
 */
export function overlapBytes(archive: Buffer, live: Buffer): number {
  if (live.length === 0 || archive.length === 0) return 0;
  const nl = live.indexOf(0x0a);
  const firstLine = nl === -1 ? live : live.subarray(0, nl + 1);
  let from = Math.max(0, archive.length - live.length);
  for (;;) {
    const p = archive.indexOf(firstLine, from);
    if (p === -1) return 0;
    const atLineStart = p === 0 || archive[p - 1] === 0x0a;
    const tail = archive.subarray(p);
    if (atLineStart && tail.length <= live.length && live.subarray(0, tail.length).equals(tail)) return tail.length;
    from = p + 1;
  }
}

/** Calls `visit` for each line of a file's bytes; the first line is numbered `firstLineNo`. */
export function eachLine(buf: Buffer, file: string, visit: (l: TextLine) => void, firstLineNo = 1): void {
  let start = 0;
  let lineNo = firstLineNo;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    const end = nl === -1 ? buf.length : nl;
    visit({ file, line: lineNo, text: buf.toString("utf8", start, end), unterminated: nl === -1 });
    lineNo += 1;
    start = end + 1;
  }
}

/** Splits a file's bytes into lines; the first line is numbered `firstLineNo`. */
export function splitLines(buf: Buffer, file: string, firstLineNo = 1): TextLine[] {
  const out: TextLine[] = [];
  eachLine(buf, file, (l) => out.push(l), firstLineNo);
  return out;
}

function countNewlines(buf: Buffer): number {
  let n = 0;
  let i = buf.indexOf(0x0a);
  while (i !== -1) {
    n += 1;
    i = buf.indexOf(0x0a, i + 1);
  }
  return n;
}

export interface MonthText {
  month: string;
  lines: TextLine[];
  problems: ReadProblem[];
}

/** Reads one month (archive, then live minus any overlap) as text lines. */
export function readMonthText(files: MonthFiles): MonthText {
  const lines: TextLine[] = [];
  const problems = visitMonth(files, (l) => lines.push(l));
  return { month: files.month, lines, problems };
}

/**
 * Streams one month's lines (archive, then live minus any overlap) to `visit` without
 * keeping them; returns the problems met reading the files.
 */
export function visitMonth(files: MonthFiles, visit: (l: TextLine) => void): ReadProblem[] {
  const problems: ReadProblem[] = [];
  let archiveBytes: Buffer | null = null;
  const archiveName = `${ARCHIVE_DIR}/${archiveFileName(files.month)}`;
  if (files.archive) {
    let raw: Buffer | null = null;
    try {
      raw = readFileSync(files.archive);
    } catch (err) {
      problems.push(damage(archiveName, "archive-unreadable", "a gzip file of JSONL", describeReadError(err), "cannot read archive; its month is read without it"));
    }
    const got = raw === null ? null : gunzipLenient(raw);
    if (raw !== null && got === null) {
      problems.push(damage(archiveName, "archive-unreadable", "gzip of JSONL", `${raw.length} bytes that do not decompress`, "cannot decompress archive; its month is read without it"));
    } else if (got !== null) {
      archiveBytes = got.bytes;
      if (!got.whole) {
        const lines = countNewlines(got.bytes);
        problems.push(
          damage(archiveName, "archive-truncated", "a whole gzip file", `a file cut short (${got.error}); the first ${lines} lines were read`, "archive truncated; lines after the cut are missing"),
        );
      }
    }
    if (archiveBytes) eachLine(archiveBytes, archiveName, visit);
  }
  if (files.live) {
    const liveName = monthFileName(files.month);
    let live: Buffer | null = null;
    try {
      live = readFileSync(files.live);
    } catch (err) {
      problems.push(damage(liveName, "month-unreadable", "a JSONL month file", describeReadError(err), "cannot read month file; skipped, the other months are read"));
    }
    if (live !== null) {
      const skip = archiveBytes ? overlapBytes(archiveBytes, live) : 0;
      if (skip > 0) {
        problems.push({
          file: liveName,
          line: 1,
          code: "rotation-overlap",
          severity: "warning",
          message: `the first ${skip} bytes repeat the end of ${archiveName} (an interrupted rotation); read once. Re-run \`errata rotate\` to finish it`,
        });
      }
      eachLine(live.subarray(skip), liveName, visit, 1 + countNewlines(live.subarray(0, skip)));
    }
  }
  return problems;
}

/** All months' lines in reading order. */
export function readAllText(ledgerDir: string): { lines: TextLine[]; problems: ReadProblem[] } {
  const lines: TextLine[] = [];
  const problems: ReadProblem[] = [];
  for (const m of listMonths(ledgerDir)) {
    const t = readMonthText(m);
    for (const l of t.lines) lines.push(l);
    problems.push(...t.problems);
  }
  return { lines, problems };
}
