/**
 * betterleaks' imported rules (imported-rules.ts) as rules the redactor runs beside gitleaks'
 * (gitleaks.ts): each replaces gitleaks' rule of the same id, in that rule's place; the rules
 * gitleaks lacks follow gitleaks' last rule; gitleaks' data stays only where betterleaks
 * has no imported rule. One exception: gitleaks' generic rule is kept, because betterleaks'
 * filter for it needs its tokenizer (failsTokenEfficiency, not evaluated: that generic rule
 * would redact identifiers gitleaks' allowlists keep) and the pre-filter's witness and
 * upstream-verdict.ts read gitleaks' allowlists of it.
 *
 * An imported rule is gated by its keywords (never by a pre-filter witness: the witnesses
 * relax gitleaks' patterns, not betterleaks'), its secret is its secret group (else the first
 * non-empty group, else the match, as gitleaks.ts takes it), and a finding its filter or the
 * file's global filter discards is let through (filter-eval.ts).
 *
 * Example: with betterleaks v1.7.0 imported, `mergeImported(gitleaks, data)` holds 376 + 5
 * rules: betterleaks' 376 text rules, and gitleaks' generic rule and the 4 ids betterleaks
 * reports only as a part of another rule or has not.
 */
import type { ImportedRule, ImportedRulesData } from "./betterleaks-convert.js";
import { filterDiscards, type Finding } from "./filter-eval.js";
import type { GitleaksRule } from "./gitleaks.js";

/** gitleaks' rules kept whatever the import holds (see the file's comment). */
export const KEPT_GITLEAKS_RULES: ReadonlySet<string> = new Set(["generic-api-key"]);

function once<T>(make: () => T): () => T {
  let v: T | undefined;
  return () => (v ??= make());
}

export function importedRuleOf(r: ImportedRule, data: ImportedRulesData): GitleaksRule {
  const body = once(() => ({ reachBack: 0, src: r.src, flags: r.flags, entropy: 0, secretGroup: r.secretGroup ?? 0, wholeMatch: false }));
  const filters = [r.filter, data.global ?? undefined].filter((f) => f !== undefined);
  return {
    id: r.id,
    keywords: r.keywords,
    body,
    re: once(() => new RegExp(r.src, `${r.flags}g`)),
    allow: () => [],
    imported: true,
    discards: (f: Finding) => filters.some((e) => filterDiscards(e, f)),
  };
}

/** gitleaks' rules with the imported ones in (see the file's comment): replaced in place, the new ones after. */
export function mergeImported(gitleaks: readonly GitleaksRule[], data: ImportedRulesData): GitleaksRule[] {
  const byId = new Map(data.rules.filter((r) => !KEPT_GITLEAKS_RULES.has(r.id)).map((r) => [r.id, r]));
  const out: GitleaksRule[] = [];
  for (const g of gitleaks) {
    const r = byId.get(g.id);
    out.push(r === undefined ? g : importedRuleOf(r, data));
    byId.delete(g.id);
  }
  // The engine runs the generic rule apart, after every specific one (engine.ts), wherever it stands here.
  for (const r of byId.values()) out.push(importedRuleOf(r, data));
  return out;
}
