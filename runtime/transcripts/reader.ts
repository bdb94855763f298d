import { readLines } from "../files/index.js";
import { classifyRecord, type RecordKind, type TranscriptRecord } from "./records.js";

/** One parsed line and where it sits in its file. */
export interface TranscriptEvent {
  rec: TranscriptRecord;
  lineNo: number;
  offset: number;
  end: number;
}

/** What a read saw; filled while the reader runs, complete when it ends. */
export interface ReadStats {
  /** Physical lines read (blank lines and a torn tail included). */
  lines: number;
  /** Lines that parsed as a JSON object. */
  parsed: number;
  /** Lines that are not valid JSON (or not an object): counted and skipped. */
  broken: number;
  /** Line numbers of the first broken lines (at most 50), for messages. */
  brokenLineNos: number[];
  blank: number;
  /** Lines per kind ("user", "assistant", ..., "unknown"). */
  kinds: Partial<Record<RecordKind, number>>;
  /** Bytes consumed (through the last complete line). */
  bytes: number;
  /** Where the next read resumes: the end of the last line consumed. */
  resumeAt: number;
  /** The line number the next read starts with. */
  nextLineNo: number;
  /** True when the last line had no newline and did not parse: left for the next run. */
  tornTail: boolean;
}

export function emptyStats(start = 0, firstLineNo = 1): ReadStats {
  return {
    lines: 0,
    parsed: 0,
    broken: 0,
    brokenLineNos: [],
    blank: 0,
    kinds: {},
    bytes: 0,
    resumeAt: start,
    nextLineNo: firstLineNo,
    tornTail: false,
  };
}

export interface ReadTranscriptOptions {
  start?: number;
  firstLineNo?: number;
  /** Stats object to fill (so a caller can read it after iterating). */
  stats?: ReadStats;
}

/**
 * Streams a Claude Code transcript as parsed, classified records, one line at a time (the
 * file is never held whole). Broken lines are counted and skipped; blank lines are skipped;
 * a last line without a newline that does not parse is a torn tail: not counted as broken,
 * not consumed (`stats.resumeAt` stays before it). Unknown line types pass through as kind
 * "unknown".
 *
 * Example: over `m-claude/21037e11-….jsonl` (868 physical lines) it yields 840 records and
 * ends with `stats.broken === 28`.
 */
export async function* readTranscript(path: string, opts: ReadTranscriptOptions = {}): AsyncGenerator<TranscriptEvent> {
  const start = opts.start ?? 0;
  const stats = opts.stats ?? emptyStats(start, opts.firstLineNo ?? 1);
  stats.resumeAt = start;
  stats.nextLineNo = opts.firstLineNo ?? 1;
  for await (const line of readLines(path, { start, firstLineNo: opts.firstLineNo ?? 1 })) {
    const text = line.text;
    if (text.trim().length === 0) {
      stats.lines++;
      stats.blank++;
      if (line.terminated) advance(stats, line.end, line.lineNo, start);
      continue;
    }
    let value: unknown;
    let ok = true;
    try {
      value = JSON.parse(text);
    } catch {
      ok = false;
    }
    const rec = ok ? classifyRecord(value) : null;
    if (rec === null) {
      if (!line.terminated) {
        stats.tornTail = true;
        continue;
      }
      stats.lines++;
      stats.broken++;
      if (stats.brokenLineNos.length < 50) stats.brokenLineNos.push(line.lineNo);
      advance(stats, line.end, line.lineNo, start);
      continue;
    }
    stats.lines++;
    stats.parsed++;
    stats.kinds[rec.kind] = (stats.kinds[rec.kind] ?? 0) + 1;
    advance(stats, line.end, line.lineNo, start);
    yield { rec, lineNo: line.lineNo, offset: line.offset, end: line.end };
  }
}

function advance(stats: ReadStats, end: number, lineNo: number, start: number): void {
  stats.resumeAt = end;
  stats.nextLineNo = lineNo + 1;
  stats.bytes = end - start;
}
