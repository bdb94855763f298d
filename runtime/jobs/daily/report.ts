import type { Event, ReportCounts, ReportState, RunReceipt, Upgrade } from "../../../schemas/daily.js";
import type { Erratum } from "../../../schemas/erratum.js";
import { isTenantRow } from "./config.js";
import type { StageContext, StageOutput } from "./context.js";
import { stageOutput } from "./context.js";
import { appendEvents } from "./events.js";
import { readHost, type HostData } from "./host.js";
import { DAY_MS } from "./ids.js";
import { landedImpacts, type LandedImpact } from "./impact.js";
import { lastRun, missingRunDays, readRunReceipts } from "./receipts.js";
import { readReportState, writeReportState } from "./state.js";
import { readUpgrades } from "./upgrades.js";

/**
 * The report: Errata's own state, told once a day. Counts of the last `windowDays` days by
 * system and kind (detected rows excluded), entries stuck in new or enriched for more than
 * `stuckHours` (backfill, detected and tenant rows are not part of that pipeline), days
 * with no receipt of the daily run, and landed fixes that raised their skill's complaint
 * rate. It emits one roll-up event (medium while anything is stuck, low otherwise), one
 * medium event when a day has no daily receipt, and one high event the first day a landed
 * fix is seen to have raised its skill's rate; the same counts go to `state.json`.
 * Only counts and ids leave: never entry text. A dry run computes and writes nothing.
 *
 * Example state: `{schema: "errata-state/1", counts: {total: 14, by_system_kind:
 * {"assistant/complaint": 9, ...}, ...}, stuck: {count: 2, ids: ["er-…", "er-…"]},
 * missing_run_days: ["2026-11-28"], regressions_alerted: ["up-20261101-3c2a1b"], ...}`
 */
export interface ReportInput {
  errata: readonly Erratum[];
  ledgerWarnings: number;
  receipts: readonly RunReceipt[];
  upgrades: readonly Upgrade[];
  host: HostData;
  previous: ReportState | null;
  nowMs: number;
  windowDays: number;
  stuckHours: number;
  /** Kinds the enrich stage takes (new entries of other kinds are not stuck: nothing moves them). */
  pipelineKinds: readonly string[];
  /** Days on each side of a landed fix for the impact comparison. */
  impactDays: number;
}

export interface ReportResult {
  state: ReportState;
  events: Event[];
  regressions: LandedImpact[];
}

const NOT_IN_PIPELINE = new Set(["backfill", "detected"]);
const MAX_IDS = 200;

export function countWindow(errata: readonly Erratum[], nowMs: number, windowDays: number): ReportCounts {
  const since = nowMs - windowDays * DAY_MS;
  const bySystemKind: Record<string, number> = {};
  const byStatus: Record<string, number> = {};
  let total = 0;
  let detected = 0;
  for (const e of errata) {
    const ms = Date.parse(e.ts);
    if (!(ms >= since && ms <= nowMs)) continue;
    if (e.source === "detected") {
      detected++;
      continue;
    }
    total++;
    const key = `${e.system}/${e.kind}`;
    bySystemKind[key] = (bySystemKind[key] ?? 0) + 1;
    byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
  }
  return {
    window_days: windowDays,
    since: new Date(since).toISOString(),
    until: new Date(nowMs).toISOString(),
    total,
    by_system_kind: bySystemKind,
    by_status: byStatus,
    detected_excluded: detected,
  };
}

/**
 * Entries the daily run should have moved and did not, oldest first: new entries of a kind
 * it enriches, or enriched ones (triage closes every enriched entry), older than
 * `stuckHours`; backfill, detected and tenant rows are not part of that pipeline.
 */
export function stuckEntries(errata: readonly Erratum[], nowMs: number, stuckHours: number, pipelineKinds: readonly string[]): Erratum[] {
  const cutoff = nowMs - stuckHours * 3_600_000;
  const kinds = new Set(pipelineKinds);
  return errata
    .filter(
      (e) =>
        ((e.status === "new" && kinds.has(e.kind)) || e.status === "enriched") &&
        !NOT_IN_PIPELINE.has(e.source) &&
        !isTenantRow(e) &&
        Date.parse(e.ts) < cutoff,
    )
    .sort((a, b) => a.ts.localeCompare(b.ts) || a.id.localeCompare(b.id));
}

