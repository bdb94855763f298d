import { RunReceiptSchema, type Counts, type Loop, type RunReceipt, type StageName } from "../../../schemas/daily.js";
import { DAY_MS, dayOf } from "./ids.js";
import { appendJsonl, readJsonl } from "./jsonl.js";

/**
 * Run receipts (`<stateDir>/runs.jsonl`): one line per run of every loop and every stage,
 * empty runs included. The report reads them back to tell a night that found nothing
 * (a receipt with zero counts) from a night that never ran (no receipt at all).
 *
 * Example: `missingRunDays(receipts, now, 7)` with daily receipts on Nov 24-27 and 29, and
 * now = Nov 30 -> ["2026-11-28"] (today is not judged; days before the first receipt are not).
 */
export function writeRunReceipt(path: string, receipt: RunReceipt): void {
  appendJsonl(path, [RunReceiptSchema.parse(receipt)]);
}

export function readRunReceipts(path: string): { receipts: RunReceipt[]; bad: number } {
  const { rows, bad } = readJsonl(path, RunReceiptSchema);
  return { receipts: rows, bad };
}

export function makeReceipt(opts: {
  runId: string;
  loop: Loop;
  stage: StageName;
  startedMs: number;
  endedMs: number;
  ok: boolean;
  skipped?: boolean;
  error?: unknown;
  counts?: Counts;
  dryRun: boolean;
}): RunReceipt {
  const err = opts.error;
  let code: string | null = null;
  let message: string | null = null;
  if (err !== undefined && err !== null) {
    const e = err as { code?: unknown; name?: unknown; message?: unknown };
    code = typeof e.code === "string" ? e.code : typeof e.name === "string" ? e.name : "Error";
    message = (typeof e.message === "string" ? e.message : String(err)).slice(0, 200);
  }
  return {
    schema: "run/1",
    run_id: opts.runId,
    loop: opts.loop,
    stage: opts.stage,
    started_at: new Date(opts.startedMs).toISOString(),
    ended_at: new Date(opts.endedMs).toISOString(),
    duration_ms: Math.max(0, opts.endedMs - opts.startedMs),
    ok: opts.ok,
    skipped: opts.skipped ?? false,
    error_code: code,
    error: message,
    counts: opts.counts ?? {},
    dry_run: opts.dryRun,
  };
}

/**
 * Days (YYYY-MM-DD, UTC) among the `windowDays` days before today with no receipt of the
 * daily loop's own run (`stage: "run"`, dry runs not counted). Days before the first
 * receipt of any run ever written are not judged (Errata was not running yet). A day with a receipt
 * of a failed run is not missing: it ran and says so.
 */
export function missingRunDays(receipts: readonly RunReceipt[], nowMs: number, windowDays: number, loop: Loop = "daily"): string[] {
  const days = new Set<string>();
  let first: string | null = null;
  for (const r of receipts) {
    if (r.dry_run) continue;
    const ms = Date.parse(r.started_at);
    if (!Number.isFinite(ms)) continue;
    const d = dayOf(ms);
    if (first === null || d < first) first = d;
    if (r.loop === loop && r.stage === "run") days.add(d);
  }
  if (first === null) return [];
  const missing: string[] = [];
  for (let i = windowDays; i >= 1; i--) {
    const d = dayOf(nowMs - i * DAY_MS);
    if (d < first) continue;
    if (!days.has(d)) missing.push(d);
  }
  return missing;
}

/** The newest non-dry receipt of a loop's own run, or null. */
export function lastRun(receipts: readonly RunReceipt[], loop: Loop): RunReceipt | null {
  let best: RunReceipt | null = null;
  for (const r of receipts) {
    if (r.loop !== loop || r.stage !== "run" || r.dry_run) continue;
    if (best === null || r.started_at > best.started_at) best = r;
  }
  return best;
}
