import type { Counts, Loop, StageName } from "../../../schemas/daily.js";
import type { DamagedFile, StageOutput } from "./context.js";
import { runId as makeRunId } from "./ids.js";
import { makeReceipt, writeRunReceipt } from "./receipts.js";

/**
 * Runs a loop's stages in order, each fault-isolated: a stage that throws is recorded (its
 * receipt says ok: false with the error's code) and the next stage still runs. Every stage
 * writes a receipt, skipped and empty ones included, and the loop writes its own receipt
 * (`stage: "run"`) last. A dry run writes no receipt.
 *
 * `ok` is false when any stage failed, except stages marked `advisory` (the v4 pass: its
 * failure is logged and never changes the job's exit code).
 *
 * A loop is also not ok when it ran `degraded`: a month or archive of the ledger could not
 * be read (the stages went on with the rest, and `degraded` names each file).
 *
 * Example: stages mine (throws), enrich, report -> `{ok: false, failed: ["mine"], stages:
 * [{name: "mine", ok: false, error: {code: "Error", ...}}, {name: "enrich", ok: true, ...}, ...]}`.
 */
export interface LoopStage {
  name: StageName;
  run: () => Promise<StageOutput>;
  skip?: boolean;
  /** A failure is reported but does not make the loop fail. */
  advisory?: boolean;
}

export interface StageResult {
  name: StageName;
  ok: boolean;
  skipped: boolean;
  duration_ms: number;
  counts: Counts;
  notes: string[];
  wrote: Record<string, string>;
  error: { code: string; message: string } | null;
}

export interface LoopResult {
  ok: boolean;
  failed: StageName[];
  stages: StageResult[];
  run_id: string;
  loop: Loop;
  dry_run: boolean;
  /** Files the run could not read (file, expected, found); empty when none. */
  degraded: DamagedFile[];
}

export interface LoopOptions {
  loop: Loop;
  nowMs: () => number;
  runsFile: string;
  dryRun: boolean;
  /** Called after each stage (the CLI prints one line per stage). */
  onStage?: (r: StageResult) => void;
  /** After the stages: the files the run could not read (a failure here is not one more). */
  degraded?: () => Promise<DamagedFile[]>;
}

function errorInfo(err: unknown): { code: string; message: string } {
  const e = err as { code?: unknown; name?: unknown; message?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : typeof e?.name === "string" ? e.name : "Error";
  const message = typeof e?.message === "string" ? e.message : String(err);
  return { code, message: message.slice(0, 200) };
}

export async function runLoop(stages: readonly LoopStage[], opts: LoopOptions): Promise<LoopResult> {
  const loopStart = opts.nowMs();
  const id = makeRunId(loopStart, opts.loop);
  const results: StageResult[] = [];
  const receipt = (stage: StageName, start: number, r: Omit<StageResult, "name" | "duration_ms">): void => {
    if (opts.dryRun) return;
    try {
      writeRunReceipt(
        opts.runsFile,
        makeReceipt({
          runId: id,
          loop: opts.loop,
          stage,
          startedMs: start,
          endedMs: opts.nowMs(),
          ok: r.ok,
          skipped: r.skipped,
          error: r.error === null ? undefined : r.error,
          counts: r.counts,
          dryRun: opts.dryRun,
        }),
      );
    } catch {
      // A receipt that cannot be written must not stop the loop; the missing receipt is itself the alarm.
    }
  };
  for (const stage of stages) {
    const start = opts.nowMs();
    let r: Omit<StageResult, "name" | "duration_ms">;
    if (stage.skip) {
      r = { ok: true, skipped: true, counts: {}, notes: ["skipped"], wrote: {}, error: null };
    } else {
      try {
        const out = await stage.run();
        r = { ok: true, skipped: false, counts: out.counts, notes: out.notes, wrote: out.wrote, error: null };
      } catch (err) {
        r = { ok: false, skipped: false, counts: {}, notes: [], wrote: {}, error: errorInfo(err) };
      }
    }
    receipt(stage.name, start, r);
    const result: StageResult = { name: stage.name, duration_ms: Math.max(0, opts.nowMs() - start), ...r };
    results.push(result);
    opts.onStage?.(result);
  }
  const failed = results.filter((r) => !r.ok).map((r) => r.name);
  const advisory = new Set(stages.filter((s) => s.advisory).map((s) => s.name));
  let degraded: DamagedFile[] = [];
  try {
    degraded = opts.degraded ? await opts.degraded() : [];
  } catch {
    degraded = [];
  }
  const stagesOk = failed.every((n) => advisory.has(n));
  const ok = stagesOk && degraded.length === 0;
  const totals: Counts = { stages: results.length, failed: failed.length, skipped: results.filter((r) => r.skipped).length };
  receipt("run", loopStart, {
    ok,
    skipped: false,
    counts: totals,
    notes: [],
    wrote: {},
    error: ok ? null : stagesOk ? { code: "DEGRADED", message: `unreadable: ${degraded.map((d) => d.file).join(", ")}` } : { code: "STAGE_FAILED", message: `failed: ${failed.join(", ")}` },
  });
  return { ok, failed, stages: results, run_id: id, loop: opts.loop, dry_run: opts.dryRun, degraded };
}
