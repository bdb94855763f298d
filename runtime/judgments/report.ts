import type { Cuts } from "../../composers/index.js";
import { quantileSorted } from "../../eval/index.js";
import { CLASS_IDS, type ClassId, MODE_IDS, type ModeId } from "../../questions/index.js";
import type { Answer, UnscoredReasonCode } from "../../schemas/answer.js";
import type { Label } from "../../schemas/label.js";
import type { JudgeId } from "./judge.js";
import type { Composed } from "./compose.js";
import type { MostBroken } from "./most-broken.js";
import { reasonCodeOf } from "../engine/index.js";

/**
 * The v4 report, computed from composed exchanges (no judge asked): failures split into
 * reported (the ledger already holds an erratum: `exchange.captured`) and unreported, top
 * classes, severity, blame, per-session and per-corpus rates, the v3 single choice beside
 * v4's primary class, and, apart, the synthetic exchanges: planted failures found and
 * missed. Synthetic exchanges never enter the real figures.
 *
 * Example (shape): `{exchanges: 1200, failures: 140, reported: 12, unreported: 128,
 * classes: [{class_id: "off_topic", count: 40, …}, …], synthetic: {planted: 15, found: 11, …}}`.
 */
export interface SessionRate {
  session_id: string;
  corpus: string;
  exchanges: number;
  failures: number;
  rate: number;
}

export interface PlantedOutcome {
  exchange_id: string;
  planted_modes: ModeId[];
  found: boolean;
  modes_found: ModeId[];
}

export interface V4Report {
  schema: "v4-report/1";
  judge: JudgeId | null;
  bank_hash: string;
  cuts: Cuts;
  /** Where the cuts came from (a cuts file, the promoted configuration, the weights' calibrated cuts, or the default 0.5). */
  cuts_origin: string;
  exchanges: number;
  sessions: number;
  /** Exchanges whose detect.unhappy answer is scored (so is_failure is known). */
  composed: number;
  not_composed: number;
  failures: number;
  defects: number;
  reported: number;
  unreported: number;
  /** Defects (failures the assistant caused) and failures whose blame.assistant answer is missing. */
  defect_unknown: number;
  /** Failures with every mode answer scored (so a primary class). */
  diagnosed: number;
  undiagnosed: number;
  classes: { class_id: ClassId; count: number; reported: number; unreported: number }[];
  /** Diagnosed failures by severity (a failure whose severity is undetermined is not counted). */
  severity: { "1": number; "2": number; "3": number };
  blame: Record<"assistant" | "world" | "change_of_mind" | "host", number>;
  session_rates: { sessions_with_failure: number; mean_rate: number | null; median_rate: number | null; top: SessionRate[] };
  corpora: { corpus: string; exchanges: number; composed: number; failures: number; rate: number | null }[];
  v3: { chosen: number; compared: number; agree: number; classes: { class_id: ClassId; count: number }[] };
  /**
   * This judge's unscored answers, by reason code (the answer record's closed union; records
   * without one read it from their detail), most frequent first, each with its most frequent
   * detail as an example.
   */
  unscored: { answers: number; reasons: { code: UnscoredReasonCode; count: number; example: string }[] };
  synthetic: {
    exchanges: number;
    failures: number;
    planted: number;
    found: number;
    missed: number;
    /** Found failures whose planted mode fired as well. */
    mode_found: number;
    /**
     * Synthetic exchanges the generator's plan (its labels.jsonl) covers: 0 when no plan was
     * found, and then planted, found, missed and false alarms are unknown, not zero.
     */
    plan_exchanges: number;
    /** Synthetic exchanges the plan covers, flagged as failures with nothing planted: false alarms. */
    unplanted_flagged: number;
    /** Per planted mode: how many were planted and how many of those were found. */
    by_mode: { mode: ModeId; planted: number; found: number }[];
    outcomes: PlantedOutcome[];
  } | null;
  /**
   * The most-broken rules, when the v4 folder holds a rule index and coverage (set by the
   * caller from `errata rules cover`'s rows; null otherwise): each rule's breaks with what could
   * have been seen beside them.
   */
  most_broken_rules?: MostBroken | null;
}

