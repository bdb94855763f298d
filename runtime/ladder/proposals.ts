/**
 * The owner's approval table. The auditor drafts proposals; nothing writes an instruction file
 * or installs a check until the owner says yes (`approve`), and then the change is one edit of
 * one rule unit (a line replaced or appended, a check added or switched on), never a file
 * rewritten from a model's text, with a backup of the file as it was. An apply refuses when
 * the file changed since the proposal was drafted (its hash differs): the owner's hand edit
 * is never overwritten. `undo` puts the backup back, refusing likewise if the file changed
 * after the apply. Every step is a line in proposals.jsonl and, for the rule, a patch line in
 * the rule ledger.
 *
 * Example: draft a climb 2 -> 3 for "Use pnpm, never npm." -> a proposal whose edit adds check
 * `no-npm` (mode shadow) to checks.json; approve -> checks.json holds it, the rule is at rung 3.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { appendJsonl, readJsonl, writeFileAtomic } from "../files/index.js";
import { redactForWrite } from "../privacy/index.js";
import { parseChecksFile, CHECKS_FILE, type Check } from "../ladder-formats/index.js";
import { ProposalLineSchema, ProposalSchema, type Decision, type Edit, type NativeDenyRecord, type Proposal } from "../../schemas/ladder-proposals.js";
import type { RuleLocation } from "../../schemas/rule-ledger.js";
import { LadderError } from "./errors.js";
import { openRuleLedger } from "./ledger.js";
import { ownerCheck, type OwnerConditions } from "./owner-check.js";
import { planNativeDeny, restoreNativeDeny, undoNativeDeny, writeNativeDeny, type NativeDenyPlan } from "./native-deny.js";

export const PROPOSALS_FILE = "proposals.jsonl";
export type Status = "pending" | "approved" | "rejected" | "applied" | "undone";

export interface ProposalState {
  proposal: Proposal;
  status: Status;
  decisions: Decision[];
}

export const sha256 = (text: string): string => `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`;
const readOrNull = (file: string): string | null => (existsSync(file) ? readFileSync(file, "utf8") : null);
export const fileHash = (file: string): string | null => {
  const t = readOrNull(file);
  return t === null ? null : sha256(t);
};

/** A stable id: the same draft from a retried night is the same proposal. */
export function proposalId(ruleId: string, type: string, from: number, to: number, evidence: readonly string[]): string {
  return `pr-${createHash("sha256").update([ruleId, type, from, to, ...evidence].join("\u0000")).digest("hex").slice(0, 10)}`;
}

export function readProposals(dir: string): Map<string, ProposalState> {
  const { rows } = readJsonl(join(dir, PROPOSALS_FILE), ProposalLineSchema, { what: "a proposal or decision line" });
  const out = new Map<string, ProposalState>();
  for (const r of rows) {
    if (r.kind === "proposal") {
      if (!out.has(r.id)) out.set(r.id, { proposal: r, status: "pending", decisions: [] });
    } else {
      const s = out.get(r.id);
      if (!s) continue;
      s.decisions.push(r);
      s.status = r.status;
    }
  }
  return out;
}

/** Appends a proposal unless one with its id exists (drafting is idempotent). Returns whether it was new. */
export function addProposal(dir: string, p: Proposal): boolean {
  if (readProposals(dir).has(p.id)) return false;
  // A proposal carries rule text and evidence (the owner's words): redacted, so the line it
  // would write into an instruction file is the redacted one too.
  appendJsonl(join(dir, PROPOSALS_FILE), [ProposalSchema.parse(redactForWrite(p).value)]);
  return true;
}

function decide(dir: string, id: string, status: Decision["status"], at: string, extra: Partial<Decision> = {}): void {
  const d: Decision = { kind: "decision", v: 1, id, at, status, why: null, backup: null, after_hash: null, ...extra };
  appendJsonl(join(dir, PROPOSALS_FILE), [redactForWrite(d).value]);
}

function need(dir: string, id: string): ProposalState {
  const s = readProposals(dir).get(id);
  if (!s) throw new LadderError("NOT_FOUND", `no proposal ${id}`, { expected: "an id from errata rules approvals", found: id });
  return s;
}

export function reject(dir: string, id: string, why: string, at: string): void {
  const s = need(dir, id);
  if (s.status !== "pending") throw new LadderError("NOT_PENDING", `proposal ${id} is ${s.status}`, { expected: "a pending proposal", found: s.status });
  if (why.trim() === "") throw new LadderError("BAD_INPUT", "a rejection needs a reason", { expected: "--why <text>", found: "nothing" });
  decide(dir, id, "rejected", at, { why });
}

