/**
 * `errata mine`: sweeps a folder of Claude Code transcripts (like `~/.claude/projects`)
 * with the hook's classifier. Every typed prompt (the transcript reader's typed-prompt
 * filter, live branch only; subagent files are skipped: nobody typed them) is classified
 * against the end of the reply before it; a capturing verdict becomes a row with the
 * person's verbatim words, stamped with the prompt's time, channel "mine".
 *
 * Not written again: a turn the ledger already holds (the hook captured it, or an earlier
 * mine run did): same session and the same text, or stamped within 30 s after the prompt
 * and before the session's next one (the transcript reader's `CapturedIndex` rule).
 * Resumable: `<stateDir>/mine-cursor.json` remembers each file's size and mtime when it was
 * last swept to the end; unchanged files are skipped, `limitFiles` bounds one run.
 *
 * Example: `mineTranscripts({root, ...})` on the bundled spotter sessions ->
 * `{files_seen: 3, files_read: 3, prompts: 4, written: 1, already_captured: 0, ...}`.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { MineCursorSchema, type MineCursor } from "../../../schemas/cursor.js";
import { loadCursorFile, saveCursorFile } from "../../files/index.js";
import type { Erratum, Reporter } from "../../../schemas/erratum.js";
import { CapturedIndex } from "../../transcripts/index.js";
import { discoverTranscripts } from "../../transcripts/index.js";
import { typedPrompts } from "../../transcripts/index.js";
import { captureRow } from "../../hooks/capture-row.js";
import { IdTakenError, newErratumId } from "../../store/index.js";
import { ledgerTurns } from "../../transcripts/index.js";
import { classify } from "../../classifier/index.js";
import { knowProjectValues } from "../../privacy/index.js";

export const MINE_CURSOR_SCHEMA = "mine-cursor/1";

export function mineCursorPath(stateDir: string): string {
  return join(stateDir, "mine-cursor.json");
}

/** A missing cursor is empty; one that is not JSON or does not fit its schema is bad input (exit 2). */
export function loadMineCursor(path: string): MineCursor {
  return loadCursorFile(path, MineCursorSchema, () => ({ schema: MINE_CURSOR_SCHEMA as typeof MINE_CURSOR_SCHEMA, files: {} }));
}

export interface MineOptions {
  root: string;
  stateDir: string;
  nowMs: number;
  reporter: Reporter;
  /** At most this many new or changed files in one run (the rest wait for the next). */
  limitFiles?: number;
  dryRun: boolean;
  /** The ledger's turns; null when the ledger could not be read (then nothing is written). */
  captured: CapturedIndex;
  /** Writes one row; throws the store's `IdTakenError` when its id is already in the ledger. */
  append: (e: Erratum) => void;
  /** The ledger's erratum holding an id, when the caller can tell (after an `IdTakenError`). */
  heldBy?: (id: string) => Erratum | null;
  /** Where ids' random bytes come from (default: the kernel's generator); tests force collisions. */
  random?: (n: number) => Uint8Array;
  onFile?: (done: number, total: number) => void;
}

/** Fresh ids drawn for one row before giving up: 24 random bits a day, so a second collision is already a one-in-millions event. */
const MAX_DRAWS = 8;
/** Files between two saves of the cursor: a killed run reads at most this many files again, and the captured check skips what they wrote. */
const CURSOR_EVERY = 25;

export interface MineReport {
  root_files: number;
  files_unchanged: number;
  files_read: number;
  files_left: number;
  prompts: number;
  capturing: number;
  already_captured: number;
  written: number;
  /** Of those written, rows from generated transcripts (marked `synthetic: true` in the ledger). */
  synthetic: number;
  by_kind: Record<string, number>;
  dry_run: boolean;
}