/**
 * Planted failures, from labels on synthetic exchanges: a `mode.<id>` label that is true
 * plants that mode; a true `detect.unhappy` alone plants a failure with no mode named.
 */
export function plantedFromLabels(labels: readonly Label[], syntheticIds: ReadonlySet<string>): Map<string, ModeId[]> {
  const out = new Map<string, ModeId[]>();
  for (const l of labels) {
    if (!syntheticIds.has(l.exchange_id) || l.value !== true) continue;
    const list = out.get(l.exchange_id) ?? [];
    const mode = l.question.startsWith("mode.") ? l.question.slice(5) : null;
    if (mode !== null && (MODE_IDS as readonly string[]).includes(mode) && !list.includes(mode as ModeId)) list.push(mode as ModeId);
    if (mode !== null || l.question === "detect.unhappy") out.set(l.exchange_id, list);
  }
  return out;
}

/**
 * The generator's plan for the synthetic exchanges among `labels`: what each planted (see
 * `plantedFromLabels`) and which exchanges it speaks about at all (an exchange with nothing
 * planted still has its "no" labels), so "nothing planted here" is told from "no plan".
 */
export function planFromLabels(labels: readonly Label[], syntheticIds: ReadonlySet<string>): { planted: Map<string, ModeId[]>; covered: Set<string> } {
  const covered = new Set<string>();
  for (const l of labels) if (syntheticIds.has(l.exchange_id)) covered.add(l.exchange_id);
  return { planted: plantedFromLabels(labels, syntheticIds), covered };
}

/** The median (eval's type-7 quantile at 0.5: the middle value, or the mean of the middle two); null for no values. */
function median(xs: readonly number[]): number | null {
  return xs.length === 0 ? null : quantileSorted([...xs].sort((a, b) => a - b), 0.5);
}

