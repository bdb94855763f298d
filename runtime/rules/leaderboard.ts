/**
 * The most-broken rules: per rule, the failures it covers (those dated before the rule was
 * written are left out: they broke nothing), in how many distinct sessions, the severity mix,
 * two exemplar messages (redacted), and beside every count what could have been seen: how many
 * exchanges of the sessions in which the rule's source was loaded were judged at all, so that
 * a rule is never shown as "0 broken" where nothing was looked at. Sorted by sessions, then
 * count, then id.
 *
 * When was a source loaded in a session: an always-loaded source in every session whose
 * working folder is inside the source's project (in every session for the user's and managed
 * files, and for sources built from texts, which name no project); a path-scoped or folder-scoped source in the sessions whose tool
 * calls name a file its globs match; a hookify check or a file Claude Code does not load in
 * none (a check is not read as text). Sessions with no working folder are not counted.
 *
 * Example: `mostBrokenRules(coverage, index, exchanges, judged, 10)` ->
 * `{rows: [{rule_id: "claude.tooling.4e1a2b", count: 3, sessions: 2, severity: [0, 1, 2, 0], judged_in_view: 41, …}], unbroken: {looked_at: 12, never_looked_at: 3}}`.
 */
import { isAbsolute, relative } from "node:path";
import picomatch from "picomatch";
import type { Exchange } from "../../schemas/exchange.js";
import type { CoverageRecord, RuleIndex, RuleSource } from "../../schemas/rules.js";
import { redactSecrets } from "../privacy/index.js";

export interface BrokenRuleRow {
  rule_id: string;
  text: string;
  source: string;
  count: number;
  sessions: number;
  /** Failures by severity 0, 1, 2, 3 (unknown severity left out). */
  severity: [number, number, number, number];
  exemplars: string[];
  /** Exchanges judged at all in the sessions that had the rule's source in view. */
  judged_in_view: number;
  /** Covered failures dated before the rule existed (not in `count`). */
  before_rule: number;
}

export interface Leaderboard {
  rows: BrokenRuleRow[];
  unbroken: { looked_at: number; never_looked_at: number };
}

const EXEMPLAR_CHARS = 160;

function exemplar(text: string): string {
  const t = redactSecrets(text).text.replace(/\s+/g, " ").trim();
  return t.length > EXEMPLAR_CHARS ? `${t.slice(0, EXEMPLAR_CHARS - 1)}…` : t;
}

function sessionInView(source: RuleSource, exchanges: readonly Exchange[]): boolean {
  if (source.load === "check" || source.load === "not-loaded") return false;
  const root = source.project;
  const inRoot = (cwd: string | null): boolean => {
    if (root === null) return true;
    if (cwd === null) return false;
    const rel = relative(root, cwd);
    return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
  };
  if (!exchanges.some((e) => inRoot(e.cwd))) return false;
  if (source.load === "always" || source.scope === null) return true;
  const match = picomatch(source.scope, { dot: true });
  return exchanges.some((e) =>
    e.tool_calls.some((t) =>
      t.summary.split(/\s+/).some((word) => {
        const p = root !== null && isAbsolute(word) ? relative(root, word) : word;
        return p.length > 0 && match(p);
      }),
    ),
  );
}

export function mostBrokenRules(coverage: readonly CoverageRecord[], index: RuleIndex, exchanges: readonly Exchange[], judged: ReadonlySet<string>, limit: number): Leaderboard {
  const bySession = new Map<string, Exchange[]>();
  for (const e of exchanges) bySession.set(e.session_id, [...(bySession.get(e.session_id) ?? []), e]);
  const sources = new Map(index.sources.map((s) => [s.source, s]));
  const inViewCache = new Map<string, number>();
  const judgedInView = (sourceId: string): number => {
    const hit = inViewCache.get(sourceId);
    if (hit !== undefined) return hit;
    const src = sources.get(sourceId);
    let n = 0;
    if (src !== undefined) {
      for (const list of bySession.values()) {
        if (sessionInView(src, list)) n += list.filter((e) => judged.has(e.id)).length;
      }
    }
    inViewCache.set(sourceId, n);
    return n;
  };
  const byRule = new Map<string, CoverageRecord[]>();
  const before = new Map<string, number>();
  for (const r of coverage) {
    if (r.covering === null) continue;
    if (r.before_rule) before.set(r.covering, (before.get(r.covering) ?? 0) + 1);
    else byRule.set(r.covering, [...(byRule.get(r.covering) ?? []), r]);
  }
  const exById = new Map(exchanges.map((e) => [e.id, e]));
  const rows: BrokenRuleRow[] = [];
  let lookedAt = 0;
  let never = 0;
  for (const u of index.units) {
    const list = byRule.get(u.id) ?? [];
    if (list.length === 0) {
      if (judgedInView(u.source) > 0) lookedAt++;
      else never++;
      continue;
    }
    const severity: [number, number, number, number] = [0, 0, 0, 0];
    for (const r of list) if (r.severity !== null && r.severity >= 0 && r.severity <= 3) severity[r.severity] = (severity[r.severity] ?? 0) + 1;
    rows.push({
      rule_id: u.id,
      text: u.text,
      source: u.source,
      count: list.length,
      sessions: new Set(list.map((r) => r.session_id)).size,
      severity,
      exemplars: list
        .slice(0, 2)
        .map((r) => exById.get(r.exchange_id)?.prompt)
        .filter((p): p is string => p !== undefined)
        .map(exemplar),
      judged_in_view: judgedInView(u.source),
      before_rule: before.get(u.id) ?? 0,
    });
  }
  rows.sort((a, b) => b.sessions - a.sessions || b.count - a.count || (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0));
  return { rows: rows.slice(0, limit), unbroken: { looked_at: lookedAt, never_looked_at: never } };
}
