/**
 * Drafting a repair from a diagnosis: the proposal the owner will see. A climb is one rung:
 * 0 -> 1 a line in `.claude/rules/<slug>.md` (created with `paths:` when missing), 1 -> 2 a
 * line appended to the project's CLAUDE.md, 2 -> 3 a check in shadow in checks.json. Other
 * diagnoses draft a `repair` proposal with no edit (the owner's words are needed: which of two
 * contradicting rules wins, how to say a vague rule concretely). A check is drafted by code
 * from the rule: its witness when it reads a tool field, else a "never X" the rule says
 * (a Bash command running X is denied); with neither, the proposal asks the owner for the
 * conditions (no edit).
 *
 * The reviewer lane (another model family) argues against each proposal; offline it does not
 * run, and `review` says so.
 *
 * Example: draftCheck({rule_id: "r", text: "Use pnpm, never npm."}) -> {id: "ladder-r", tools: ["Bash"],
 * conditions: [{field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b"}], action: "deny", mode: "shadow", ...}.
 */
import { join } from "node:path";
import type { Check } from "../ladder-formats/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import type { DiagnosisResult } from "./diagnose.js";
import type { LedgerRule } from "./ledger.js";
import { CHECKS_FILE, fileHash, proposalId } from "./proposals.js";
import { OFFLINE_REVIEW } from "./review.js";
import { checkMessage, correctedFromIncidents, draftFromEvidence, type RecordedCall } from "./checks-draft.js";

export { checkMessage };

export { OFFLINE_REVIEW };

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");


export function draftCheck(rule: LedgerRule): Check | null {
  const id = `ladder-${rule.rule_id}`.replace(/[^A-Za-z0-9_.:-]/g, "-");
  const w = rule.witness;
  if (w && w.field !== "reply" && !w.broken_when_absent) {
    return { id, rule_id: rule.rule_id, tools: w.field === "command" ? ["Bash"] : ["Edit", "Write", "MultiEdit"], conditions: [{ field: w.field, operator: "regex_match", pattern: w.pattern }], action: "deny", message: checkMessage(rule.text), mode: "shadow" };
  }
  // The name after "never": dots inside it are kept (node.js), a sentence's full stop is not.
  const never = /\b(?:never|don't|do not)\s+(?:use|run|call)?\s*`?([A-Za-z][\w-]*(?:\.[\w-]+)*)`?/i.exec(rule.text);
  if (never) {
    return { id, rule_id: rule.rule_id, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: `(^|[;&|]\\s*)${escapeRe(never[1]!)}\\b` }], action: "deny", message: checkMessage(rule.text), mode: "shadow" };
  }
  return null;
}

export const slug = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 40) || "rule";

export interface DraftContext {
  ladderDir: string;
  /** The project a climb edits when the rule's incidents and the rule itself name none (null: such a climb is not drafted). */
  projectDir: string | null;
  at: string;
  /** The recorded tool calls of a project (null: every project's), which a drafted check is replayed over before it is proposed. */
  recorded?: (project: string | null) => RecordedCall[];
}

/** The project a climb of `rule` edits: its newest incident's session's project, else the rule's own, else the context's. */
export function projectOfRule(rule: LedgerRule, ctx: DraftContext): string | null {
  const fromIncidents = [...rule.incidents].reverse().find((i) => typeof i.project === "string")?.project;
  return fromIncidents ?? rule.project ?? ctx.projectDir;
}

export function draftProposal(rule: LedgerRule, d: DiagnosisResult, ctx: DraftContext): Proposal | null {
  if (d.diagnosis === "too_few" || d.diagnosis === "top") return null;
  const base = { kind: "proposal" as const, v: 1 as const, at: ctx.at, rule_id: rule.rule_id, from_rung: rule.rung, diagnosis: d.diagnosis, evidence: d.evidence, review: OFFLINE_REVIEW };
  if (d.diagnosis !== "climb" || d.to === null) {
    return { ...base, id: proposalId(rule.rule_id, "repair", rule.rung, rule.rung, d.evidence), type: "repair", to_rung: rule.rung, why: d.repair, edit: null };
  }
  const id = proposalId(rule.rule_id, "climb", rule.rung, d.to, d.evidence);
  const line = `- ${rule.text.trim()}\n`;
  const project = projectOfRule(rule, ctx);
  if (project === null && d.to < 3) {
    return { ...base, id: proposalId(rule.rule_id, "repair", rule.rung, rule.rung, d.evidence), type: "repair", to_rung: rule.rung, why: `${d.repair}: but no project is known for its corrections (their sessions' folder held no indexed project): run the audit with --project to say which`, edit: null };
  }
  if (d.to === 1) {
    const file = join(project!, ".claude", "rules", `${slug(rule.text)}.md`);
    const hash = fileHash(file);
    const after = hash === null ? `---\npaths:\n  - "**/*"\n---\n\n${line}` : line;
    return { ...base, id, type: "climb", to_rung: 1, why: d.repair, edit: { kind: "text", file, file_hash: hash, before: null, after } };
  }
  if (d.to === 2) {
    const file = join(project!, "CLAUDE.md");
    return { ...base, id, type: "climb", to_rung: 2, why: d.repair, edit: { kind: "text", file, file_hash: fileHash(file), before: null, after: line } };
  }
  const drafted = draftFromEvidence(rule, correctedFromIncidents(rule.incidents), ctx.recorded?.(project) ?? [], project);
  const file = join(ctx.ladderDir, CHECKS_FILE);
  if (drafted.check === null) {
    return { ...base, id, type: "new_check", to_rung: 2, why: `a check would carry this rule, but code could not draft one that passes (${drafted.why}): approve it with --command-regex, --path-glob or --hookify to say its conditions (docs/ladder.md)`, edit: null };
  }
  const check = drafted.check;
  return { ...base, id, type: "climb", to_rung: 3, why: `${d.repair}: check ${check.id} watches in shadow until the gate and the owner let it act`, edit: { kind: "check", file, file_hash: fileHash(file), check, activate: null }, replay: drafted.replay };
}

/** A shadow check that passed the gate: the proposal to let it act. */
export function draftLeaveShadow(rule: LedgerRule, checkId: string, verdictLine: string, ctx: DraftContext): Proposal {
  const file = join(ctx.ladderDir, CHECKS_FILE);
  return {
    kind: "proposal",
    v: 1,
    id: proposalId(rule.rule_id, "leave_shadow", 3, 3, [checkId, verdictLine]),
    at: ctx.at,
    type: "leave_shadow",
    rule_id: rule.rule_id,
    from_rung: rule.rung,
    to_rung: rule.rung,
    diagnosis: "gate passed",
    why: `check ${checkId} passed the shadow gate: let it act`,
    evidence: [verdictLine],
    edit: { kind: "check", file, file_hash: fileHash(file), check: null, activate: checkId },
    review: OFFLINE_REVIEW,
  };
}
