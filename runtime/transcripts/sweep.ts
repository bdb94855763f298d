import { mkdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ExchangeSchema, type Exchange } from "../../schemas/exchange.js";
import { appendJsonl, iterateJsonl, reportProblems, type JsonlProblem } from "../files/index.js";
import { knowProjectValues, redactForWrite } from "../privacy/index.js";
import type { CapturedIndex } from "./captured.js";
import { loadCarry, storeCarry } from "./carry-refs.js";
import { cursorPath, EXCHANGES_CURSOR_SCHEMA, loadCursor, saveCursor, tailHash, type CursorFile, type FileCursor } from "./cursor.js";
import { discoverTranscripts } from "./discover.js";
import { scanTranscript, type ScanResult } from "./scan.js";

export interface SweepOptions {
  /** Folder of transcripts (e.g. `~/.claude/projects`). */
  root: string;
  /** Where `exchanges.jsonl` is appended. */
  v4Dir: string;
  /** Where the per-file cursor is kept. */
  stateDir: string;
  /** Re-read every file from its start, ignoring the cursor (still appends only new ids). */
  full?: boolean;
  /** Compute everything, write nothing. */
  dryRun?: boolean;
  /** The ledger's captured turns; null when no ledger is readable (captured stays false). */
  captured?: CapturedIndex | null;
  onFile?: (done: number, total: number) => void;
  /** Where lines of exchanges.jsonl that cannot be read are reported, one line each (default: stderr). */
  warn?: (line: string) => void;
}

export interface SweepReport {
  root: string;
  out: string;
  files: number;
  subagentFiles: number;
  unchanged: number;
  resumed: number;
  fullReads: number;
  /** Resumed reads that met a rewind into older lines and re-read the file whole. */
  rescans: number;
  bytesRead: number;
  lines: number;
  brokenLines: number;
  typedPrompts: number;
  rewoundPrompts: number;
  newExchanges: number;
  alreadyPresent: number;
  captured: number;
  dryRun: boolean;
}

export function exchangesPath(v4Dir: string): string {
  return join(v4Dir, "exchanges.jsonl");
}

/**
 * The ids of the exchanges readable back from an exchanges file (streamed; only ids are kept).
 * Only rows that parse and fit the schema count: a torn or malformed line holds no exchange,
 * so its exchange is appended again by the next sweep instead of being lost.
 */
export async function existingExchangeIds(path: string, onProblem?: (p: JsonlProblem) => void): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const { row } of iterateJsonl(path, ExchangeSchema, { what: "an exchange/1 row", ...(onProblem ? { onProblem } : {}) })) ids.add(row.id);
  return ids;
}

/**
 * `errata exchanges`: sweeps a transcripts folder and appends one Exchange per new typed
 * prompt to `<v4Dir>/exchanges.jsonl`. A re-run appends nothing (ids already present are
 * skipped). Growing files are resumed from a per-file cursor (byte offset, checked by inode,
 * size and a hash of the bytes before the offset); a file that was replaced or truncated is
 * read again from its start. Subagent files hold no typed prompt and are only counted.
 *
 * Live branch and growing files: a resumed read only sees the new lines, with the current
 * turn's uuids carried in the cursor. When a new line attaches to an older part of the file
 * (a rewind to an earlier prompt), the file is read again whole and the exchanges of the new
 * live branch are appended. Exchanges appended earlier are never removed: the file is an
 * append-only log of prompts that were live when read, so a prompt later rewound stays in it.
 *
 * A crash while appending leaves a torn last row and the old cursor (it is saved after the
 * appends): the next sweep reads those transcripts again, finds the torn row's id missing
 * (only readable rows count as present), sets the fragment apart on its own line and appends
 * the exchange again (runtime/files/jsonl.ts has the policy).
 */
