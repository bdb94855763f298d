/**
 * The rules report: the clusters, the day's recommendations (survivors, drops with their
 * reasons, flags), and each filed cluster's rate before and after its upgrade was applied,
 * with intervals; every row resting on synthetic exchanges says so.
 *
 * Example line: `  up-20261201-3fa2b1 rule:claude.tools.4e1a2b (applied 2026-11-20): before
 * 0.06 [0.03, 0.09] (12/200), after 0.01 [0, 0.03] (2/190): falsifier holds`.
 */
import { existsSync } from "node:fs";
import type { Recommendation } from "../../../schemas/recommendations.js";
import { filedRates, readFilings, readQueue, type FiledRateRow, type JudgedItem } from "./filing.js";
import { readClusters, readRecommendations, recommendationFiles, FALSIFIER_DAYS } from "./recommend.js";
import { judgedExchanges, latestCoverage, readAnswers, readCoverage, readExchanges, v4Files } from "../../judgments/index.js";
import type { RateWindow } from "../../../schemas/recommendations.js";

export interface RulesReport {
  date: string;
  judge: { lane: string; model: string } | null;
  clusters: { total: number; rule: number; gap: number };
  survivors: Recommendation[];
  dropped: Recommendation[];
  filed: FiledRateRow[];
  /** Hand-filed upgrades whose cited exchange ids match no bucketed failure: no row. */
  unbucketed: string[];
  days: number;
}

export function rulesReport(opts: { v4Dir: string; exchangeFiles: readonly string[]; upgradesFile: string; today: string; days?: number; warn?: (l: string) => void }): RulesReport {
  const days = opts.days ?? FALSIFIER_DAYS;
  const clusters = existsSync(`${opts.v4Dir}/clusters.json`) ? readClusters(opts.v4Dir) : null;
  const judge = clusters?.judge ?? null;
  const files = recommendationFiles(opts.v4Dir, opts.today);
  const survivors = existsSync(files.survivors) ? readRecommendations(files.survivors, opts.warn) : [];
  const dropped = existsSync(files.dropped) ? readRecommendations(files.dropped, opts.warn) : [];
  const coverage = judge === null ? [] : latestCoverage(readCoverage(opts.v4Dir, opts.warn), judge);
  const present = opts.exchangeFiles.filter((f) => existsSync(f));
  const exchanges = present.length === 0 ? [] : readExchanges(present, opts.warn ? { warn: opts.warn } : {}).rows;
  const answersFile = v4Files(opts.v4Dir).answers;
  const judgedIds = judge !== null && existsSync(answersFile) ? judgedExchanges(readAnswers(answersFile, opts.warn ? { warn: opts.warn } : {}).rows, judge) : new Set<string>();
  const judged: JudgedItem[] = exchanges.filter((e) => judgedIds.has(e.id)).map((e) => ({ exchange_id: e.id, session_id: e.session_id, date: e.prompt_ts?.slice(0, 10) ?? null, synthetic: e.synthetic }));
  const rates = filedRates({ filings: readFilings(opts.v4Dir, opts.warn), queue: readQueue(opts.upgradesFile, opts.warn), coverage, judged, today: opts.today, days });
  const cs = clusters?.clusters ?? [];
  return { date: opts.today, judge, clusters: { total: cs.length, rule: cs.filter((c) => c.kind === "rule").length, gap: cs.filter((c) => c.kind === "gap").length }, survivors, dropped, filed: rates.rows, unbucketed: rates.unbucketed, days };
}

function rate(w: RateWindow | null): string {
  if (w === null) return "-";
  if (w.rate === null) return `nothing judged (${w.since} to ${w.until})`;
  return `${w.rate} [${w.low ?? "?"}, ${w.high ?? "?"}] (${w.complaints}/${w.denominator} per ${w.per.replace("_", " ")}, ${w.sessions} sessions)`;
}

function recLine(r: Recommendation): string {
  const what = r.change === null ? `change: null (${r.change_reason ?? ""})` : `change: ${r.change.replace(/\s+/g, " ").slice(0, 160)}`;
  return `  ${r.fix} #${r.rank} ${r.bucket} (${r.failures} failures, ${r.sessions} sessions${r.synthetic ? ", synthetic" : ""}): target ${r.target ?? "none"}; ${what}`;
}

export function renderRulesReport(r: RulesReport): string[] {
  const out = [`rules report ${r.date}${r.judge ? ` (${r.judge.lane}/${r.judge.model})` : ""}`];
  out.push(`clusters: ${r.clusters.total} (${r.clusters.rule} rule, ${r.clusters.gap} gap)`);
  out.push(`recommendations: ${r.survivors.length} kept, ${r.dropped.length} dropped`);
  for (const s of r.survivors) {
    out.push(recLine(s));
    out.push(`    falsifier: ${s.falsifier.statement}`);
    if (s.flags.length > 0) out.push(`    flags: ${s.flags.join("; ")}`);
  }
  for (const d of r.dropped) out.push(`${recLine(d)}\n    dropped: ${d.dropped.join("; ")}`);
  return [...out, ...renderFiledRates(r)];
}

/** The filed clusters' rates before and after, with intervals. */
export function renderFiledRates(r: Pick<RulesReport, "filed" | "unbucketed" | "days">): string[] {
  const out = [`filed clusters, before and after (${r.days} days each side):`];
  if (r.filed.length === 0) out.push("  none filed yet (errata rules recommend --file)");
  for (const f of r.filed) {
    const when = f.applied_at === null ? `${f.status}, not applied` : `applied ${f.applied_at.slice(0, 10)}`;
    out.push(`  ${f.upgrade_id}${f.hand ? " (filed by hand)" : ""} ${f.bucket} (${when})${f.synthetic ? " [synthetic]" : ""}`);
    out.push(`    before ${rate(f.before)}; after ${rate(f.after)}: falsifier ${f.falsifier}${f.pending_why ? ` (${f.pending_why})` : ""}`);
  }
  if (r.unbucketed.length > 0) out.push(`  hand-filed with cited ids in no bucket (no row): ${r.unbucketed.join(", ")}`);
  return out;
}
