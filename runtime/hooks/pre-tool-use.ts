/**
 * `errata hook pre-tool-use`: the check runner in Claude Code's tool path (rung 3 of the
 * binding ladder, docs/ladder.md).
 *
 * Reads from the PreToolUse JSON on stdin exactly: `tool_name`, `tool_input`, `tool_use_id`,
 * `session_id`, `cwd` (unknown fields are ignored). Loads the checks of
 * `<ERRATA_DIR>/ladder/checks.json` (installed through `errata rules approve`) and the
 * owner's hookify rules (`.claude/hookify.*.local.md` in the project, CLAUDE_PROJECT_DIR or
 * the payload's cwd, then `~/.claude/`, a project file hiding a global one of the same
 * name), evaluates them (ladder-formats/checks.ts) and answers in Claude Code's PreToolUse contract:
 * `hookSpecificOutput.permissionDecision` deny/ask/allow with `permissionDecisionReason`,
 * `updatedInput` for a rewrite, `additionalContext` for a warning; nothing at all when no
 * check fires.
 *
 * The decision is written to stdout before anything is logged, so a logging fault can never
 * turn a deny into an allow. Then one line per eligible check goes to
 * `<ERRATA_DIR>/ladder/tool-events.jsonl` (the shadow gate's opportunities and the live fires).
 * A check the owner opted into the randomised holdout runs in shadow in a held-out session
 * (ladder-formats/holdout.ts), and its lines say `held_out: true`.
 *
 * Faults allow: a malformed check file is refused at load (its checks are not run, the others
 * are; one stderr line names the file); any internal fault prints nothing on stdout and one
 * line on stderr. Claude Code treats a failed or timed-out hook as non-blocking too, so a
 * check is advice unless it answers.
 *
 * Example: stdin {"tool_name":"Bash","tool_input":{"command":"rm -rf /"},...} with a hookify
 * block rule on rm -rf -> stdout {"hookSpecificOutput":{"hookEventName":"PreToolUse",
 * "permissionDecision":"deny","permissionDecisionReason":"[errata check hookify:block-dangerous-rm] ..."}}.
 */
import { appendFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CheckFileError, checkApplies, compileChecks, evaluateCompiled, type Check, type Decision } from "../ladder-formats/checks.js";
import { parseChecksFile } from "../ladder-formats/checks-file.js";
import type { ToolEvent } from "../../schemas/ladder-checks.js";
import { TOOL_EVENTS_FILE } from "../ladder-formats/files.js";
import { ladderDir } from "../ladder-formats/ladder-dir.js";
import { hookifyCheck } from "../ladder-formats/hookify.js";
import { heldOut } from "../ladder-formats/holdout.js";
import { findCheckSources, NO_CALL, nonEmpty, projectDirOf, type CheckSources } from "./tool-sources.js";