export async function sweepExchanges(opts: SweepOptions): Promise<SweepReport> {
  const out = exchangesPath(opts.v4Dir);
  const cPath = cursorPath(opts.stateDir);
  const cursor: CursorFile = opts.full ? { schema: EXCHANGES_CURSOR_SCHEMA, files: {} } : loadCursor(cPath);
  const oldCursor = opts.full ? loadCursor(cPath) : cursor;
  const problems: JsonlProblem[] = [];
  const seen = await existingExchangeIds(out, (p) => problems.push(p));
  reportProblems(problems, opts.warn ?? ((line) => void process.stderr.write(`errata exchanges: ${line}\n`)));
  const files = discoverTranscripts(opts.root);
  const report: SweepReport = {
    root: opts.root,
    out,
    files: 0,
    subagentFiles: 0,
    unchanged: 0,
    resumed: 0,
    fullReads: 0,
    rescans: 0,
    bytesRead: 0,
    lines: 0,
    brokenLines: 0,
    typedPrompts: 0,
    rewoundPrompts: 0,
    newExchanges: 0,
    alreadyPresent: 0,
    captured: 0,
    dryRun: opts.dryRun === true,
  };
  if (!opts.dryRun) mkdirSync(opts.v4Dir, { recursive: true });
  const nextCursor: CursorFile = { schema: EXCHANGES_CURSOR_SCHEMA, files: { ...oldCursor.files } };
  let done = 0;
  for (const f of files) {
    done++;
    opts.onFile?.(done, files.length);
    if (f.kind === "subagent") {
      report.subagentFiles++;
      continue;
    }
    report.files++;
    const st = statSync(f.path);
    const prev = cursor.files[f.path];
    if (prev !== undefined && prev.ino === st.ino && prev.size === st.size && prev.mtimeMs === st.mtimeMs) {
      report.unchanged++;
      continue;
    }
    const canResume =
      prev !== undefined && prev.ino === st.ino && st.size >= prev.offset && tailHash(f.path, prev.offset) === prev.tailHash;
    // The cursor holds where the carried text lies, not the text: read it back (null when
    // those lines changed, and then the file is read whole).
    const carry = canResume ? loadCarry(f.path, prev.carry) : null;
    let result: ScanResult;
    if (canResume && carry !== null) {
      result = await scanTranscript(f.path, {
        sourceName: f.rel,
        start: prev.offset,
        firstLineNo: prev.nextLineNo,
        carry,
        fallbackSessionId: f.sessionId,
      });
      report.resumed++;
      if (result.needsFullRescan) {
        report.rescans++;
        report.bytesRead += result.stats.bytes;
        report.lines += result.stats.lines;
        result = await scanTranscript(f.path, { sourceName: f.rel, fallbackSessionId: f.sessionId });
      }
    } else {
      result = await scanTranscript(f.path, { sourceName: f.rel, fallbackSessionId: f.sessionId });
      report.fullReads++;
    }
    report.bytesRead += result.stats.bytes;
    report.lines += result.stats.lines;
    report.brokenLines += result.stats.broken;
    report.typedPrompts += result.stats.typedPrompts;
    report.rewoundPrompts += result.stats.rewoundPrompts;
    const fresh: Exchange[] = [];
    result.exchanges.forEach((ex, i) => {
      if (seen.has(ex.id)) {
        report.alreadyPresent++;
        return;
      }
      seen.add(ex.id);
      const captured = opts.captured?.isCaptured(ex, result.nextPromptTs[i] ?? null) ?? false;
      if (captured) report.captured++;
      fresh.push(captured ? { ...ex, captured } : ex);
    });
    report.newExchanges += fresh.length;
    // One write of whole lines; a torn tail left by a crashed run is set apart first.
    // Secrets are redacted here, at the write: the scan keeps the text as it was typed.
    // The project each exchange was typed in: its .env values are the owner's own secrets,
    // learned or not (the transcripts are the owner's, on this machine).
    for (const ex of fresh) knowProjectValues(ex.cwd);
    if (!opts.dryRun && fresh.length > 0) appendJsonl(out, fresh.map((ex) => redactForWrite(ex).value));
    nextCursor.files[f.path] = cursorEntry(f.path, st.ino, result);
  }
  if (!opts.dryRun) saveCursor(cPath, nextCursor);
  return report;
}

function cursorEntry(path: string, ino: number, result: ScanResult): FileCursor {
  const after = statSync(path);
  const offset = result.stats.resumeAt;
  const complete = after.size === offset && after.ino === ino;
  return {
    ino,
    // Only a file read to its very end may be skipped as unchanged next time.
    size: complete ? after.size : -1,
    mtimeMs: complete ? after.mtimeMs : -1,
    offset,
    nextLineNo: result.stats.nextLineNo,
    tailHash: tailHash(path, offset),
    carry: storeCarry(path, result.carry),
  };
}
