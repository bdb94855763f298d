/**
 * The self-healing doctrine the writer follows for a covered rule, its placement rules (the
 * doctrine checks asked over them only flag), and the binding ladder a rule climbs.
 *
 * Example: `rungOf(unit, index)` for a line of CLAUDE.md -> `{current: 2, current_name:
 * "read on every turn", next: 3, next_name: "a check that runs before the action"}`.
 */
import type { RuleIndex, RuleUnit } from "../../schemas/rules.js";
import type { Rung } from "../../schemas/recommendations.js";

/** What the writer is told for a covered rule, in order of preference. */
export const SELF_HEALING_DOCTRINE: readonly string[] = [
  "A covered rule that keeps losing needs enforcing, not restating.",
  "Propose a hook or check only for a checkable property of an artifact (a file, a command, a diff) or for an irreversible act (a push, a deletion, a payment).",
  "Otherwise propose the doctrine change that fixes why the rule loses: it is not loaded where it matters, another line contradicts it, it is vague, or it is buried.",
  "Otherwise name no target: set target and change to null.",
  "Write the change as a negative constraint where you can (\"Do not ...\").",
];

/** The placement rules: where a fix may live. Asked as doctrine questions, they only flag. */
export const PLACEMENT_RULES: readonly string[] = [
  "A check that runs in the assistant's tool path is deterministic: it never calls a model.",
  "A hook or check is only for a checkable property of an artifact or an irreversible act; judgement stays in the instruction files.",
  "A rule for one kind of task lives in a path-scoped rules file, not in the file read on every turn.",
  "The file read on every turn stays within its attention budget: a new line there displaces the least harmful one.",
];

export const RUNG_NAMES: readonly string[] = [
  "a note found by search",
  "a line in the file for one kind of task",
  "read on every turn",
  "a check that runs before the action",
];

/**
 * A rule's rung from how Claude Code loads its source: a check (hookify) is rung 3, an
 * always-loaded file rung 2, a path-scoped or on-demand one rung 1, a file not loaded rung 0
 * (found only by search). The next rung is one up; a check has none.
 */
export function rungOf(unit: RuleUnit, index: RuleIndex): Rung {
  const load = index.sources.find((s) => s.source === unit.source)?.load ?? "not-loaded";
  const current = load === "check" ? 3 : load === "always" ? 2 : load === "path-scoped" || load === "on-demand" ? 1 : 0;
  const next = current < 3 ? current + 1 : null;
  return { current, current_name: RUNG_NAMES[current] ?? "", next, next_name: next === null ? null : (RUNG_NAMES[next] ?? null) };
}