export function buildReport(
  composed: readonly Composed[],
  opts: {
    judge: JudgeId | null;
    bankHash: string;
    cuts: Cuts;
    cutsOrigin: string;
    planted?: ReadonlyMap<string, ModeId[]>;
    /** Synthetic exchanges the plan covers (default: those in `planted`, or none without it). */
    planCovered?: ReadonlySet<string>;
    topSessions?: number;
    /** The stored answers, to tally this judge's unscored ones by reason. */
    answers?: readonly Answer[];
  },
): V4Report {
  const real = composed.filter((c) => !c.exchange.synthetic);
  const synth = composed.filter((c) => c.exchange.synthetic);
  const failures = real.filter((c) => c.detect?.is_failure === true);
  const diagnosed = failures.filter((c) => c.composition?.primary_class != null);
  const classCount = new Map<ClassId, { count: number; reported: number; unreported: number }>();
  const severity = { "1": 0, "2": 0, "3": 0 };
  for (const c of diagnosed) {
    const comp = c.composition;
    if (comp === null || comp.primary_class === null) continue;
    const row = classCount.get(comp.primary_class) ?? { count: 0, reported: 0, unreported: 0 };
    row.count++;
    if (c.exchange.captured) row.reported++;
    else row.unreported++;
    classCount.set(comp.primary_class, row);
    if (comp.severity !== null && comp.severity >= 1) severity[String(comp.severity) as "1" | "2" | "3"]++;
  }
  const blame = { assistant: 0, world: 0, change_of_mind: 0, host: 0 };
  for (const c of failures) for (const b of c.detect?.blame ?? []) blame[b]++;

  const sessions = new Map<string, SessionRate & { composedN: number }>();
  for (const c of real) {
    const key = `${c.exchange.corpus}\t${c.exchange.session_id}`;
    const s = sessions.get(key) ?? { session_id: c.exchange.session_id, corpus: c.exchange.corpus, exchanges: 0, failures: 0, rate: 0, composedN: 0 };
    s.exchanges++;
    if (c.detect !== null) s.composedN++;
    if (c.detect?.is_failure) s.failures++;
    sessions.set(key, s);
  }
  const rated = [...sessions.values()].filter((s) => s.composedN > 0).map((s) => ({ ...s, rate: s.failures / s.composedN }));
  const rates = rated.map((s) => s.rate);
  const top = rated
    .filter((s) => s.failures > 0)
    .sort((a, b) => b.rate - a.rate || b.failures - a.failures || (a.session_id < b.session_id ? -1 : 1))
    .slice(0, opts.topSessions ?? 5)
    .map(({ session_id, corpus, exchanges, failures: f, rate }) => ({ session_id, corpus, exchanges, failures: f, rate }));

  const corpora = new Map<string, { exchanges: number; composed: number; failures: number }>();
  for (const c of real) {
    const r = corpora.get(c.exchange.corpus) ?? { exchanges: 0, composed: 0, failures: 0 };
    r.exchanges++;
    if (c.detect !== null) r.composed++;
    if (c.detect?.is_failure) r.failures++;
    corpora.set(c.exchange.corpus, r);
  }

  const v3Count = new Map<ClassId, number>();
  let compared = 0;
  let agree = 0;
  for (const c of failures) {
    if (c.v3 === null) continue;
    v3Count.set(c.v3.class_id, (v3Count.get(c.v3.class_id) ?? 0) + 1);
    if (c.composition?.primary_class) {
      compared++;
      if (c.composition.primary_class === c.v3.class_id) agree++;
    }
  }

  let synthetic: V4Report["synthetic"] = null;
  if (synth.length > 0) {
    const planted = opts.planted ?? new Map<string, ModeId[]>();
    const covered = opts.planCovered ?? new Set(planted.keys());
    const outcomes: PlantedOutcome[] = [];
    for (const c of synth) {
      const modes = planted.get(c.exchange.id);
      if (modes === undefined) continue;
      const found = c.detect?.is_failure === true;
      const fired = c.composition?.modes ?? [];
      outcomes.push({ exchange_id: c.exchange.id, planted_modes: modes, found, modes_found: modes.filter((m) => fired.includes(m)) });
    }
    const found = outcomes.filter((o) => o.found);
    const byMode = MODE_IDS.map((mode) => {
      const with_ = outcomes.filter((o) => o.planted_modes.includes(mode));
      return { mode, planted: with_.length, found: with_.filter((o) => o.found).length };
    }).filter((m) => m.planted > 0);
    synthetic = {
      exchanges: synth.length,
      failures: synth.filter((c) => c.detect?.is_failure === true).length,
      planted: outcomes.length,
      found: found.length,
      missed: outcomes.length - found.length,
      mode_found: found.filter((o) => o.modes_found.length > 0).length,
      plan_exchanges: synth.filter((c) => covered.has(c.exchange.id)).length,
      unplanted_flagged: synth.filter((c) => c.detect?.is_failure === true && covered.has(c.exchange.id) && !planted.has(c.exchange.id)).length,
      by_mode: byMode,
      outcomes,
    };
  }

  const unscored = unscoredTally(opts.answers ?? [], opts.judge);

  const composedReal = real.filter((c) => c.detect !== null).length;
  return {
    schema: "v4-report/1",
    judge: opts.judge,
    bank_hash: opts.bankHash,
    cuts: opts.cuts,
    cuts_origin: opts.cutsOrigin,
    exchanges: real.length,
    sessions: sessions.size,
    composed: composedReal,
    not_composed: real.length - composedReal,
    failures: failures.length,
    defects: failures.filter((c) => c.detect?.defect === true).length,
    defect_unknown: failures.filter((c) => c.detect?.defect === null).length,
    reported: failures.filter((c) => c.exchange.captured).length,
    unreported: failures.filter((c) => !c.exchange.captured).length,
    diagnosed: diagnosed.length,
    undiagnosed: failures.length - diagnosed.length,
    classes: CLASS_IDS.filter((id) => classCount.has(id))
      .map((id) => ({ class_id: id, ...(classCount.get(id) as { count: number; reported: number; unreported: number }) }))
      .sort((a, b) => b.count - a.count),
    severity,
    blame,
    session_rates: { sessions_with_failure: rated.filter((s) => s.failures > 0).length, mean_rate: rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null, median_rate: median(rates), top },
    corpora: [...corpora.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([corpus, r]) => ({ corpus, ...r, rate: r.composed > 0 ? r.failures / r.composed : null })),
    v3: {
      chosen: [...v3Count.values()].reduce((a, b) => a + b, 0),
      compared,
      agree,
      classes: CLASS_IDS.filter((id) => v3Count.has(id)).map((id) => ({ class_id: id, count: v3Count.get(id) as number })).sort((a, b) => b.count - a.count),
    },
    unscored,
    synthetic,
  };
}