/** The file's text after the edit, checking the file is as the proposal saw it. */
function edited(edit: Edit, id: string): { before: string | null; after: string } {
  const current = readOrNull(edit.file);
  const now = current === null ? null : sha256(current);
  if (now !== edit.file_hash) {
    throw new LadderError("FILE_CHANGED", `${edit.file} changed since proposal ${id} was drafted (edited by hand?); not overwritten`, {
      expected: edit.file_hash ?? "no file",
      found: now ?? "no file",
    });
  }
  return applyEdit(edit, current);
}

/** The text of the file after the edit, from its text before (null: no file). */
function applyEdit(edit: Edit, current: string | null): { before: string | null; after: string } {
  if (edit.kind === "check") {
    // As stored: the hook's parse adds `source`, which the file does not hold.
    const checks: Array<Omit<Check, "source">> = current === null ? [] : parseChecksFile(current, edit.file).map(({ source: _source, ...c }) => c);
    if (edit.check !== null) checks.push(edit.check as Check);
    const find = (id: string, what: string) => {
      const c = checks.find((k) => k.id === id);
      if (!c) throw new LadderError("NOT_FOUND", `no check ${id} in ${edit.file}`, { expected: what, found: "none" });
      return c;
    };
    if (edit.activate !== null) find(edit.activate, "the check in shadow").mode = "active";
    // A loosening: back to shadow (it keeps watching, never acts), or out of the file.
    if (edit.deactivate) find(edit.deactivate, "the active check").mode = "shadow";
    const kept = edit.uninstall ? checks.filter((k) => k.id !== find(edit.uninstall!, "the check to remove").id) : checks;
    return { before: current, after: `${JSON.stringify({ version: 1, checks: kept }, null, 2)}\n` };
  }
  const text = current ?? "";
  if (edit.kind === "remove") {
    const n = text.split(edit.unit).length - 1;
    if (n !== 1) throw new LadderError("FILE_CHANGED", `the rule's line is in ${edit.file} ${n} times, not once; not removed`, { expected: "the line exactly once", found: String(n) });
    return { before: current, after: text.replace(edit.unit, () => "") };
  }
  if (edit.before === null) return { before: current, after: `${text}${text === "" || text.endsWith("\n") ? "" : "\n"}${edit.after}` };
  const n = text.split(edit.before).length - 1;
  if (n !== 1) throw new LadderError("FILE_CHANGED", `the rule unit is in ${edit.file} ${n} times, not once; not edited`, { expected: "the unit exactly once", found: String(n) });
  return { before: current, after: text.replace(edit.before, () => edit.after) };
}

function locationAfter(p: Proposal): RuleLocation | undefined {
  if (p.location_after !== undefined) return p.location_after;
  if (p.edit === null) return undefined;
  if (p.edit.kind === "check") return p.edit.check ? { kind: "check", check: p.edit.check.id } : undefined;
  if (p.edit.kind === "remove") return { kind: "unwritten" };
  return { kind: "text", file: p.edit.file, section: null };
}

/**
 * The owner's yes: applies the edit (backup first), moves the rule one rung, then records it
 * applied. In that order, so a run killed at any point is finished by a second approve: the
 * yes is recorded first, the rule's patch is written once (keyed by the proposal), and
 * "applied" comes last. `faults` injects a crash for the journey's model test.
 */
