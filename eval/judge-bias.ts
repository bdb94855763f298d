import jStat from "jstat";
import { EvalInputError } from "./errors.js";

/**
 * Judge bias diagnostics: does a judge's error against the gold depend on a covariate (prompt
 * length, reply length, language, session position, corpus)? One test per covariate, then
 * multiplicity-adjusted p-values (Holm and Benjamini-Hochberg) and an effect size each:
 *
 * - numeric covariate: Mann-Whitney U between the items the judge got wrong and those it got
 *   right, two-sided, normal approximation with tie correction and continuity correction
 *   (scipy.stats.mannwhitneyu, method "asymptotic"); effect size the rank-biserial
 *   correlation 2U/(n1 n2) - 1 (> 0: larger values among errors);
 * - categorical covariate: Pearson's chi-square of independence on the level x (error, right)
 *   table, no continuity correction (scipy.stats.chi2_contingency, correction=False); effect
 *   size Cramér's V, with each level's error rate.
 *
 * Items are treated as independent (a session's items are not), so the p-values are
 * optimistic when errors cluster in sessions; the docs say so. Hand-written: jStat gives the
 * distributions, and no npm package carries these tests with tie correction and both
 * adjustments (the references are scipy's, in test/fixtures/judge-bias).
 *
 * Example: errors at prompt lengths [10, 40, 80], right at [5, 7, 9, 12] → U = 11, rank-biserial
 * 0.833, p = 0.1116 (scipy 0.11161).
 */
export interface BiasRow {
  /** The judge disagrees with the gold verdict. */
  error: boolean;
  covariates: Readonly<Record<string, number | string | null>>;
}

export interface NumericTest {
  covariate: string;
  kind: "numeric";
  test: "Mann-Whitney U (two-sided, normal approximation, tie and continuity corrected)";
  errors: number;
  right: number;
  u: number;
  z: number;
  p: number;
  /** Rank-biserial correlation: P(error item larger) - P(smaller). */
  effect: number;
  effectName: "rank-biserial correlation";
  medianErrors: number;
  medianRight: number;
  pHolm: number;
  pBH: number;
}

export interface CategoricalTest {
  covariate: string;
  kind: "categorical";
  test: "Pearson chi-square of independence (no continuity correction)";
  errors: number;
  right: number;
  chi2: number;
  dof: number;
  p: number;
  effect: number;
  effectName: "Cramér's V";
  levels: { level: string; items: number; errors: number; errorRate: number }[];
  pHolm: number;
  pBH: number;
}

export type BiasTest = NumericTest | CategoricalTest;

/** Average ranks (1-based), ties sharing their mean rank, and the tie term sum(t^3 - t). */
function ranks(values: readonly number[]): { r: Float64Array; tie: number } {
  const idx = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const r = new Float64Array(values.length);
  let tie = 0;
  for (let i = 0; i < idx.length; ) {
    let j = i;
    while (j + 1 < idx.length && values[idx[j + 1]!] === values[idx[i]!]) j++;
    const avg = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) r[idx[k]!] = avg;
    const t = j - i + 1;
    tie += t * t * t - t;
    i = j + 1;
  }
  return { r, tie };
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** Mann-Whitney U of x against y (U of x), two-sided asymptotic p as scipy computes it. */
export function mannWhitneyU(x: readonly number[], y: readonly number[]): { u: number; z: number; p: number; effect: number } {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) throw new EvalInputError("EMPTY", "Mann-Whitney U needs both groups", "at least one item in each", `${n1} and ${n2}`);
  const { r, tie } = ranks([...x, ...y]);
  let r1 = 0;
  for (let i = 0; i < n1; i++) r1 += r[i]!;
  const u = r1 - (n1 * (n1 + 1)) / 2;
  const n = n1 + n2;
  const mu = (n1 * n2) / 2;
  const sd = Math.sqrt(((n1 * n2) / 12) * (n + 1 - tie / (n * (n - 1))));
  // scipy: U = max(U1, U2) for the two-sided test, continuity 0.5 toward the mean.
  const big = Math.max(u, n1 * n2 - u);
  const z = sd > 0 ? (big - mu - 0.5) / sd : 0;
  const p = sd > 0 ? Math.min(1, 2 * (1 - jStat.normal.cdf(z, 0, 1))) : 1;
  return { u, z: u >= mu ? z : -z, p, effect: (2 * u) / (n1 * n2) - 1 };
}

