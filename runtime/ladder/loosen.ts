/**
 * Loosening, only by the owner: `errata rules loosen <rule_id> --why "..."` drafts a `loosen`
 * proposal in the approval table; applying it (the owner's `approve`) moves the rule down as
 * one unit edit with a backup, and `undo` puts it back. Nothing else ever moves a rule down:
 * the budget never drops a rule for being old, and the auditor's one draft (an ask check the
 * owner overrode, overrides.ts) still waits for the owner's approve.
 *
 * What moves, by where the rule lives:
 * - a check (rung 3) in checks.json: an active check goes back to shadow (it stops acting and
 *   keeps watching, so its evidence keeps coming); a check already in shadow is removed. The
 *   rule goes to rung 2 (default) or the rung asked, and back to the text place it had before
 *   it climbed (or unwritten, when it never had one);
 * - a line (rung 1 or 2): the line is removed from its file, and the rule is left unwritten at
 *   rung 0 (a line moves down only by its removal: one edit of one unit, never a second file
 *   written in the same apply; to keep it for one kind of task, loosen it, then write it there).
 *
 * Refusals write nothing: an unknown rule or a rule already at the bottom (exit 2); a rule
 * whose line is not in its file exactly once, i.e. the file was changed by hand (exit 1).
 *
 * Example: loosenProposal(dir, "claude.tools.pnpm01", {why: "npm is fine in docs/"}, ctx) for a
 * rule at rung 3 with active check ladder-claude.tools.pnpm01 -> a proposal 3 -> 2 whose edit
 * switches the check back to shadow.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readJsonl } from "../files/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { RuleLedgerLineSchema, type RuleLocation, type Rung } from "../../schemas/rule-ledger.js";
import type { DraftContext } from "./drafts.js";
import { LadderError } from "./errors.js";
import { openRuleLedger, RULE_LEDGER_FILE } from "./ledger.js";
import { CHECKS_FILE, fileHash, proposalId, readInstalledChecks } from "./proposals.js";
import { OFFLINE_REVIEW } from "./review.js";

/** The rule's last text place before its current one (the ledger is append-only, so its history is all there). */
function earlierTextPlace(dir: string, ruleId: string): RuleLocation | null {
  const places: RuleLocation[] = [];
  for (const l of readJsonl(join(dir, RULE_LEDGER_FILE), RuleLedgerLineSchema).rows) {
    if (l.rule_id !== ruleId) continue;
    if (l.kind === "rule") places.push(l.location);
    else if (l.kind === "patch" && l.set.location !== undefined) places.push(l.set.location);
  }
  return places.filter((p) => p.kind === "text").at(-1) ?? null;
}

export function loosenProposal(dir: string, ruleId: string, opts: { why: string; toRung?: number }, ctx: DraftContext): Proposal {
  if (opts.why.trim() === "") throw new LadderError("BAD_INPUT", "a loosening needs the owner's reason", { expected: '--why "<reason>"', found: "nothing" });
  const rule = openRuleLedger(dir).read().ledger.rules.get(ruleId);
  if (!rule) throw new LadderError("NOT_FOUND", `no rule ${ruleId} in the rule ledger`, { expected: "a rule id from errata rules budget or the ledger", found: ruleId });
  if (rule.rung === 0) throw new LadderError("BAD_INPUT", `rule ${ruleId} is already at the bottom (rung 0)`, { expected: "a rule at rung 1, 2 or 3", found: "rung 0" });
  const loc = rule.location;
  const asked = opts.toRung;
  if (asked !== undefined && (!Number.isInteger(asked) || asked < 0 || asked >= rule.rung)) {
    throw new LadderError("BAD_INPUT", `bad --to-rung for rule ${ruleId} at rung ${rule.rung}`, { expected: `a whole number from 0 to ${rule.rung - 1}`, found: String(asked) });
  }
  const base = { kind: "proposal" as const, v: 1 as const, at: ctx.at, type: "loosen" as const, rule_id: ruleId, from_rung: rule.rung, diagnosis: "the owner's loosening", evidence: [`the owner: ${opts.why.trim()}`], review: OFFLINE_REVIEW, location_before: loc };
  if (loc.kind === "check") {
    const file = join(ctx.ladderDir, CHECKS_FILE);
    const check = readInstalledChecks(ctx.ladderDir).find((c) => c.id === loc.check);
    if (!check) {
      throw new LadderError("NOT_FOUND", `rule ${ruleId}'s check ${loc.check} is not in ${file}`, {
        expected: `check ${loc.check} in checks.json (a hookify rule is loosened in its own .claude/hookify.*.local.md)`,
        found: existsSync(file) ? "no such check" : "no checks.json",
      });
    }
    const to = (asked ?? 2) as Rung;
    const off = check.mode === "shadow";
    const hash = fileHash(file);
    return {
      ...base,
      id: proposalId(ruleId, "loosen", rule.rung, to, [opts.why, hash ?? ""]),
      to_rung: to,
      why: off ? `check ${check.id} is in shadow: remove it; the rule goes to rung ${to}` : `switch check ${check.id} back to shadow (it stops acting, keeps watching); the rule goes to rung ${to}`,
      edit: { kind: "check", file, file_hash: hash, check: null, activate: null, ...(off ? { uninstall: check.id } : { deactivate: check.id }) },
      location_after: earlierTextPlace(dir, ruleId) ?? { kind: "unwritten" },
    };
  }
  if (loc.kind !== "text") throw new LadderError("BAD_INPUT", `rule ${ruleId} is not written anywhere`, { expected: "a rule in a file or a check", found: loc.kind });
  if (asked !== undefined && asked !== 0) {
    throw new LadderError("BAD_INPUT", `a written rule moves down only by removing its line (to rung 0)`, { expected: "--to-rung 0, or no --to-rung", found: String(asked) });
  }
  const text = existsSync(loc.file) ? readFileSync(loc.file, "utf8") : null;
  const head = rule.text.split("\n")[0]!.trim();
  const lines = text === null ? [] : text.split(/(?<=\n)/).filter((l) => l.includes(head));
  if (lines.length !== 1) {
    throw new LadderError("FILE_CHANGED", `rule ${ruleId}'s line is in ${loc.file} ${lines.length} times (changed by hand?); nothing drafted`, { expected: `the line ${JSON.stringify(head)} once`, found: text === null ? "no file" : `${lines.length} lines` });
  }
  const hash = fileHash(loc.file);
  return {
    ...base,
    id: proposalId(ruleId, "loosen", rule.rung, 0, [opts.why, hash ?? ""]),
    to_rung: 0,
    why: `remove the rule's line from ${loc.file}; the rule stays in the ledger, unwritten, at rung 0`,
    edit: { kind: "remove", file: loc.file, file_hash: hash, unit: lines[0]! },
    location_after: { kind: "unwritten" },
  };
}