export function approve(
  dir: string,
  id: string,
  at: string,
  faults: { crashAfter?: "write" | "patch"; checkOnly?: boolean } = {},
  given: OwnerConditions = {},
  /** `--native-deny`: also write the check's native permission deny rules into the project's settings (the check's project, else this folder). */
  nativeDeny: { project: string } | null = null,
): ProposalState & { nativeDeny?: NativeDenyPlan } {
  const s = need(dir, id);
  // "approved" with no "applied" after it: a run that died on the way; the yes stands, finish it.
  const resuming = s.status === "approved";
  if (s.status !== "pending" && !resuming) throw new LadderError("NOT_PENDING", `proposal ${id} is ${s.status}`, { expected: "a pending proposal", found: s.status });
  const p = s.proposal;
  if (p.type === "new_check" && p.edit === null) {
    // Code could not draft it: the owner's conditions make the check; without them nothing is written and it stays offered.
    const rule = openRuleLedger(dir).read().ledger.rules.get(p.rule_id);
    const project = rule === undefined ? null : ([...rule.incidents].reverse().find((i) => typeof i.project === "string")?.project ?? rule.project ?? null);
    const check = ownerCheck(p, given, project, rule?.text ?? null);
    const file = join(dir, CHECKS_FILE);
    // --native-deny is refused (or planned) before the carrying proposal is written.
    const native = nativeDeny === null ? null : planNativeDeny({ ...p, edit: { kind: "check", file, file_hash: null, check, activate: null } }, nativeDeny.project);
    if (faults.checkOnly) return native === null ? s : { ...s, nativeDeny: native };
    const cond = `the owner's conditions: ${check.conditions.map((c) => `${c.field} ${c.operator} ${JSON.stringify(c.pattern)}`).join(" and ")}`;
    const carried: Proposal = { ...p, id: proposalId(p.rule_id, "climb", p.from_rung, 3, [...p.evidence, cond]), at, type: "climb", to_rung: 3, why: `${cond}; check ${check.id} watches in shadow until the gate and the owner let it act`, edit: { kind: "check", file, file_hash: fileHash(file), check, activate: null } };
    addProposal(dir, carried);
    decide(dir, id, "applied", at, { why: `carried by ${carried.id} (a check with the owner's conditions)` });
    return approve(dir, carried.id, at, faults, {}, nativeDeny);
  }
  const interrupted = resuming && p.edit !== null ? interruptedWrite(dir, id, p.edit) : null;
  // The native rules are planned before anything is written, so a refusal (not a pure command
  // pattern, a settings file that does not parse) writes nothing. Planned on the checks file as
  // drafted: a leave_shadow's check is read from it.
  const native = nativeDeny === null ? null : planNativeDeny(p, nativeDeny.project, resuming ? { dir } : null);
  const withNative = (st: ProposalState) => (native === null ? st : { ...st, nativeDeny: native });
  if (faults.checkOnly) {
    // --dry-run: the same refusals, nothing written (the edit's file may lie outside any scratch copy).
    if (interrupted === null && p.edit !== null) edited(p.edit, id);
    return withNative(s);
  }
  let record: { backup: string | null; after_hash: string | null } = interrupted ?? { backup: null, after_hash: null };
  if (interrupted === null) {
    // The edit is computed (and the file checked) before anything is recorded: a refusal writes nothing.
    const change = p.edit !== null ? edited(p.edit, id) : null;
    if (!resuming) decide(dir, id, "approved", at);
    if (p.edit !== null && change !== null) {
      const { before, after } = change;
      const backups = join(dir, "backups");
      mkdirSync(backups, { recursive: true });
      const backup = join(backups, `${id}${before === null ? ".absent" : ".bak"}`);
      if (before === null) writeFileSync(backup, "");
      else copyFileSync(p.edit.file, backup);
      writeFileAtomic(p.edit.file, after);
      record = { backup, after_hash: sha256(after) };
    }
  }
  const nativeRecord = native === null ? undefined : writeNativeDeny(dir, id, native, sha256);
  if (faults.crashAfter === "write") throw new LadderError("BAD_INPUT", "injected crash after the write");
  patchOnce(dir, p, at);
  if (faults.crashAfter === "patch") throw new LadderError("BAD_INPUT", "injected crash after the patch");
  decide(dir, id, "applied", at, nativeRecord === undefined ? record : { ...record, native_deny: nativeRecord });
  return withNative(need(dir, id));
}

/** The rule's patch for an applied proposal, once: a resumed apply does not move the rule twice. */
function patchOnce(dir: string, p: Proposal, at: string): void {
  const set: Record<string, unknown> = {};
  if (p.to_rung !== p.from_rung) set["rung"] = p.to_rung;
  const loc = locationAfter(p);
  if (loc) set["location"] = loc;
  const ledger = openRuleLedger(dir);
  // A new rule enters the ledger unwritten (once, whatever a resumed apply repeats); the patch below writes it.
  if (p.rule !== undefined && !ledger.read().ledger.rules.has(p.rule_id)) ledger.append([p.rule]);
  const done = ledger.read().ledger.rules.get(p.rule_id)?.patches.some((x) => x.because === p.id) ?? false;
  if (Object.keys(set).length > 0 && !done) ledger.append([{ kind: "patch", v: 1, rule_id: p.rule_id, at, set, because: p.id }]);
}

/**
 * A resumed apply whose backup was written and whose file is already the edit of the backup
 * (the run died after writing it): nothing to write again; returns what "applied" records.
 * Null when the file is still as drafted (apply normally) or was edited by hand (edited()
 * then refuses, naming the hashes).
 */
