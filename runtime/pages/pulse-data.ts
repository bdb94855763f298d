import { existsSync } from "node:fs";
import type { ReportState } from "../../schemas/daily.js";
import type { Erratum } from "../../schemas/erratum.js";
import { findMisses, skillRates, type HostData } from "../jobs/index.js";
import { judgmentsReport, openJudgments, v4Files } from "../judgments/index.js";

/**
 * What the Pulse page shows, gathered once: ids and counts only, never an entry's text (the
 * report stage's promise). Counts by month and system/kind over the whole ledger (detected
 * rows excluded), the report's state (window counts, stuck entries, days without a daily run),
 * per-skill complaint rates over delivered outputs, false passes, the v4 shadow figures under
 * the promoted cuts, the most-broken rules by id, and the randomised holdout's checks with
 * their held-out session ids (disclosed whenever one is on).
 */
export interface PulseData {
  generated_at: string;
  state: ReportState;
  months: { month: string; key: string; n: number }[];
  skills: { skill: string; outputs: number; complaints: number; rate: number | null }[];
  misses: { false_passes: { erratum_id: string; output_id: string; skill: string | null }[]; caught: number; unchecked: number; ambiguous: number; unresolved: number; considered: number };
  v4: {
    exchanges: number;
    composed: number;
    failures: number;
    reported: number;
    unreported: number;
    diagnosed: number;
    classes: { class_id: string; count: number; reported: number; unreported: number }[];
    sessions_with_failure: number;
    mean_session_rate: number | null;
    synthetic: { exchanges: number; failures: number; planted: number; found: number; missed: number } | null;
    judge: string | null;
    /** Where the cuts came from (the same chooser as every report); the page shows only `cuts_source`, since an origin can name a local file. */
    cuts_origin: string;
    cuts_source: string;
    /** Unscored answers by reason code (closed codes, never the free-text detail). */
    unscored: { code: string; count: number }[];
  } | null;
  rules: { rule_id: string; source: string; count: number; sessions: number; judged_in_view: number }[] | null;
  /** The randomised holdout, disclosed: each opted-in check, its evidence and the held-out session ids (empty: none opted in). */
  holdout: PulseHoldout[];
  host_present: boolean;
}

/** One opted-in check (ids and counts; the CLI reads it from the ladder: runtime/ladder/holdout.ts). */
export interface PulseHoldout {
  check: string;
  one_in: number;
  acting: { incidents: number; chances: number; sessions: number };
  held_out: { incidents: number; chances: number; sessions: number };
  difference: { value: number; low: number; high: number } | null;
  held_out_sessions: string[];
}

export interface PulseInput {
  errata: readonly Erratum[];
  state: ReportState;
  host: HostData;
  v4Dir: string;
  promotedFile: string;
  warn: (line: string) => void;
  /** The ladder's holdout rows, gathered by the caller (the pages sit below the ladder). */
  holdout?: PulseHoldout[];
}

export function gatherPulse(input: PulseInput): PulseData {
  const counted = input.errata.filter((e) => e.source !== "detected");
  const byMonth = new Map<string, number>();
  for (const e of counted) {
    const k = `${e.ts.slice(0, 7)}\u0000${e.system}/${e.kind}`;
    byMonth.set(k, (byMonth.get(k) ?? 0) + 1);
  }
  const months = [...byMonth].map(([k, n]) => ({ month: k.split("\u0000")[0]!, key: k.split("\u0000")[1]!, n })).sort((a, b) => a.month.localeCompare(b.month) || a.key.localeCompare(b.key));
  const skills = skillRates(input.errata, input.host, -Infinity, Infinity).map((r) => ({ skill: r.skill, outputs: r.outputs, complaints: r.complaints, rate: r.rate }));
  const m = findMisses(input.errata, input.host);
  const misses = { ...m, false_passes: m.false_passes.map((f) => ({ erratum_id: f.erratum_id, output_id: f.output_id, skill: f.skill })) };
  let v4: PulseData["v4"] = null;
  let rules: PulseData["rules"] = null;
  if (existsSync(v4Files(input.v4Dir).exchanges)) {
    // The very report `errata v4 report` prints on this folder (runtime/judgments), cut down to ids and counts.
    const j = openJudgments({ v4Dir: input.v4Dir, cuts: { promoted: { file: input.promotedFile } }, warn: input.warn });
    const report = judgmentsReport(j, { warn: input.warn });
    const judge = j.judge;
    v4 = {
      exchanges: report.exchanges,
      composed: report.composed,
      failures: report.failures,
      reported: report.reported,
      unreported: report.unreported,
      diagnosed: report.diagnosed,
      classes: report.classes.map((c) => ({ class_id: c.class_id, count: c.count, reported: c.reported, unreported: c.unreported })),
      sessions_with_failure: report.session_rates.sessions_with_failure,
      mean_session_rate: report.session_rates.mean_rate,
      synthetic: report.synthetic ? { exchanges: report.synthetic.exchanges, failures: report.synthetic.failures, planted: report.synthetic.planted, found: report.synthetic.found, missed: report.synthetic.missed } : null,
      judge: judge ? `${judge.lane}/${judge.model}` : null,
      cuts_origin: report.cuts_origin,
      cuts_source: j.cuts.source,
      unscored: report.unscored.reasons.map((r) => ({ code: r.code, count: r.count })),
    };
    const section = report.most_broken_rules ?? null;
    // Ids and counts only: a rule's text and its exemplars (the person's words) stay out (docs/pages.md says why).
    rules = section ? section.rows.map((r) => ({ rule_id: r.rule_id, source: r.source, count: r.count, sessions: r.sessions, judged_in_view: r.judged_in_view })) : null;
  }
  return { generated_at: input.state.generated_at, state: input.state, months, skills, misses, v4, rules, holdout: input.holdout ?? [], host_present: input.host.present };
}
