/**
 * One proposal of the owner's approval table as text: the lines `errata rules approvals`
 * prints, and the same lines its `--json` carries (`lines`) for the mod's pane, so the owner
 * reads one text wherever they decide: the proposal, its evidence, its edit (a check's pattern
 * among it), the check's replay over the recorded calls, and the reviewer's argument.
 *
 * Example: approvalLines(p, "pending") -> ["pr-3f2a1c9e0b  climb 2 -> 3  claude.tools.pnpm01  [pending]  (climb) ...",
 * "    2026-12-01 'No, use pnpm'", "    edit: install check ... when command regex_match \"(^|[;&|]\\\\s*)npm\\\\b\"",
 * "    replay: fires on 2/2 corrected calls and on 0/40 other recorded calls (0.0%)", "    review: ..."].
 */
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { replayLine } from "./checks-draft.js";
import { editSummary, type Status } from "./proposals.js";

export function approvalLines(p: Proposal, status: Status): string[] {
  const out = [`${p.id}  ${p.type} ${p.from_rung} -> ${p.to_rung}  ${p.rule_id}  [${status}]  (${p.diagnosis}) ${p.why}`];
  for (const e of p.evidence) out.push(`    ${e}`);
  if (p.edit) out.push(`    edit: ${editSummary(p.edit)}`);
  if (p.replay) out.push(`    ${replayLine(p.replay)}`);
  out.push(`    review: ${p.review}`);
  return out;
}
