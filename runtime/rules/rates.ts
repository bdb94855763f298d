/**
 * A cluster's complaint rate over a window, and each filed cluster's rate before and after its
 * upgrade was applied. The rate is the bucket's failures per judged exchange (per delivered
 * output when the caller joins outputs); its interval is a session-block percentile bootstrap
 * (95%, seeded: the same data give the same interval), since one session's exchanges are not
 * independent. The falsifier fires when the rate over the days after the fix is at or above
 * the rate over as many days before.
 *
 * Example: 12 complaints in 200 judged exchanges before, 2 in 190 after -> `{before: {rate:
 * 0.06, low: 0.03, high: 0.09}, after: {rate: 0.0105, …}, falsifier: "holds"}`.
 */
import { sessionBlockBootstrap, type BlockStatistic } from "../../eval/index.js";
import type { CoverageRecord } from "../../schemas/rules.js";
import type { RateWindow } from "../../schemas/recommendations.js";
import { bucketOf } from "./cluster.js";

export interface RateItem {
  exchange_id: string;
  session_id: string;
  /** YYYY-MM-DD. */
  date: string;
  /** The exchange is one of the bucket's failures. */
  complaint: boolean;
}

export const RATE_RESAMPLES = 2000;
export const RATE_SEED = 1;

/** `day` plus `n` days (YYYY-MM-DD, UTC). */
export function addDays(day: string, n: number): string {
  const t = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) + n * 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** The rate over [since, until) with its interval; a window with nothing judged has rate null. */
export function rateWindow(items: readonly RateItem[], since: string, until: string, per: RateWindow["per"] = "judged_exchange"): RateWindow {
  const inside = items.filter((i) => i.date >= since && i.date < until);
  const complaints = inside.filter((i) => i.complaint).length;
  const sessions = new Set(inside.map((i) => i.session_id)).size;
  const base = { since, until, complaints, denominator: inside.length, per, sessions };
  if (inside.length === 0) return { ...base, rate: null, low: null, high: null };
  const stat: BlockStatistic = {
    names: ["rate"],
    width: 2,
    items: inside.length,
    addItem: (i, w, acc) => {
      acc[0] = (acc[0] ?? 0) + (inside[i]!.complaint ? w : 0);
      acc[1] = (acc[1] ?? 0) + w;
    },
    finish: (s) => [(s[1] ?? 0) > 0 ? (s[0] ?? 0) / (s[1] ?? 1) : null],
  };
  const boot = sessionBlockBootstrap(stat, inside.map((i) => i.session_id), { resamples: RATE_RESAMPLES, seed: RATE_SEED });
  const f = boot.figures[0];
  const r4 = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : Math.round(x * 1e4) / 1e4);
  return { ...base, rate: r4(complaints / inside.length), low: r4(f?.lower), high: r4(f?.upper) };
}

/** The items of one bucket: every judged exchange, marked when it is one of the bucket's failures. */
export function bucketItems(bucket: string, coverage: readonly CoverageRecord[], judged: readonly { exchange_id: string; session_id: string; date: string | null }[]): RateItem[] {
  const inBucket = new Set(coverage.filter((r) => r.fix !== null && !r.before_rule && bucketOf(r) === bucket).map((r) => r.exchange_id));
  return judged.filter((j): j is { exchange_id: string; session_id: string; date: string } => j.date !== null).map((j) => ({ exchange_id: j.exchange_id, session_id: j.session_id, date: j.date, complaint: inBucket.has(j.exchange_id) }));
}

/**
 * The bucket most of the cited exchanges fall in (ties: the first by name), or null when none
 * of them is a bucketed failure: a hand-filed upgrade is rated in that bucket, or not at all.
 */
export function bucketOfCited(cited: readonly string[], coverage: readonly CoverageRecord[]): string | null {
  const byId = new Map(coverage.filter((r) => r.fix !== null && !r.before_rule).map((r) => [r.exchange_id, bucketOf(r)]));
  const counts = new Map<string, number>();
  for (const id of new Set(cited)) {
    const b = byId.get(id);
    if (b !== undefined) counts.set(b, (counts.get(b) ?? 0) + 1);
  }
  let best: string | null = null;
  let n = 0;
  for (const [b, c] of [...counts].sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0))) {
    if (c > n) {
      best = b;
      n = c;
    }
  }
  return best;
}

export type FalsifierState = "holds" | "fires" | "pending";

export interface BeforeAfter {
  pivot: string | null;
  window_days: number;
  before: RateWindow;
  after: RateWindow | null;
  change: number | null;
  falsifier: FalsifierState;
  /** Why the falsifier is pending, in words. */
  pending_why: string | null;
}

/**
 * Before and after a pivot (the day the upgrade was applied). Not applied yet: the before
 * window ends today and the falsifier is pending. The after window is cut at today while it
 * is still open, and the falsifier waits until it is whole.
 */
export function beforeAfter(items: readonly RateItem[], appliedAt: string | null, today: string, days: number): BeforeAfter {
  if (appliedAt === null) {
    return { pivot: null, window_days: days, before: rateWindow(items, addDays(today, -days), addDays(today, 1)), after: null, change: null, falsifier: "pending", pending_why: "not applied yet" };
  }
  const pivot = appliedAt.slice(0, 10);
  const before = rateWindow(items, addDays(pivot, -days), pivot);
  const end = addDays(pivot, days);
  const after = rateWindow(items, pivot, end < addDays(today, 1) ? end : addDays(today, 1));
  const change = before.rate !== null && after.rate !== null ? Math.round((after.rate - before.rate) * 1e4) / 1e4 : null;
  let pending_why: string | null = null;
  if (end > addDays(today, 1)) pending_why = `the ${days} days after ${pivot} are not over`;
  else if (before.rate === null || after.rate === null) pending_why = "nothing judged in one of the windows";
  const falsifier: FalsifierState = pending_why !== null ? "pending" : (after.rate ?? 0) >= (before.rate ?? 0) ? "fires" : "holds";
  return { pivot, window_days: days, before, after, change, falsifier, pending_why };
}
