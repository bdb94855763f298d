/**
 * A synthetic history for the before/after rates of a filed cluster: judged exchanges over
 * `days` days before and after a pivot (the day the fix was applied), each in its own session
 * of a few exchanges, each a failure of the cluster's bucket with probability `rateBefore`
 * before the pivot and `rateAfter` from it on. Seeded (mulberry32): the same options give the
 * same history. Everything in it is synthetic and says so (`synthetic: true`).
 *
 * Example: `ruleHistory({seed: 1, pivot: "2026-11-15", days: 14, perDay: 20, rateBefore: 0.2,
 * rateAfter: 0.05, bucket: "rule:claude.tools.abc123"})` -> 560 judged exchanges, about 56
 * failures before the pivot and 14 after.
 */
import { mulberry32 } from "../../../core/mulberry32.js";
import type { CoverageRecord } from "../../../schemas/rules.js";

export interface RuleHistoryOptions {
  seed: number;
  /** YYYY-MM-DD. */
  pivot: string;
  days: number;
  /** Judged exchanges per day. */
  perDay: number;
  /** Exchanges per session (a session's exchanges fall on one day). */
  perSession?: number;
  rateBefore: number;
  rateAfter: number;
  /** `rule:<id>` for a covered rule's cluster. */
  ruleId: string;
}

export interface RuleHistory {
  judged: Array<{ exchange_id: string; session_id: string; date: string; synthetic: true }>;
  coverage: CoverageRecord[];
}

function dayAt(pivot: string, offset: number): string {
  const t = Date.UTC(Number(pivot.slice(0, 4)), Number(pivot.slice(5, 7)) - 1, Number(pivot.slice(8, 10))) + offset * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

function hex16(n: number): string {
  return n.toString(16).padStart(16, "0");
}

export function ruleHistory(o: RuleHistoryOptions): RuleHistory {
  const random = mulberry32(o.seed);
  const perSession = o.perSession ?? 4;
  const judged: RuleHistory["judged"] = [];
  const coverage: CoverageRecord[] = [];
  let n = 0;
  for (let d = -o.days; d < o.days; d++) {
    const date = dayAt(o.pivot, d);
    const rate = d < 0 ? o.rateBefore : o.rateAfter;
    for (let i = 0; i < o.perDay; i++) {
      const id = `ex-${hex16(++n)}`;
      const session = `synthetic-history-${o.seed}-${date}-${Math.floor(i / perSession)}`;
      judged.push({ exchange_id: id, session_id: session, date, synthetic: true });
      if (random() >= rate) continue;
      coverage.push({
        schema: "rule-coverage/1",
        exchange_id: id,
        session_id: session,
        date,
        failure_class: "broke_standing_rule",
        severity: 2,
        component: "npm",
        synthetic: true,
        candidates: [{ rule_id: o.ruleId, rank: 1, score: 3, status: "scored", p_yes: 0.9, reason: null }],
        covering: o.ruleId,
        fix: "enforce_rule",
        before_rule: false,
        cut: 0.5,
        cut_origin: "synthetic history",
        judge: { lane: "embedded", model: "synthetic" },
      });
    }
  }
  return { judged, coverage };
}