const pct = (n: number, d: number): string => (d > 0 ? `${((100 * n) / d).toFixed(1)}%` : "n/a");

/** The report as text lines for a terminal. */
export function renderReport(r: V4Report): string[] {
  const lines: string[] = [];
  lines.push(`v4 report (${r.judge ? `${r.judge.lane}/${r.judge.model}` : "no answers yet"}; bank ${r.bank_hash.slice(0, 19)}…)`);
  lines.push(`cuts: ${r.cuts_origin}`);
  lines.push(`exchanges: ${r.exchanges} in ${r.sessions} sessions; composed ${r.composed}, missing answers ${r.not_composed}`);
  lines.push(`failures: ${r.failures} (${pct(r.failures, r.composed)} of composed); defects of the assistant: ${r.defects}, blame unknown: ${r.defect_unknown}`);
  lines.push(`  reported (already in the ledger): ${r.reported}; unreported: ${r.unreported}`);
  lines.push(`  diagnosed (a class): ${r.diagnosed}; no class (mode answers missing): ${r.undiagnosed}`);
  lines.push(`  blame: assistant ${r.blame.assistant}, world ${r.blame.world}, change of mind ${r.blame.change_of_mind}, host ${r.blame.host}`);
  lines.push(`  severity: 1: ${r.severity["1"]}, 2: ${r.severity["2"]}, 3: ${r.severity["3"]}`);
  if (r.classes.length > 0) {
    lines.push("top classes (primary, diagnosed failures):");
    for (const c of r.classes.slice(0, 8)) lines.push(`  ${c.class_id.padEnd(22)} ${String(c.count).padStart(5)}  reported ${c.reported}, unreported ${c.unreported}`);
  }
  lines.push("per corpus:");
  for (const c of r.corpora) lines.push(`  ${c.corpus.padEnd(22)} exchanges ${c.exchanges}, failures ${c.failures} (${pct(c.failures, c.composed)})`);
  const sr = r.session_rates;
  lines.push(`sessions with a failure: ${sr.sessions_with_failure} of ${r.sessions}; failure rate per session: mean ${sr.mean_rate === null ? "n/a" : sr.mean_rate.toFixed(3)}, median ${sr.median_rate === null ? "n/a" : sr.median_rate.toFixed(3)}`);
  if (r.unscored.answers > 0) {
    lines.push(`unscored answers: ${r.unscored.answers} (never counted as no), by reason:`);
    for (const x of r.unscored.reasons) lines.push(`  ${String(x.count).padStart(6)}  ${x.code.padEnd(18)} e.g. ${x.example.replace(/\s+/g, " ").slice(0, 100)}`);
  }
  if (r.most_broken_rules) lines.push(...renderMostBroken(r.most_broken_rules));
  if (r.v3.chosen > 0) lines.push(`v3 single choice: ${r.v3.chosen} failures classed; agrees with v4's primary class on ${r.v3.agree} of ${r.v3.compared}`);
  if (r.synthetic) {
    const s = r.synthetic;
    lines.push(`SYNTHETIC (generated sessions, not real failures): ${s.exchanges} exchanges, ${s.failures} flagged`);
    if (s.plan_exchanges === 0) {
      lines.push("  planted failures: unknown (no generator plan for these exchanges; put its labels.jsonl beside the exchanges file, or pass --labels)");
    } else {
      lines.push(`  planted failures found ${s.found} of ${s.planted}, missed ${s.missed}; planted mode named for ${s.mode_found} of those found`);
      lines.push(`  flagged with nothing planted (false alarms): ${s.unplanted_flagged}${s.plan_exchanges < s.exchanges ? ` (of the ${s.plan_exchanges} exchanges the plan covers)` : ""}`);
    }
    if (s.by_mode.length > 0) lines.push(`  found/planted by mode: ${s.by_mode.map((m) => `${m.mode} ${m.found}/${m.planted}`).join(", ")}`);
  }
  return lines;
}

