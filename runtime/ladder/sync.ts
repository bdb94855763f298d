/**
 * The rule ledger's rows for the rule index's units: one `rule` line per unit the ledger does
 * not hold yet, its rung read from how Claude Code loads its file (every turn: 2; for one
 * kind of task, `paths:` or a subfolder: 1; a hookify check: 3; loaded by nothing, e.g. a
 * note found only by search: 0) and its place (file and section). Nothing already in the
 * ledger is touched: the ledger's rung may be ahead of the file after an approved climb.
 *
 * Example: ruleRowsForIndex(index, new Set(), "2026-12-01T00:00:00Z") -> [{kind: "rule",
 * rule_id: "claude.git.1b7c4e", rung: 2, location: {kind: "text", file: "CLAUDE.md", section: "Git"}, ...}].
 */
import type { RuleIndex, RuleLoad } from "../../schemas/rules.js";
import type { Rung, RuleRow } from "../../schemas/rule-ledger.js";
import { openRuleLedger } from "./ledger.js";

const RUNG_OF_LOAD: Record<RuleLoad, Rung> = { always: 2, "on-demand": 1, "path-scoped": 1, check: 3, "not-loaded": 0 };

export function ruleRowsForIndex(index: RuleIndex, known: ReadonlySet<string>, at: string): RuleRow[] {
  const sources = new Map(index.sources.map((s) => [s.source, s]));
  const out: RuleRow[] = [];
  for (const u of index.units) {
    if (known.has(u.id)) continue;
    const src = sources.get(u.source);
    const load = src?.load ?? "not-loaded";
    out.push({
      kind: "rule",
      v: 1,
      rule_id: u.id,
      at,
      text: u.text,
      why: null,
      when: u.scope ? `when touching ${u.scope.join(", ")}` : null,
      when_not: null,
      rung: RUNG_OF_LOAD[load],
      location: load === "check" ? { kind: "check", check: `hookify:${u.id}` } : { kind: "text", file: src?.path ?? u.source, section: u.heading_path.length > 0 ? u.heading_path.join(" > ") : null },
      origin: "index",
      keywords: [],
      witness: null,
      exempt: false,
    });
  }
  return out;
}

/**
 * Brings the rule ledger in the ladder folder up to the rule index: appends a `rule` line for
 * every unit it does not hold yet (the nightly auditor and `errata rules audit` both start so).
 * Returns how many were added.
 */
export function syncIndexRules(dir: string, index: RuleIndex | null, at: string): number {
  if (index === null) return 0;
  const ledger = openRuleLedger(dir);
  const rows = ruleRowsForIndex(index, new Set(ledger.read().ledger.rules.keys()), at);
  if (rows.length > 0) ledger.append(rows);
  return rows.length;
}