export async function mineTranscripts(o: MineOptions): Promise<MineReport> {
  const cursorFile = mineCursorPath(o.stateDir);
  const cursor = loadMineCursor(cursorFile);
  const files = discoverTranscripts(o.root).filter((f) => f.kind === "session");
  const changed = files.filter((f) => {
    const st = statSync(f.path);
    const seen = cursor.files[f.rel];
    return !(seen && seen.size === st.size && seen.mtimeMs === st.mtimeMs);
  });
  const batch = o.limitFiles === undefined ? changed : changed.slice(0, o.limitFiles);
  const report: MineReport = {
    root_files: files.length,
    files_unchanged: files.length - changed.length,
    files_read: 0,
    files_left: changed.length - batch.length,
    prompts: 0,
    capturing: 0,
    already_captured: 0,
    written: 0,
    synthetic: 0,
    by_kind: {},
    dry_run: o.dryRun,
  };
  // Rows written in this run count as captured too, so one run never writes a turn twice.
  const runIndex = new CapturedIndex([]);
  let unsaved = 0;
  for (const f of batch) {
    const st = statSync(f.path);
    const { prompts } = await typedPrompts(f.path);
    report.files_read++;
    for (let i = 0; i < prompts.length; i++) {
      const p = prompts[i];
      if (!p) continue;
      report.prompts++;
      const verdict = classify(p.text, { previousReply: p.replyEnd });
      // The project the prompt was typed in: its .env values are scrubbed from the row as the
      // owner's own secrets, learned or not.
      knowProjectValues(p.cwd);
      const ex = { session_id: p.sessionId, prompt: p.text, prompt_ts: p.ts };
      const built = captureRow(
        verdict,
        p.text,
        {
          sessionId: p.sessionId,
          cwd: p.cwd,
          reply: p.replyEnd,
          replyComplete: false,
          requested: p.previousAsk,
          toolCalls: p.toolCalls,
          outputIds: [],
          version: p.version,
          model: p.model,
        },
        { nowMs: o.nowMs, reporter: o.reporter, channel: "mine", ...(p.ts !== null ? { ts: new Date(Date.parse(p.ts)).toISOString() } : {}), ...(o.random !== undefined ? { random: o.random } : {}) },
      );
      if (built === null) continue;
      report.capturing++;
      if (o.captured.isCaptured(ex, p.nextTs) || runIndex.isCaptured(ex, p.nextTs)) {
        report.already_captured++;
        continue;
      }
      // The generator's structured mark (never the text) makes the row synthetic in the ledger.
      const row = p.synthetic ? { ...built.erratum, synthetic: true as const } : built.erratum;
      if (!o.dryRun && appendMined(o, row, ex, p.nextTs) === "held") {
        report.already_captured++;
        continue;
      }
      report.by_kind[built.erratum.kind] = (report.by_kind[built.erratum.kind] ?? 0) + 1;
      if (p.synthetic) report.synthetic++;
      report.written++;
      runIndex.add({ sessionId: p.sessionId, text: p.text, tsMs: p.ts === null ? null : Date.parse(p.ts) });
    }
    cursor.files[f.rel] = { size: st.size, mtimeMs: st.mtimeMs };
    o.onFile?.(report.files_read, batch.length);
    // Saved every few files and at the end, so an interrupted run resumes near where it stopped.
    if (!o.dryRun && ++unsaved >= CURSOR_EVERY) {
      saveCursorFile(cursorFile, cursor);
      unsaved = 0;
    }
  }
  if (!o.dryRun && unsaved > 0) saveCursorFile(cursorFile, cursor);
  return report;
}

/**
 * Appends a mined row. An id already in the ledger never fails the run: when the ledger's
 * erratum with that id is this very turn (the captured rule: same session, same text or
 * stamped with the prompt) the turn is "held" and counted as already captured; otherwise the
 * id was a chance collision of the random draw and a fresh id is drawn.
 */
function appendMined(o: MineOptions, row: Erratum, ex: { session_id: string; prompt: string; prompt_ts: string | null }, nextTs: string | null): "written" | "held" {
  let current = row;
  for (let draw = 1; ; draw++) {
    try {
      o.append(current);
      return "written";
    } catch (e) {
      if (!(e instanceof IdTakenError) || draw >= MAX_DRAWS) throw e;
      const held = o.heldBy?.(current.id) ?? null;
      if (held !== null && new CapturedIndex(ledgerTurns([held])).isCaptured(ex, nextTs)) return "held";
      current = { ...current, id: newErratumId(Date.parse(current.ts), o.random) };
    }
  }
}