/** The "Most-broken rules" section: rule, breaks, sessions, severity mix, what was looked at, two exemplars. */
export function renderMostBroken(b: NonNullable<V4Report["most_broken_rules"]>): string[] {
  const lines = [
    `most-broken rules (from ${b.coverage_rows} covered failures of the ${b.failures} these cuts make${b.synthetic_rows > 0 ? `, ${b.synthetic_rows} of them SYNTHETIC` : ""}; rule_covers cut ${b.cut}${b.cut_origin.startsWith("rules.rule_covers from the same cuts") ? ", from the cuts above" : ` (${b.cut_origin})`}):`,
  ];
  if (b.uncovered > 0) lines.push(`  ${b.uncovered} of those failures not covered yet: run errata rules cover`);
  if (b.rows.length === 0) lines.push("  no rule covers a failure yet");
  for (const r of b.rows) {
    lines.push(`  ${r.rule_id}  broken ${r.count}x in ${r.sessions} session${r.sessions === 1 ? "" : "s"} (severity 0/1/2/3: ${r.severity.join("/")}); judged in view: ${r.judged_in_view} exchanges${r.before_rule > 0 ? `; ${r.before_rule} more before the rule existed` : ""}`);
    lines.push(`    rule: ${r.text.replace(/\s+/g, " ").slice(0, 140)}`);
    for (const e of r.exemplars) lines.push(`    e.g. "${e}"`);
  }
  lines.push(`  rules never broken: ${b.unbroken.looked_at} with judged exchanges in view, ${b.unbroken.never_looked_at} never looked at (no judged exchange had their file in view)`);
  return lines;
}

/** A judge's unscored answers by reason code, most frequent first (ties by code), each with its most frequent detail. */
export function unscoredTally(answers: readonly Answer[], judge: JudgeId | null): V4Report["unscored"] {
  const byCode = new Map<UnscoredReasonCode, { count: number; details: Map<string, number> }>();
  let n = 0;
  for (const a of answers) {
    if (a.status !== "unscored" || judge === null || a.lane !== judge.lane || a.model !== judge.model) continue;
    n++;
    const code = a.reason_code ?? reasonCodeOf(a.reason);
    const row = byCode.get(code) ?? { count: 0, details: new Map<string, number>() };
    row.count++;
    row.details.set(a.reason, (row.details.get(a.reason) ?? 0) + 1);
    byCode.set(code, row);
  }
  const reasons = [...byCode.entries()].map(([code, r]) => {
    const example = [...r.details.entries()].sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1))[0]![0];
    return { code, count: r.count, example };
  });
  reasons.sort((a, b) => b.count - a.count || (a.code < b.code ? -1 : 1));
  return { answers: n, reasons };
}
