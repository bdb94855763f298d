/**
 * The settings writer of the tool path's cheaper primitive (docs/mod.md, "Without the mod"):
 * one PreToolUse handler per check in force, each `errata-tool-hook pre-tool-use --check ID`,
 * behind the check's `if` rule where it has one (`ifRules`, ladder-formats/permission-rules.ts),
 * so the client starts no process for a call no check can match. It replaces Errata's
 * unfiltered handler (`errata-tool-hook pre-tool-use`, the README's) in the one settings file
 * it writes; nothing else of the file changes (jsonc-parser's `modify`: the owner's other
 * settings keep their bytes).
 *
 * Which handler a check gets:
 * - an active check with `if` rules and no holdout: one handler per rule, matcher its tools,
 *   `if` the rule (a call the rule does not cover cannot fire the check: property-tested in
 *   test/ladder/permission-rules.test.ts);
 * - any other (a shadow check, whose gate counts every call it is eligible for; a check in the
 *   randomised holdout, whose held-out sessions run it in shadow; a check with no prefix form):
 *   one handler with no `if`, matcher its tools (`*` for every tool), so it still starts no
 *   process for a tool it does not watch.
 * The checks in force are the installed ones (`<ladder>/checks.json`) and the hookify rules of
 * the project's and the user's `.claude/` (the project's hiding the user's of the same name, as
 * the hook reads them). A hookify file added later has no handler until the handlers are
 * written again (`errata rules hooks --write`; approve and undo rewrite them too).
 *
 * Example: the active deny check no-npm on `(^|[;&|]\s*)npm\b` -> PreToolUse gains
 * `{matcher: "Bash", hooks: [{type: "command", if: "Bash(npm*)", command: "errata-tool-hook pre-tool-use --check no-npm"}]}`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { settingsFormatting as formatting, settingsObject } from "./settings-text.js";
import { compileChecks, hookifyCheck, ifRules, readsOutput, type Check } from "../ladder-formats/index.js";
import { writeFileAtomic } from "../files/index.js";
import { LadderError } from "./errors.js";
import { readInstalledChecks } from "./proposals.js";

export const TOOL_HOOK_COMMAND = "errata-tool-hook";

/** One handler of a PreToolUse entry, as the client's settings spell it. */
export interface ToolHandler {
  type: "command";
  if?: string;
  command: string;
}
export interface ToolHandlerEntry {
  matcher: string;
  hooks: ToolHandler[];
}