export interface ToolHookIo {
  stdout: { write: (s: string) => unknown };
  stderr: { write: (s: string) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
}

/**
 * Every check in force, each file loaded whole or refused whole (compiled here, so a bad
 * regex refuses its file too). `refused` names each refused file and why. `sources` are the
 * files found already (tool-hook.ts finds them before it loads this module), else found here.
 */
export function loadChecks(
  env: Record<string, string | undefined>,
  cwd: string,
  projectDir: string | null,
  sources: CheckSources = findCheckSources(env, cwd, projectDir),
): { checks: Check[]; refused: CheckFileError[] } {
  const checks: Check[] = [];
  const refused: CheckFileError[] = [];
  const take = (file: string, load: () => Check[]): void => {
    try {
      const got = load();
      compileChecks(got);
      checks.push(...got);
    } catch (err) {
      if (err instanceof CheckFileError) refused.push(err);
      else refused.push(new CheckFileError(file, "a readable check file", err instanceof Error ? err.message : String(err)));
    }
  };
  const { ownFile, ownText } = sources;
  if (ownText !== null) take(ownFile, () => parseChecksFile(ownText, ownFile));
  for (const file of sources.hookifyFiles) {
    take(file, () => {
      const check = hookifyCheck(readFileSync(file, "utf8"), file);
      return check === null ? [] : [check];
    });
  }
  return { checks, refused };
}

/** Appends text to a ladder file; the folder is made only the first time (a failed append says it is missing). */
export function appendLadderLine(dir: string, name: string, text: string): void {
  try {
    appendFileSync(join(dir, name), text);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    mkdirSync(dir, { recursive: true });
    appendFileSync(join(dir, name), text);
  }
}

type Fields = Record<string, unknown>;
const str = nonEmpty;

/**
 * Runs the checks for one PreToolUse payload. Returns the decision (for tests and replay).
 * `sources`: the check files tool-hook.ts found already (else they are found here); `only`:
 * the one check an `if`-filtered handler runs (`--check ID`), else every check in force.
 */
export function onPreToolUse(f: Fields, io: ToolHookIo, say: (line: string) => void, sources?: CheckSources, only?: string): Decision | null {
  const toolName = str(f["tool_name"]);
  const toolInput = f["tool_input"];
  if (toolName === null || typeof toolInput !== "object" || toolInput === null || Array.isArray(toolInput)) {
    say(NO_CALL);
    return null;
  }
  const projectDir = projectDirOf(f, io.env, io.cwd);
  const loaded = loadChecks(io.env, io.cwd, projectDir, sources);
  for (const r of loaded.refused) say(`${r.message}; its checks are not run (this call is decided without them)`);
  // A check the ladder drafted belongs to its project: a call in another folder never meets it.
  // An http hook (runtime/server/hooks.ts) reads its files from the developer's folder on the
  // server but names the developer's own project here (a path compared, never read).
  const checkProject = nonEmpty(io.env["ERRATA_CHECK_PROJECT"]) ?? projectDir;
  const sessionId = str(f["session_id"]);
  // The randomised holdout: in a held-out session an active check runs in shadow (it records, never acts).
  const held = new Set<string>();
  // `--check ID`: the handler of one check (its `if` filter chose the call), so that two
  // handlers firing on one call never decide or log another's check twice.
  const checks = loaded.checks
    .filter((c) => (only === undefined || c.id === only) && checkApplies(c, checkProject))
    .map((c) => {
      if (c.mode !== "active" || !heldOut(c, sessionId)) return c;
      held.add(c.id);
      return { ...c, mode: "shadow" as const };
    });
  if (checks.length === 0) return null;
  const decision = evaluateCompiled(compileChecks(checks), { tool_name: toolName, tool_input: toolInput as Record<string, unknown> });
  // The answer first: whatever happens to the log below, the decision stands.
  const out = preToolUseOutput(decision);
  if (out !== "") io.stdout.write(`${out}\n`);
  try {
    logOutcomes(io, decision, sessionId, str(f["tool_use_id"]), toolName, held);
  } catch (err) {
    say(`the decision stands, but its log line was not written (${err instanceof Error ? err.message : String(err)})`);
  }
  return decision;
}

function logOutcomes(io: ToolHookIo, d: Decision, sessionId: string | null, toolUseId: string | null, toolName: string, held: ReadonlySet<string>): void {
  const eligible = d.outcomes.filter((o) => o.eligible);
  if (eligible.length === 0) return;
  const ts = new Date(io.now()).toISOString();
  // Each line typed by the schema the ladder reads the file with (a type import: the hook loads no zod).
  const lines = eligible.map((o) =>
    JSON.stringify({
      v: 1,
      ts,
      session_id: sessionId,
      tool_use_id: toolUseId,
      tool_name: toolName,
      check: o.check.id,
      rule_id: o.check.rule_id ?? null,
      mode: o.check.mode,
      fired: o.fired,
      decision: o.fired && o.check.mode === "active" ? (d.decision ?? "warn") : null,
      ...(held.has(o.check.id) ? { held_out: true } : {}),
    } satisfies ToolEvent),
  );
  // One write of whole lines (O_APPEND): concurrent tool calls never interleave within a line.
  appendLadderLine(ladderDir(io.env, io.cwd), TOOL_EVENTS_FILE, `${lines.join("\n")}\n`);
}

/**
 * The hook's stdout for a decision, exactly Claude Code's PreToolUse shape, or "" when
 * nothing fired (the call goes on as if no hook ran). Never `systemMessage`: it reaches only
 * the owner, and a check's reason must reach the model.
 */
export function preToolUseOutput(d: Decision): string {
  if (d.decision === null && d.additionalContext === null) return "";
  const out: Record<string, unknown> = { hookEventName: "PreToolUse" };
  if (d.decision !== null) out["permissionDecision"] = d.decision;
  if (d.reason !== null) out["permissionDecisionReason"] = d.reason;
  if (d.updatedInput !== null) out["updatedInput"] = d.updatedInput;
  if (d.additionalContext !== null) out["additionalContext"] = d.additionalContext;
  return JSON.stringify({ hookSpecificOutput: out });
}
