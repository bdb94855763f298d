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
import { isAbsolute, join } from "node:path";
import type { RuleIndex, RuleLoad, RuleSource } from "../../schemas/rules.js";
import type { RulePatch, Rung, RuleRow } from "../../schemas/rule-ledger.js";
import { openRuleLedger, type LedgerRule } from "./ledger.js";

const RUNG_OF_LOAD: Record<RuleLoad, Rung> = { always: 2, "on-demand": 1, "path-scoped": 1, check: 3, "not-loaded": 0 };

/**
 * The file as a session would load it: a project file under the project folder (where
 * sessions run, which may differ from where the files were indexed), a user file under
 * `home`; null when neither can be said.
 */
export function sourceFileAbs(src: RuleSource | undefined, home: string | null): string | null {
  if (src === undefined) return null;
  if (src.path.startsWith("~/")) return home === null ? null : join(home, src.path.slice(2));
  if (isAbsolute(src.path)) return src.path;
  return src.project === null ? null : join(src.project, src.path);
}

export function ruleRowsForIndex(index: RuleIndex, known: ReadonlySet<string>, at: string, home: string | null = null): RuleRow[] {
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
      project: src?.project ?? null,
      file_abs: sourceFileAbs(src, home),
    });
  }
  return out;
}

/** Patches giving rules synced before rules carried a project their project and file, from the index. */
export function projectPatches(index: RuleIndex, rules: ReadonlyMap<string, LedgerRule>, at: string, home: string | null): RulePatch[] {
  const sources = new Map(index.sources.map((s) => [s.source, s]));
  const out: RulePatch[] = [];
  for (const u of index.units) {
    const r = rules.get(u.id);
    if (r === undefined || r.project !== undefined || r.origin !== "index") continue;
    const src = sources.get(u.source);
    out.push({ kind: "patch", v: 1, rule_id: u.id, at, set: { project: src?.project ?? null, file_abs: sourceFileAbs(src, home) }, because: "the rule index says which project the rule belongs to" });
  }
  return out;
}

/**
 * Brings the rule ledger in the ladder folder up to the rule index: appends a `rule` line for
 * every unit it does not hold yet (the nightly auditor and `errata rules audit` both start so).
 * Returns how many were added.
 */
export function syncIndexRules(dir: string, index: RuleIndex | null, at: string, home: string | null = null): number {
  if (index === null) return 0;
  const ledger = openRuleLedger(dir);
  const known = ledger.read().ledger.rules;
  const rows = ruleRowsForIndex(index, new Set(known.keys()), at, home);
  const patches = projectPatches(index, known, at, home);
  if (rows.length + patches.length > 0) ledger.append([...rows, ...patches]);
  return rows.length;
}