export function computeReport(input: ReportInput): ReportResult {
  const { nowMs } = input;
  const ts = new Date(nowMs).toISOString();
  const counts = countWindow(input.errata, nowMs, input.windowDays);
  const stuck = stuckEntries(input.errata, nowMs, input.stuckHours, input.pipelineKinds);
  const missing = missingRunDays(input.receipts, nowMs, input.windowDays, "daily");
  const alerted = new Set(input.previous?.regressions_alerted ?? []);
  const regressions = landedImpacts(input.errata, input.host, input.upgrades, input.impactDays, nowMs).filter((r) => r.raised);
  const events: Event[] = [];
  events.push({
    schema: "event/1",
    ts,
    source: "errata",
    kind: "errata.rollup",
    severity: stuck.length > 0 ? "medium" : "low",
    counts: {
      total: counts.total,
      stuck: stuck.length,
      missing_run_days: missing.length,
      detected_excluded: counts.detected_excluded,
      ledger_warnings: input.ledgerWarnings,
      ...counts.by_system_kind,
    },
    ids: stuck.slice(0, MAX_IDS).map((e) => e.id),
  });
  if (missing.length > 0) {
    events.push({ schema: "event/1", ts, source: "errata", kind: "errata.run-missing", severity: "medium", counts: { days: missing.length }, ids: missing });
  }
  const newlyAlerted: string[] = [];
  for (const r of regressions) {
    if (alerted.has(r.upgrade_id)) continue;
    newlyAlerted.push(r.upgrade_id);
    events.push({
      schema: "event/1",
      ts,
      source: "errata",
      kind: "errata.fix-regressed",
      severity: "high",
      counts: { before_outputs: r.before.outputs, before_complaints: r.before.complaints, after_outputs: r.after.outputs, after_complaints: r.after.complaints },
      ids: [r.upgrade_id],
    });
  }
  const last = lastRun(input.receipts, "daily");
  const state: ReportState = {
    schema: "errata-state/1",
    generated_at: ts,
    counts,
    stuck: { count: stuck.length, ids: stuck.slice(0, MAX_IDS).map((e) => e.id) },
    missing_run_days: missing,
    last_daily_run: last?.started_at ?? null,
    regressions_alerted: [...alerted, ...newlyAlerted].sort(),
    ledger_warnings: input.ledgerWarnings,
  };
  return { state, events, regressions };
}

export async function runReport(ctx: StageContext, opts: { windowDays?: number; impactDays?: number } = {}): Promise<StageOutput & { result: ReportResult }> {
  const view = await ctx.ledger.readAll();
  const upgrades = readUpgrades(ctx.files.upgrades).upgrades;
  // The host's files are only needed to judge landed fixes; a year of outputs is not read for nothing.
  const anyLanded = upgrades.some((u) => (u.status === "applied" || u.status === "verified") && u.skill !== null && u.applied_at !== null);
  const result = computeReport({
    errata: view.errata,
    ledgerWarnings: view.warnings,
    receipts: readRunReceipts(ctx.files.runs).receipts,
    upgrades,
    host: anyLanded ? readHost(ctx.cfg.hostDir) : readHost(null),
    previous: readReportState(ctx.files.state),
    nowMs: ctx.nowMs(),
    windowDays: opts.windowDays ?? ctx.cfg.config.report_days,
    stuckHours: ctx.cfg.config.stuck_hours,
    pipelineKinds: ctx.cfg.config.enrich.kinds,
    impactDays: opts.impactDays ?? 14,
  });
  if (!ctx.dryRun) {
    appendEvents(ctx.files.events, result.events);
    writeReportState(ctx.files.state, result.state);
  }
  const s = result.state;
  return {
    ...stageOutput(
      { total: s.counts.total, stuck: s.stuck.count, missing_run_days: s.missing_run_days.length, events: result.events.length, regressions: result.regressions.length },
      s.missing_run_days.length > 0 ? [`no daily run receipt on ${s.missing_run_days.join(", ")}`] : [],
      { state: ctx.files.state, events: ctx.files.events },
    ),
    result,
  };
}
