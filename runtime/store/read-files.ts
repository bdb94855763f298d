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
 *
 * Example: `readMonthTexts("/tmp/l")` -> `[{ month: "2026-11", lines: [{ file:
 * "errata-2026-11.jsonl", line: 1, text: "{...}" }], problems: [] }]`
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
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
  if (existsSync(archiveDir)) {
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
    try {
      archiveBytes = gunzipSync(readFileSync(files.archive));
    } catch (err) {
      problems.push({
        file: archiveName,
        line: 0,
        code: "archive-unreadable",
        severity: "error",
        message: `cannot decompress archive (expected gzip of JSONL; found ${(err as Error).message})`,
      });
    }
    if (archiveBytes) eachLine(archiveBytes, archiveName, visit);
  }
  if (files.live) {
    const liveName = monthFileName(files.month);
    const live = readFileSync(files.live);
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