/** Pearson chi-square of independence on a table (rows levels, columns outcomes). */
export function chiSquareIndependence(table: readonly (readonly number[])[]): { chi2: number; dof: number; p: number; cramersV: number } {
  const R = table.length;
  const C = table[0]?.length ?? 0;
  const rows = table.map((r) => r.reduce((a, b) => a + b, 0));
  const cols = Array.from({ length: C }, (_, j) => table.reduce((a, r) => a + r[j]!, 0));
  const n = rows.reduce((a, b) => a + b, 0);
  let chi2 = 0;
  for (let i = 0; i < R; i++) for (let j = 0; j < C; j++) {
    const e = (rows[i]! * cols[j]!) / n;
    if (e > 0) chi2 += (table[i]![j]! - e) ** 2 / e;
  }
  const dof = (R - 1) * (C - 1);
  const p = dof > 0 ? 1 - jStat.chisquare.cdf(chi2, dof) : 1;
  const k = Math.min(R, C) - 1;
  return { chi2, dof, p, cramersV: k > 0 && n > 0 ? Math.sqrt(chi2 / (n * k)) : 0 };
}

/** Holm's step-down adjusted p-values (family-wise error). */
export function holm(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
  const out = new Array<number>(m);
  let run = 0;
  order.forEach((i, k) => {
    run = Math.max(run, Math.min(1, (m - k) * p[i]!));
    out[i] = run;
  });
  return out;
}

/** Benjamini-Hochberg step-up adjusted p-values (false discovery rate). */
export function benjaminiHochberg(p: readonly number[]): number[] {
  const m = p.length;
  const order = p.map((_, i) => i).sort((a, b) => p[a]! - p[b]!);
  const out = new Array<number>(m);
  let run = 1;
  for (let k = m - 1; k >= 0; k--) {
    const i = order[k]!;
    run = Math.min(run, (m / (k + 1)) * p[i]!);
    out[i] = Math.min(1, run);
  }
  return out;
}

/**
 * One test per covariate over the rows where it is not null; a covariate's kind is numeric
 * when every non-null value is a number, else categorical. A covariate with no error or no
 * right item among its rows, or a single level, is left out and named in `skipped`.
 */
export function judgeBias(rows: readonly BiasRow[], covariates: readonly string[]): { tests: BiasTest[]; skipped: { covariate: string; why: string }[] } {
  const raw: (Omit<NumericTest, "pHolm" | "pBH"> | Omit<CategoricalTest, "pHolm" | "pBH">)[] = [];
  const skipped: { covariate: string; why: string }[] = [];
  for (const c of covariates) {
    const have = rows.filter((r) => r.covariates[c] !== null && r.covariates[c] !== undefined);
    const errors = have.filter((r) => r.error).length;
    const right = have.length - errors;
    if (errors === 0 || right === 0) {
      skipped.push({ covariate: c, why: `${errors} errors and ${right} right items with a value` });
      continue;
    }
    if (have.every((r) => typeof r.covariates[c] === "number")) {
      const x = have.filter((r) => r.error).map((r) => r.covariates[c] as number);
      const y = have.filter((r) => !r.error).map((r) => r.covariates[c] as number);
      const t = mannWhitneyU(x, y);
      raw.push({ covariate: c, kind: "numeric", test: "Mann-Whitney U (two-sided, normal approximation, tie and continuity corrected)", errors, right, u: t.u, z: t.z, p: t.p, effect: t.effect, effectName: "rank-biserial correlation", medianErrors: median(x), medianRight: median(y) });
    } else {
      const by = new Map<string, [number, number]>();
      for (const r of have) {
        const k = String(r.covariates[c]);
        const cell = by.get(k) ?? [0, 0];
        cell[r.error ? 0 : 1]++;
        by.set(k, cell);
      }
      if (by.size < 2) {
        skipped.push({ covariate: c, why: "a single level" });
        continue;
      }
      const levels = [...by.keys()].sort();
      const t = chiSquareIndependence(levels.map((l) => by.get(l)!));
      raw.push({
        covariate: c, kind: "categorical", test: "Pearson chi-square of independence (no continuity correction)", errors, right, chi2: t.chi2, dof: t.dof, p: t.p, effect: t.cramersV, effectName: "Cramér's V",
        levels: levels.map((l) => { const [e, g] = by.get(l)!; return { level: l, items: e + g, errors: e, errorRate: e / (e + g) }; }),
      });
    }
  }
  const ph = holm(raw.map((t) => t.p));
  const pb = benjaminiHochberg(raw.map((t) => t.p));
  return { tests: raw.map((t, i) => ({ ...t, pHolm: ph[i]!, pBH: pb[i]! }) as BiasTest), skipped };
}
