/**
 * The mod's part of the line holdout (docs/causal.md, "Holding out a rule line"): the rule
 * lines this session's draw holds out (`<ladder>/line-holdouts.json`), and the instruction text
 * the model is sent without them. `prompt.context` passes the instruction files of the first
 * message through `withholdFromFiles` (CLAUDE.md, an unscoped rules file); `prompt.attachment`
 * passes a `nested_memory` attachment (a `paths:`-scoped rules file loaded on a read) through
 * `withholdFromAttachment` (every such attachment, a subagent's too: the session is held out). Each withholding is handed to `record`, which writes the
 * instructions-loaded line with `withheld`. A `managed` file is left alone: the client keeps
 * its text whatever a person's mod answers.
 *
 * Example: withholdFromFiles(held, [{path: "/p/CLAUDE.md", kind: "project", content: "- Use pnpm, never npm.\n- Pin.\n"}], rec)
 * -> [{..., content: "- Pin.\n"}], rec("/p/CLAUDE.md", "session_start", ["r1"]) called.
 */
import { attachmentFile, heldOutLines, parseLineHoldouts, withholdLines, type LineHoldout } from "../ladder-formats/holdout.js";
import type { InstructionFile } from "./api.js";

export type RecordWithheld = (file: string, loadReason: string, withheld: readonly string[]) => void;

/** The lines the session's draw holds out, from the line-holdouts file (none there: none; a bad file: logged, none). */
export async function sessionLines(read: (file: string) => Promise<string | null>, log: (text: string) => void, file: string, sessionId: string): Promise<LineHoldout[]> {
  try {
    const text = await read(file);
    return text === null ? [] : heldOutLines(parseLineHoldouts(text), sessionId);
  } catch (err) {
    log(`errata mod: ${file}: ${err instanceof Error ? err.message : String(err)}; no line is held out`);
    return [];
  }
}

/** The instructions-loaded payload that records a withholding (`errata-tool-hook instructions-loaded` writes it). */
export function withheldPayload(sessionId: string, cwd: string, file: string, loadReason: string, withheld: readonly string[]): string {
  return JSON.stringify({ session_id: sessionId, cwd, hook_event_name: "InstructionsLoaded", file_path: file, memory_type: null, load_reason: loadReason, withheld });
}

/** The instruction files with the held-out lines left out; the same array when nothing was. */
export function withholdFromFiles(held: readonly LineHoldout[], files: readonly InstructionFile[], record: RecordWithheld): readonly InstructionFile[] {
  if (held.length === 0) return files;
  let changed = false;
  const out = files.map((f) => {
    if (f.kind === "managed") return f;
    const w = withholdLines(f.content, held);
    if (w.withheld.length === 0) return f;
    changed = true;
    record(f.path, f.parent ? "include" : "session_start", w.withheld);
    return { ...f, content: w.text };
  });
  return changed ? out : files;
}

/** A `prompt.context` input with the held-out lines left out of its instruction files (the same object when none was). */
export function withholdFromContext<E extends { instructionFiles?: readonly InstructionFile[] }>(e: E, held: readonly LineHoldout[], record: RecordWithheld): E {
  const files = e.instructionFiles ?? [];
  const kept = withholdFromFiles(held, files, record);
  return kept === files ? e : { ...e, instructionFiles: kept };
}

/** A `nested_memory` attachment's text (a `paths:`-scoped rules file loaded on a read, a subagent's too) without the held-out lines, or null when none was in it. */
export function withholdFromAttachment(held: readonly LineHoldout[], text: string, record: RecordWithheld): string | null {
  if (held.length === 0) return null;
  const w = withholdLines(text, held);
  if (w.withheld.length === 0) return null;
  record(attachmentFile(text) ?? held.find((h) => h.rule_id === w.withheld[0])?.file ?? "(unknown)", "path_glob_match", w.withheld);
  return w.text;
}
