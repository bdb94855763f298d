/**
 * The attention budget of the always-loaded file: a fixed size (default 200 lines, the
 * memory documentation's own target), the most harmful slips first (incidents x severity).
 * A rule leaves the file only when a stronger rung carries it (an active check), never for
 * being old; an exempt rule (rare but critical) never leaves for want of incidents. Only the
 * owner may loosen a rule: this code proposes moves, it never deletes a line.
 *
 * Example: budgetReport(text of 230 lines, rules) -> {lines: 230, budget: 200, over: 30,
 * ranked: [...], wouldMove: ["claude.tools.pnpm01 (carried by active check ladder-...)"]}.
 */
import type { Check } from "../ladder-formats/index.js";
import type { LedgerRule } from "./ledger.js";

export const DEFAULT_BUDGET = 200;

export interface BudgetReport {
  file: string;
  lines: number;
  budget: number;
  over: number;
  /** Rules of the file, most harmful first: [rule_id, harm]. */
  ranked: Array<{ rule_id: string; harm: number; incidents: number; exempt: boolean }>;
  /** Rules a stronger rung carries: the ladder would move them out (with the owner's yes). */
  wouldMove: string[];
  /** Rules kept whatever their count: exempt or with incidents. */
  keep: string[];
}

export function harm(rule: LedgerRule): number {
  return rule.incidents.reduce((s, i) => s + i.severity, 0);
}

export function budgetReport(file: string, text: string, rules: readonly LedgerRule[], checks: readonly Check[], budget = DEFAULT_BUDGET): BudgetReport {
  const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
  const inFile = rules.filter((r) => text.includes(r.text.split("\n")[0]!.trim()));
  const ranked = inFile.map((r) => ({ rule_id: r.rule_id, harm: harm(r), incidents: r.incidents.length, exempt: r.exempt })).sort((a, b) => b.harm - a.harm || a.rule_id.localeCompare(b.rule_id));
  const active = new Map(checks.filter((c) => c.mode === "active" && c.rule_id).map((c) => [c.rule_id!, c.id]));
  const wouldMove = inFile.filter((r) => active.has(r.rule_id)).map((r) => `${r.rule_id} (carried by active check ${active.get(r.rule_id)})`);
  const keep = inFile.filter((r) => !active.has(r.rule_id) && (r.exempt || r.incidents.length > 0)).map((r) => r.rule_id);
  return { file, lines, budget, over: Math.max(0, lines - budget), ranked, wouldMove, keep };
}
