/**
 * A judge's consistency: the same (exchange, question) asked twice, and how often its verdict
 * (P(yes) at or above the cut) flips between the two asks. One flip rate per question, with a
 * session-cluster Wilson interval (`clusterWilson`: an item is a chance, a flip an incident,
 * the exchange's session the cluster; with sessions of one item the design effect is
 * m/(m−1), the cluster variance's small-sample factor).
 *
 * A pair where either ask is unscored is left out and counted, never read as a flip or a
 * match.
 *
 * Example: 40 items of detect.unhappy, each its own session, 6 flips ->
 * `{question: "detect.unhappy", items: 40, flips: 6, rate: 0.15, low: 0.0699, high: 0.2928}`.
 */
import { CalibrationError } from "./errors.js";
import { clusterWilson } from "./holdout-interval.js";

export interface RepeatedAsk {
  question: string;
  session: string;
  /** P(yes) of each ask; null when that ask was unscored. */
  first: number | null;
  second: number | null;
}

export interface QuestionConsistency {
  question: string;
  items: number;
  flips: number;
  unscored: number;
  sessions: number;
  /** null when no pair was scored (the interval is then [0, 1]). */
  rate: number | null;
  low: number;
  high: number;
  designEffect: number;
  /** Mean |P(yes) first − P(yes) second| over the scored pairs. */
  meanAbsDelta: number | null;
}

export function judgeConsistency(asks: readonly RepeatedAsk[], cut = 0.5, confidence = 0.95): QuestionConsistency[] {
  if (!(cut > 0 && cut < 1)) throw new CalibrationError("BAD_OPTION", "consistency", "a cut in (0, 1)", String(cut));
  if (!(confidence > 0 && confidence < 1)) throw new CalibrationError("BAD_OPTION", "consistency", "a level in (0, 1)", String(confidence));
  const byQuestion = new Map<string, RepeatedAsk[]>();
  for (const a of asks) byQuestion.set(a.question, [...(byQuestion.get(a.question) ?? []), a]);
  const out: QuestionConsistency[] = [];
  for (const [question, rows] of [...byQuestion].sort((a, b) => a[0].localeCompare(b[0]))) {
    const sessions = new Map<string, { incidents: number; chances: number }>();
    let unscored = 0;
    let delta = 0;
    for (const r of rows) {
      if (r.first === null || r.second === null) {
        unscored++;
        continue;
      }
      const s = sessions.get(r.session) ?? { incidents: 0, chances: 0 };
      s.chances++;
      if (r.first >= cut !== r.second >= cut) s.incidents++;
      sessions.set(r.session, s);
      delta += Math.abs(r.first - r.second);
    }
    const items = rows.length - unscored;
    if (items === 0) {
      out.push({ question, items: 0, flips: 0, unscored, sessions: 0, rate: null, low: 0, high: 1, designEffect: 1, meanAbsDelta: null });
      continue;
    }
    const arm = clusterWilson([...sessions.values()], confidence);
    out.push({ question, items, flips: arm.incidents, unscored, sessions: arm.sessions, rate: arm.rate, low: arm.low, high: arm.high, designEffect: arm.designEffect, meanAbsDelta: delta / items });
  }
  return out;
}
