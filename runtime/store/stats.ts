/**
 * Counts over folded errata. Pure.
 *
 * Example: `ledgerStats([bugFromOwner], [])` -> `{ total: 1, unenriched: 1, by_kind: { bug: 1 }, … }`
 */
import type { Erratum } from "../../schemas/erratum.js";
import type { ReadProblem } from "./read-files.js";

export interface LedgerStats {
  total: number;
  unenriched: number;
  product_feedback: number;
  by_system: Record<string, number>;
  by_kind: Record<string, number>;
  by_status: Record<string, number>;
  by_source: Record<string, number>;
  /** YYYY-MM of `ts`, oldest first. */
  by_month: Record<string, number>;
  by_frustration: Record<string, number>;
  /** Ratings people gave (1-10); mean and min are null when there are none. */
  ratings: { count: number; mean: number | null; min: number | null };
  problems: { errors: number; warnings: number };
}

export function ledgerStats(errata: readonly Erratum[], problems: readonly ReadProblem[]): LedgerStats {
  const inc = (m: Record<string, number>, k: string): void => {
    m[k] = (m[k] ?? 0) + 1;
  };
  const s: LedgerStats = {
    total: errata.length,
    unenriched: 0,
    product_feedback: 0,
    by_system: {},
    by_kind: {},
    by_status: {},
    by_source: {},
    by_month: {},
    by_frustration: {},
    ratings: { count: 0, mean: null, min: null },
    problems: {
      errors: problems.filter((p) => p.severity === "error").length,
      warnings: problems.filter((p) => p.severity === "warning").length,
    },
  };
  let ratingSum = 0;
  for (const e of errata) {
    if (e.enrichment === null) s.unenriched += 1;
    if (e.target === "product") s.product_feedback += 1;
    inc(s.by_system, e.system);
    inc(s.by_kind, e.kind);
    inc(s.by_status, e.status);
    inc(s.by_source, e.source);
    inc(s.by_month, e.ts.slice(0, 7));
    if (e.frustration !== null) inc(s.by_frustration, String(e.frustration));
    if (e.rating !== null) {
      s.ratings.count += 1;
      ratingSum += e.rating;
      s.ratings.min = s.ratings.min === null ? e.rating : Math.min(s.ratings.min, e.rating);
    }
  }
  if (s.ratings.count > 0) s.ratings.mean = ratingSum / s.ratings.count;
  s.by_month = Object.fromEntries(Object.entries(s.by_month).sort(([a], [b]) => a.localeCompare(b)));
  return s;
}
