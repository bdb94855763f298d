/**
 * `errata hook pre-tool-use`: the check runner in Claude Code's tool path (rung 3 of the
 * binding ladder, docs/ladder.md).
 *
 * Reads from the PreToolUse JSON on stdin exactly: `tool_name`, `tool_input`, `tool_use_id`,
 * `session_id`, `cwd` (unknown fields are ignored). Loads the checks of
 * `<ERRATA_DIR>/ladder/checks.json` (installed through `errata rules approve`) and the
 * owner's hookify rules (`.claude/hookify.*.local.md` in the project, CLAUDE_PROJECT_DIR or
 * the payload's cwd, then `~/.claude/`, a project file hiding a global one of the same
 * name), evaluates them (tool-checks.ts) and answers in Claude Code's PreToolUse contract:
 * `hookSpecificOutput.permissionDecision` deny/ask/allow with `permissionDecisionReason`,
 * `updatedInput` for a rewrite, `additionalContext` for a warning; nothing at all when no
 * check fires.
 *
 * The decision is written to stdout before anything is logged, so a logging fault can never
 * turn a deny into an allow. Then one line per eligible check goes to
 * `<ERRATA_DIR>/ladder/tool-events.jsonl` (the shadow gate's opportunities and the live fires).
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
import { hookifyCheck } from "./hookify.js";
import { CheckFileError, checkApplies, compileChecks, evaluateCompiled, preToolUseOutput, validateCheck, type Check, type Decision } from "./tool-checks.js";
import { findCheckSources, ladderDir, NO_CALL, nonEmpty, projectDirOf, type CheckSources } from "./tool-sources.js";

export { CHECKS_FILE, LADDER_DIR, ladderDir } from "./tool-sources.js";

export interface ToolHookIo {
  stdout: { write: (s: string) => unknown };
  stderr: { write: (s: string) => unknown };
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
}

export const TOOL_EVENTS_FILE = "tool-events.jsonl";

/** The checks of one checks.json text; throws CheckFileError for any problem. */
export function parseChecksFile(text: string, file: string): Check[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (err) {
    throw new CheckFileError(file, "JSON", err instanceof Error ? err.message : String(err));
  }
  const o = v as { version?: unknown; checks?: unknown };
  if (typeof v !== "object" || v === null || o.version !== 1 || !Array.isArray(o.checks)) {
    throw new CheckFileError(file, '{"version": 1, "checks": [...]}', JSON.stringify(v).slice(0, 80));
  }
  const ids = new Set<string>();
  return o.checks.map((c, i) => {
    const check = { ...validateCheck(c, file, `checks[${i}]`), source: file };
    if (ids.has(check.id)) throw new CheckFileError(file, `unique check ids (checks[${i}])`, check.id);
    ids.add(check.id);
    return check;
  });
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
 * `sources`: the check files tool-hook.ts found already (else they are found here).
 */
export function onPreToolUse(f: Fields, io: ToolHookIo, say: (line: string) => void, sources?: CheckSources): Decision | null {
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
  const checks = loaded.checks.filter((c) => checkApplies(c, projectDir));
  if (checks.length === 0) return null;
  const decision = evaluateCompiled(compileChecks(checks), { tool_name: toolName, tool_input: toolInput as Record<string, unknown> });
  // The answer first: whatever happens to the log below, the decision stands.
  const out = preToolUseOutput(decision);
  if (out !== "") io.stdout.write(`${out}\n`);
  try {
    logOutcomes(io, decision, str(f["session_id"]), str(f["tool_use_id"]), toolName);
  } catch (err) {
    say(`the decision stands, but its log line was not written (${err instanceof Error ? err.message : String(err)})`);
  }
  return decision;
}

function logOutcomes(io: ToolHookIo, d: Decision, sessionId: string | null, toolUseId: string | null, toolName: string): void {
  const eligible = d.outcomes.filter((o) => o.eligible);
  if (eligible.length === 0) return;
  const ts = new Date(io.now()).toISOString();
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
      decision: o.fired && o.check.mode === "active" ? d.decision ?? "warn" : null,
    }),
  );
  // One write of whole lines (O_APPEND): concurrent tool calls never interleave within a line.
  appendLadderLine(ladderDir(io.env, io.cwd), TOOL_EVENTS_FILE, `${lines.join("\n")}\n`);
}
