/**
 * The owner's hard block: when approving a check that is a pure command pattern with action
 * deny, `errata rules approve <id> --native-deny` also writes Claude Code's native permission
 * deny rules (`permissions.deny` in the project's `.claude/settings.json`), which do not fail
 * open the way a hook does. The rules come from `nativeDenyRules` (ladder-formats), which never
 * blocks more than the check (property-tested); the check itself still runs for the spellings
 * the rules miss.
 *
 * - Only rules the file does not already hold are written, and only those are recorded: undo
 *   removes exactly them. A backup of the file as it was goes beside the other backups.
 * - The edit is a minimal text edit (jsonc-parser's `modify`, a well-kept library, rather than a
 *   hand-written JSON printer): the owner's other settings keep their bytes.
 * - Undo: the file unchanged since the apply -> the backup back, byte for byte; changed since
 *   (the owner edited something else) -> exactly the recorded rules removed, again as a minimal edit.
 * - A settings file that is not a JSON object (or whose `permissions.deny` is not a list of
 *   strings) is refused by name, exit 2, nothing written.
 *
 * Example: the active deny check on `(^|[;&|]\s*)npm\b` for project /p -> /p/.claude/settings.json
 * gains `"permissions": {"deny": ["Bash(npm)", "Bash(npm *)"]}`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { applyEdits, modify } from "jsonc-parser";
import { settingsFormatting as formatting, settingsObject } from "./settings-text.js";
import { nativeDenyRules, parseChecksFile, type Check } from "../ladder-formats/index.js";
import type { NativeDenyRecord, Proposal } from "../../schemas/ladder-proposals.js";
import { writeFileAtomic } from "../files/index.js";
import { LadderError } from "./errors.js";

export const SETTINGS_PATH = join(".claude", "settings.json");

export interface NativeDenyPlan {
  file: string;
  check_id: string;
  /** Every rule the check gives. */
  rules: string[];
  /** The ones the file does not hold yet (what is written, and what undo removes). */
  added: string[];
  before: string | null;
  after: string;
}

/** The check a proposal installs or switches on (as it stands after the edit), or a refusal. */
function proposalCheck(p: Proposal): Check {
  const edit = p.edit;
  if (edit === null || edit.kind !== "check" || (edit.check === null && edit.activate === null)) {
    throw new LadderError("BAD_INPUT", `--native-deny applies to a proposal that installs or activates a check; ${p.id} is a ${p.type}`, { expected: "a climb to rung 3, a new_check or a leave_shadow", found: p.type });
  }
  if (edit.check !== null) return { ...(edit.check as Check), mode: "active" };
  const text = existsSync(edit.file) ? readFileSync(edit.file, "utf8") : null;
  const found = text === null ? undefined : parseChecksFile(text, edit.file).find((c) => c.id === edit.activate);
  if (found === undefined) throw new LadderError("NOT_FOUND", `no check ${edit.activate} in ${edit.file}`, { expected: "the check in shadow", found: "none" });
  return { ...found, mode: "active" };
}

/** The deny list of a settings text, refusing a file that is not a settings object. */
function denyList(text: string, file: string): string[] {
  const v = settingsObject(text, file);
  const perms = v["permissions"];
  if (perms === undefined) return [];
  if (typeof perms !== "object" || perms === null || Array.isArray(perms)) throw new LadderError("BAD_INPUT", `${file}: permissions is not an object; nothing written`, { expected: "permissions, an object", found: JSON.stringify(perms) });
  const deny = (perms as Record<string, unknown>)["deny"];
  if (deny === undefined) return [];
  if (!Array.isArray(deny) || deny.some((d) => typeof d !== "string")) throw new LadderError("BAD_INPUT", `${file}: permissions.deny is not a list of strings; nothing written`, { expected: "permissions.deny, a list of rule strings", found: JSON.stringify(deny).slice(0, 200) });
  return deny as string[];
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}


/**
 * What `--native-deny` writes for a proposal: the check's rules and the settings text after.
 * `project` is where the check has none of its own (the folder the command runs in). Throws
 * (BAD_INPUT, exit 2) when the check is not a pure command pattern with action deny, or the
 * settings file does not parse.
 */