/** An Errata tool-path handler's command: the README's unfiltered one or a per-check one (`errata hook pre-tool-use` too). */
const ERRATA_PRE_TOOL_USE = /\berrata(-tool-hook)?(\.cjs)?["']?\s+(hook\s+)?pre-tool-use\b/;

/** A check's id as a shell word: ids are `[A-Za-z0-9._:-]` (the ladder's and hookify's); anything else is quoted. */
function shellWord(id: string): string {
  return /^[A-Za-z0-9._:@+-]+$/.test(id) ? id : `'${id.replace(/'/g, `'\\''`)}'`;
}

/** The handlers for the checks in force, in their order. */
export function handlersFor(checks: readonly Check[], command = TOOL_HOOK_COMMAND): ToolHandlerEntry[] {
  const out: ToolHandlerEntry[] = [];
  // A check on a tool's output runs at PostToolUse (errata-tool-hook post-tool-use), never before the tool.
  for (const c of checks.filter((x) => !readsOutput(x))) {
    const matcher = c.tools === "*" ? "*" : c.tools.join("|");
    const run = `${command} pre-tool-use --check ${shellWord(c.id)}`;
    // One rule per handler (the field takes one); ifRules gives one for every form it knows.
    const rules = c.mode === "active" && c.holdout === undefined ? ifRules(c) : null;
    if (rules !== null && rules.length === 1) out.push({ matcher, hooks: [{ type: "command", if: rules[0]!, command: run }] });
    else out.push({ matcher, hooks: [{ type: "command", command: run }] });
  }
  return out;
}

/** The hookify rule files of one `.claude` folder, sorted (tool-sources.ts's rule; the ladder does not import the hooks). */
function hookifyFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.startsWith("hookify.") && n.endsWith(".local.md")).sort();
  } catch {
    return [];
  }
}

/**
 * Every check in force for a project: the installed ones, then the hookify rules (the
 * project's, then the user's a project file of the same name does not hide). A file that does
 * not load is refused by name (exit 2, nothing written): the handlers would otherwise drop its checks.
 */
export function checksInForce(ladder: string, project: string, home: string | undefined): Check[] {
  const checks = [...readInstalledChecks(ladder)];
  const seen = new Set<string>();
  for (const dir of [join(project, ".claude"), ...(home ? [join(home, ".claude")] : [])]) {
    for (const name of hookifyFiles(dir)) {
      if (seen.has(name)) continue;
      seen.add(name);
      const c = hookifyCheck(readFileSync(join(dir, name), "utf8"), join(dir, name));
      if (c !== null) checks.push(c);
    }
  }
  compileChecks(checks);
  return checks;
}

/** The PreToolUse entries of a settings object, refusing a shape the client would not read. */
function preToolUse(settings: Record<string, unknown>, file: string): unknown[] {
  const hooks = settings["hooks"];
  if (hooks === undefined) return [];
  if (typeof hooks !== "object" || hooks === null || Array.isArray(hooks)) throw new LadderError("BAD_INPUT", `${file}: hooks is not an object; nothing written`, { expected: "hooks, an object of events", found: JSON.stringify(hooks).slice(0, 120) });
  const list = (hooks as Record<string, unknown>)["PreToolUse"];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new LadderError("BAD_INPUT", `${file}: hooks.PreToolUse is not a list; nothing written`, { expected: "hooks.PreToolUse, a list of entries", found: JSON.stringify(list).slice(0, 120) });
  return list;
}

const commandOf = (h: unknown): string | null => (typeof h === "object" && h !== null && typeof (h as { command?: unknown }).command === "string" ? (h as { command: string }).command : null);

export interface HandlersPlan {
  file: string;
  before: string | null;
  after: string;
  /** The handlers written, and Errata's handlers they replace (the README's unfiltered one among them). */
  written: ToolHandlerEntry[];
  removed: string[];
}

/**
 * The settings text with Errata's PreToolUse handlers replaced by `entries`: every other
 * handler (the owner's own, another tool's) kept in place; an entry Errata's removal leaves
 * empty dropped.
 */
export function planHandlers(file: string, entries: readonly ToolHandlerEntry[]): HandlersPlan {
  const before = existsSync(file) ? readFileSync(file, "utf8") : null;
  const text = before ?? "{}\n";
  const list = preToolUse(settingsObject(text, file), file);
  const removed: string[] = [];
  const kept: unknown[] = [];
  for (const e of list) {
    const hs = (e as { hooks?: unknown })?.hooks;
    if (!Array.isArray(hs)) {
      kept.push(e);
      continue;
    }
    const others = hs.filter((h) => {
      const cmd = commandOf(h);
      if (cmd !== null && ERRATA_PRE_TOOL_USE.test(cmd)) {
        removed.push(cmd);
        return false;
      }
      return true;
    });
    if (others.length === hs.length) kept.push(e);
    else if (others.length > 0) kept.push({ ...(e as object), hooks: others });
  }
  const next = [...kept, ...entries];
  const after = applyEdits(text, modify(text, ["hooks", "PreToolUse"], next, { formattingOptions: formatting(text) }));
  return { file, before, after, written: [...entries], removed };
}

/** Writes a plan (atomically; the folder made when needed). */
export function writeHandlers(plan: HandlersPlan): void {
  if (plan.before === plan.after) return;
  mkdirSync(dirname(plan.file), { recursive: true });
  writeFileAtomic(plan.file, plan.after);
}

/** Where the ladder records which settings files hold the per-check handlers (the owner's opt-in). */
export const TOOL_HANDLERS_FILE = "tool-handlers.json";

/** The settings files the owner switched the per-check handlers on in (`errata rules hooks --write`). */
export function handlerFiles(ladder: string): string[] {
  const file = join(ladder, TOOL_HANDLERS_FILE);
  if (!existsSync(file)) return [];
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as { files?: unknown };
    return Array.isArray(v.files) ? v.files.filter((f): f is string => typeof f === "string") : [];
  } catch {
    return [];
  }
}

/** Records a settings file as holding the per-check handlers (once). */
export function recordHandlerFile(ladder: string, file: string): void {
  const files = handlerFiles(ladder);
  if (files.includes(file)) return;
  mkdirSync(ladder, { recursive: true });
  writeFileAtomic(join(ladder, TOOL_HANDLERS_FILE), `${JSON.stringify({ v: 1, files: [...files, file] }, null, 2)}\n`);
}

/**
 * After an approve or an undo changed the installed checks: every settings file the owner
 * switched the per-check handlers on in gets them again for the checks now in force (a file
 * that no longer parses is left alone and named). Returns what was rewritten and what was not.
 */
export function refreshHandlers(ladder: string, project: string, home: string | undefined): { rewritten: string[]; refused: string[] } {
  const rewritten: string[] = [];
  const refused: string[] = [];
  for (const file of handlerFiles(ladder)) {
    try {
      const plan = planHandlers(file, handlersFor(checksInForce(ladder, project, home)));
      if (plan.after === plan.before) continue;
      writeHandlers(plan);
      rewritten.push(file);
    } catch (err) {
      refused.push(`${file}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { rewritten, refused };
}
