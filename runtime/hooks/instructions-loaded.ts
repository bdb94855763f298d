/**
 * `errata hook instructions-loaded`: the sensor behind the ladder's "not loaded" diagnosis.
 * Claude Code fires InstructionsLoaded when a CLAUDE.md or `.claude/rules/*.md` file loads;
 * the event has no decision control, so this handler only records, one line per load, to
 * `<ERRATA_DIR>/ladder/instructions-loaded.jsonl`: `session_id`, `file_path`, `memory_type`
 * (User, Project, Local, Managed), `load_reason` (session_start, nested_traversal,
 * path_glob_match, include, compact), and when sent `globs`, `trigger_file_path`,
 * `parent_file_path`; from the Errata mod, `withheld` (the rule ids a line holdout left out of
 * the file for that session). It prints nothing on stdout (nothing enters the model's context).
 *
 * Example: stdin {"session_id":"s1","hook_event_name":"InstructionsLoaded","file_path":"/p/CLAUDE.md",
 * "memory_type":"Project","load_reason":"session_start"} -> one line in instructions-loaded.jsonl.
 */
import type { InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import { INSTRUCTIONS_LOADED_FILE } from "../ladder-formats/files.js";
import { ladderDir } from "../ladder-formats/ladder-dir.js";
import { appendLadderLine, type ToolHookIo } from "./pre-tool-use.js";

type Fields = Record<string, unknown>;
const strOrNull = (v: unknown): string | null => (typeof v === "string" && v !== "" ? v : null);

export function onInstructionsLoaded(f: Fields, io: ToolHookIo, say: (line: string) => void): boolean {
  const filePath = strOrNull(f["file_path"]);
  if (filePath === null) {
    say("no file_path in the InstructionsLoaded JSON; nothing recorded");
    return false;
  }
  const globs = Array.isArray(f["globs"]) ? (f["globs"] as unknown[]).filter((g): g is string => typeof g === "string") : null;
  // Typed by the schema the ladder reads the file with (a type import: the hook loads no zod).
  const row: InstructionsLoadedRow = {
    v: 1,
    ts: new Date(io.now()).toISOString(),
    session_id: strOrNull(f["session_id"]),
    file_path: filePath,
    memory_type: strOrNull(f["memory_type"]),
    load_reason: strOrNull(f["load_reason"]),
    globs,
    trigger_file_path: strOrNull(f["trigger_file_path"]),
    parent_file_path: strOrNull(f["parent_file_path"]),
  };
  // The mod's record of a line holdout: which rules it left out of this file (docs/causal.md).
  const withheld = Array.isArray(f["withheld"]) ? (f["withheld"] as unknown[]).filter((g): g is string => typeof g === "string") : [];
  if (withheld.length > 0) row.withheld = withheld;
  appendLadderLine(ladderDir(io.env, io.cwd), INSTRUCTIONS_LOADED_FILE, `${JSON.stringify(row)}\n`);
  return true;
}