function interruptedWrite(dir: string, id: string, edit: Edit): { backup: string; after_hash: string } | null {
  const bak = join(dir, "backups", `${id}.bak`);
  const absent = join(dir, "backups", `${id}.absent`);
  const backup = existsSync(bak) ? bak : existsSync(absent) ? absent : null;
  const now = fileHash(edit.file);
  if (backup === null || now === edit.file_hash) return null;
  const expected = sha256(applyEdit(edit, backup === absent ? null : readFileSync(bak, "utf8")).after);
  return now === expected ? { backup, after_hash: expected } : null;
}

/** Undoes an applied proposal: the file as it was before, the rule back at its rung. */
export function undo(dir: string, id: string, at: string, opts: { checkOnly?: boolean } = {}): { native_deny?: NativeDenyRecord } {
  const s = need(dir, id);
  const applied = [...s.decisions].reverse().find((d) => d.status === "applied");
  if (s.status !== "applied" || !applied || applied.backup === null || s.proposal.edit === null) {
    throw new LadderError("NOT_PENDING", `proposal ${id} is ${s.status}; only an applied proposal can be undone`, { expected: "applied", found: s.status });
  }
  const file = s.proposal.edit.file;
  const now = fileHash(file);
  if (now !== applied.after_hash) throw new LadderError("FILE_CHANGED", `${file} changed after proposal ${id} was applied; not restored`, { expected: applied.after_hash ?? "?", found: now ?? "no file" });
  if (!existsSync(applied.backup)) throw new LadderError("NO_BACKUP", `the backup of ${file} is missing`, { expected: applied.backup, found: "nothing" });
  // The native deny rules the apply wrote: their removal is worked out (and refused) before anything is written.
  const native = applied.native_deny;
  const nativeAnswer = native === undefined ? null : undoNativeDeny(native, sha256);
  const said = native === undefined ? {} : { native_deny: native };
  if (opts.checkOnly) return said;
  if (applied.backup.endsWith(".absent")) rmSync(file);
  else writeFileAtomic(file, readFileSync(applied.backup, "utf8"));
  if (native !== undefined && nativeAnswer !== null) restoreNativeDeny(native, nativeAnswer);
  decide(dir, id, "undone", at);
  const p = s.proposal;
  const set: Record<string, unknown> = {};
  if (p.to_rung !== p.from_rung) set["rung"] = p.from_rung;
  if (p.location_before !== undefined) set["location"] = p.location_before;
  if (Object.keys(set).length > 0) openRuleLedger(dir).append([{ kind: "patch", v: 1, rule_id: p.rule_id, at, set, because: `undo ${id}` }]);
  return said;
}

export { CHECKS_FILE };

/** The checks installed in a ladder folder (none when checks.json is absent); a malformed file throws CheckFileError. */
export function readInstalledChecks(dir: string): Check[] {
  const file = join(dir, CHECKS_FILE);
  const text = readOrNull(file);
  return text === null ? [] : parseChecksFile(text, file);
}

/** One line saying what an edit does, for the approval table, the morning report and the reviewer's prompt. */
export function editSummary(edit: Edit | null): string {
  if (edit === null) return "no file edited (the owner's words are needed)";
  if (edit.kind === "text") return `${edit.before === null ? "append to" : "replace one unit in"} ${edit.file}: ${JSON.stringify(edit.after.trim().split("\n").at(-1) ?? "")}`;
  if (edit.kind === "remove") return `remove one line from ${edit.file}: ${JSON.stringify(edit.unit.trim())}`;
  if (edit.check) return `install check ${edit.check.id} (${edit.check.mode}) in ${edit.file}: ${edit.check.tools === "*" ? "every tool" : edit.check.tools.join("/")} when ${edit.check.conditions.map((c) => `${c.not ? "not " : ""}${c.field} ${c.operator} ${JSON.stringify(c.pattern)}`).join(" and ")}${edit.check.project ? ` (project ${edit.check.project})` : ""}`;
  if (edit.activate) return `activate check ${edit.activate} in ${edit.file}`;
  if (edit.deactivate) return `switch check ${edit.deactivate} back to shadow in ${edit.file}`;
  return `remove check ${edit.uninstall ?? "?"} from ${edit.file}`;
}

/**
 * The native deny rules still standing for a check: those recorded by applied (not undone)
 * proposals. A loosening of the check leaves them in place, so approve says so.
 */
export function standingNativeDeny(dir: string, checkId: string): Array<{ id: string; record: NativeDenyRecord }> {
  const out: Array<{ id: string; record: NativeDenyRecord }> = [];
  for (const [id, s] of readProposals(dir)) {
    if (s.status !== "applied") continue;
    const rec = [...s.decisions].reverse().find((d) => d.status === "applied")?.native_deny;
    if (rec !== undefined && rec.check === checkId && rec.rules.length > 0) out.push({ id, record: rec });
  }
  return out;
}
