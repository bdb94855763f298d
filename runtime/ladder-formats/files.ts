/**
 * The ladder folder (`<ERRATA_DIR>/ladder/`) and the names of the files in it that the hooks
 * write and the ladder reads: the installed checks (written by the owner's approval, read by
 * the PreToolUse hook), the check runner's tool events, the InstructionsLoaded records, the
 * reflection's sorted corrections and the loops' receipts. Names only, importing nothing:
 * the prompt hook's bundle takes them without loading the paths module (ladder-dir.ts finds
 * the folder from the environment).
 *
 * Example: `join(ladderDir(env, cwd), CHECKS_FILE)` is the file `errata rules approve` writes
 * a check into.
 */

export const LADDER_DIR = "ladder";
/** The installed checks, `{"version": 1, "checks": [...]}` (checks-file.ts reads it). */
export const CHECKS_FILE = "checks.json";
/** One line per check eligible for a tool call (schemas/ladder-checks.ts `ToolEventSchema`). */
export const TOOL_EVENTS_FILE = "tool-events.jsonl";
/** One line per instruction file Claude Code loaded (schemas/ladder-checks.ts `InstructionsLoadedSchema`). */
export const INSTRUCTIONS_LOADED_FILE = "instructions-loaded.jsonl";
/** The rung-1/2 rule lines the owner opted into the holdout, `{"version": 1, "rules": [...]}` (holdout.ts `parseLineHoldouts`). */
export const LINE_HOLDOUTS_FILE = "line-holdouts.json";
/** One line per correction sorted by cause (the Stop hook's reflection, the auditor, the journey). */
export const SORTED_FILE = "sorted.jsonl";
/** One line per loop run (reflection, audit, shadow, morning). */
export const RECEIPTS_FILE = "receipts.jsonl";