export function planNativeDeny(p: Proposal, project: string, resumeFrom: { dir: string } | null = null): NativeDenyPlan {
  const check = proposalCheck(p);
  const rules = nativeDenyRules(check);
  if (rules === null) {
    throw new LadderError("BAD_INPUT", `check ${check.id} is not a pure command pattern with action deny, so no native rule blocks only what it blocks; approve without --native-deny (the hook still acts)`, {
      expected: "a deny check on Bash with one condition, a command word at the start (e.g. (^|[;&|]\\s*)npm\\b)",
      found: `${check.action} on ${check.tools === "*" ? "every tool" : check.tools.join("/")}, ${check.conditions.length} condition(s)`,
    });
  }
  const file = join(check.project ?? project, SETTINGS_PATH);
  let before = existsSync(file) ? readFileSync(file, "utf8") : null;
  if (resumeFrom !== null) {
    // A resumed approve whose run died after writing the settings: plan from the backup it made,
    // so the rules it wrote are recorded (and undo removes them), not taken for the owner's.
    const bak = join(resumeFrom.dir, "backups", `${p.id}.settings.bak`);
    if (existsSync(bak)) before = readFileSync(bak, "utf8");
    else if (existsSync(join(resumeFrom.dir, "backups", `${p.id}.settings.absent`))) before = null;
  }
  const held = before === null ? [] : denyList(before, file);
  const added = rules.filter((r) => !held.includes(r));
  let after = before ?? "{}\n";
  for (const r of added) after = applyEdits(after, modify(after, ["permissions", "deny", -1], r, { isArrayInsertion: true, formattingOptions: formatting(after) }));
  return { file, check_id: check.id, rules, added, before, after };
}

/** Writes a plan with its backup (`backups/<id>.settings.bak|.absent`); returns what the applied decision records. */
export function writeNativeDeny(dir: string, id: string, plan: NativeDenyPlan, hash: (t: string) => string): NativeDenyRecord {
  const backups = join(dir, "backups");
  mkdirSync(backups, { recursive: true });
  const backup = join(backups, `${id}.settings${plan.before === null ? ".absent" : ".bak"}`);
  writeFileAtomic(backup, plan.before ?? "");
  if (plan.added.length > 0) {
    mkdirSync(dirname(plan.file), { recursive: true });
    writeFileAtomic(plan.file, plan.after);
  }
  return { file: plan.file, check: plan.check_id, rules: plan.added, backup, after_hash: plan.added.length > 0 ? hash(plan.after) : null };
}

/** The settings text with exactly the recorded rules removed (a minimal edit), or null for "restore the backup". */
export function undoNativeDeny(rec: NativeDenyRecord, hash: (t: string) => string): { text: string | null; restore: boolean } {
  if (rec.rules.length === 0) return { text: null, restore: false };
  const now = existsSync(rec.file) ? readFileSync(rec.file, "utf8") : null;
  if (now !== null && hash(now) === rec.after_hash) {
    if (!existsSync(rec.backup)) throw new LadderError("NO_BACKUP", `the backup of ${rec.file} is missing`, { expected: rec.backup, found: "nothing" });
    return { text: rec.backup.endsWith(".absent") ? null : readFileSync(rec.backup, "utf8"), restore: true };
  }
  if (now === null) return { text: null, restore: false };
  let text = now;
  const drop = (path: Array<string | number>) => (text = applyEdits(text, modify(text, path, undefined, { formattingOptions: formatting(text) })));
  for (const r of rec.rules) {
    const i = denyList(text, rec.file).indexOf(r);
    if (i >= 0) drop(["permissions", "deny", i]);
  }
  // What the apply created to hold the rules (a deny list, a permissions object) goes too, once empty.
  const had = rec.backup.endsWith(".absent") || !existsSync(rec.backup) ? {} : (safeParse(readFileSync(rec.backup, "utf8")) ?? {});
  const hadPerms = typeof had["permissions"] === "object" && had["permissions"] !== null ? (had["permissions"] as Record<string, unknown>) : null;
  const nowObj = safeParse(text) ?? {};
  const perms = nowObj["permissions"] as Record<string, unknown> | undefined;
  if (perms !== undefined && Array.isArray(perms["deny"]) && perms["deny"].length === 0 && (hadPerms === null || hadPerms["deny"] === undefined)) {
    drop(["permissions", "deny"]);
    if (Object.keys(perms).length === 1 && hadPerms === null) drop(["permissions"]);
  }
  return { text, restore: false };
}

/** Carries out undoNativeDeny's answer. */
export function restoreNativeDeny(rec: NativeDenyRecord, answer: { text: string | null; restore: boolean }): void {
  if (rec.rules.length === 0) return;
  if (answer.restore && answer.text === null) rmSync(rec.file, { force: true });
  else if (answer.text !== null) writeFileAtomic(rec.file, answer.text);
}
