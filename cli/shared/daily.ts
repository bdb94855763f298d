/**
 * Shared pieces of the daily-loop commands (daily, weekly, enrich, label, triage, report,
 * skills, misses, by-model, impact): wiring the stage context from the command's Io and
 * printing a loop's result, one line per stage or one JSON value.
 *
 * Example line: `enrich   ok    eligible=3 batch=3 enriched=3 malformed=0 (12 ms)`.
 */
import type { CommandContext } from "./command.js";
import { printJson, println, progress, warn } from "./io.js";
import { resolvePaths, type ErrataPaths } from "../../runtime/paths.js";
import { runLoop, type LoopResult, type LoopStage, type StageResult } from "../../runtime/jobs/index.js";
import { wireDaily } from "../../runtime/jobs/index.js";
import { withRunLock } from "../../runtime/files/index.js";
import type { ErrataStore } from "../../runtime/stores/index.js";

export function dailyPaths(ctx: CommandContext): ErrataPaths {
  return resolvePaths(ctx.io.env, ctx.io.cwd);
}

/** `store`: a server's store and tenant the run reads and patches instead of the ledger (errata daily --database). */
export function wireFor(ctx: CommandContext, dryRun: boolean, store?: { store: ErrataStore; tenant: string }) {
  return wireDaily({
    paths: dailyPaths(ctx),
    env: ctx.io.env,
    cwd: ctx.io.cwd,
    now: ctx.io.now,
    dryRun,
    log: (line) => warn(ctx.io, line),
    ...(store ? { store } : {}),
  });
}

/**
 * Runs one stage by hand (`errata enrich`, `label`, `triage`) as a "manual" loop: its run
 * receipt, a live line on stderr's terminal, then one line or one JSON value.
 */
export async function runManualStage(
  ctx: CommandContext,
  stage: ReturnType<typeof wireFor>["ctx"],
  loopStage: LoopStage,
  json: boolean,
): Promise<void> {
  const onStage = liveStagePrinter(ctx, json);
  const loop = () =>
    runLoop([loopStage], {
      loop: "manual",
      nowMs: stage.nowMs,
      runsFile: stage.files.runs,
      dryRun: stage.dryRun,
      ...(onStage ? { onStage } : {}),
    });
  // A stage run by hand patches the ledger as the daily run does: one at a time (the run
  // lock; a second exits 2 naming the holder). A dry run writes nothing and takes no lock.
  const result = stage.dryRun ? await loop() : await withRunLock(dailyPaths(ctx).stateDir, { job: `errata ${loopStage.name}` }, loop);
  finishLoop(ctx, result, json, onStage !== undefined);
}

export function formatCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
}

export function stageLine(r: StageResult): string {
  const status = r.skipped ? "skip" : r.ok ? "ok" : "FAIL";
  const body = r.ok ? formatCounts(r.counts) : `${r.error?.code ?? "Error"}: ${r.error?.message ?? ""}`;
  const notes = r.notes.filter((n) => n !== "skipped");
  return `${r.name.padEnd(7)}  ${status.padEnd(4)}  ${body}${notes.length ? `  [${notes.join("; ")}]` : ""} (${r.duration_ms} ms)`;
}

/** Prints a loop's result and sets exit code 1 when it failed. */
export function finishLoop(ctx: CommandContext, result: LoopResult, json: boolean, printedLive: boolean): void {
  if (json) {
    // A dry run wrote nothing: what it would have written is under its own key.
    const stages = result.dry_run ? result.stages.map((s) => ({ ...s, wrote: {}, would_write: s.wrote })) : result.stages;
    printJson(ctx.io, { ok: result.ok, failed: result.failed, degraded: result.degraded, stages, run_id: result.run_id, dry_run: result.dry_run });
  } else {
    if (!printedLive) for (const s of result.stages) println(ctx.io, stageLine(s));
    const wrote = result.stages.flatMap((s) => Object.entries(s.wrote).map(([k, v]) => `${s.name}.${k}: ${v}`));
    for (const w of wrote) println(ctx.io, `${result.dry_run ? "would write" : "wrote"} ${w}`);
    for (const d of result.degraded) println(ctx.io, `degraded: ${d.file} could not be read (expected ${d.expected}; found ${d.found})`);
    if (result.degraded.length > 0 && result.failed.length === 0) println(ctx.io, `${result.loop} DEGRADED: ${result.degraded.length} file(s) could not be read`);
    else println(ctx.io, result.ok ? `${result.loop} ok${result.failed.length ? ` (advisory failures: ${result.failed.join(", ")})` : ""}` : `${result.loop} FAILED: ${result.failed.join(", ")}`);
  }
  if (!result.ok) ctx.exitCode = 1;
}

/**
 * A bar over a loop's stages (on a terminal only), named after the stage running; composed
 * with the live printer so each finished stage still prints its line.
 */
export function stageProgress(ctx: CommandContext, loop: string, names: readonly string[], then?: (r: StageResult) => void): { onStage: (r: StageResult) => void; done: () => void } {
  const bar = progress(ctx.io, loop, names.length);
  let i = 0;
  bar.note(names[0] ?? "");
  return {
    onStage: (r) => {
      then?.(r);
      i++;
      bar.tick();
      bar.note(names[i] ?? "");
    },
    done: () => bar.done(),
  };
}

export function liveStagePrinter(ctx: CommandContext, json: boolean): ((r: StageResult) => void) | undefined {
  return json ? undefined : (r) => println(ctx.io, stageLine(r));
}

/** The joined view the skills/misses/by-model/impact commands read: errata and the host's files. */
export async function joinedView(ctx: CommandContext) {
  const { ctx: stage } = wireFor(ctx, true);
  const { readHost } = await import("../../runtime/jobs/index.js");
  const view = await stage.ledger.readAll();
  const host = readHost(stage.cfg.hostDir);
  if (!host.present) warn(ctx.io, `errata: no host outputs or receipts found${stage.cfg.hostDir ? ` in ${stage.cfg.hostDir}` : " (set ERRATA_HOST_DIR or host_dir in daily.json)"}`);
  if (host.bad > 0) warn(ctx.io, `errata: ${host.bad} malformed line(s) in the host's files skipped`);
  return { stage, errata: view.errata, host };
}

export function fmtRate(rate: number | null): string {
  return rate === null ? "n/a" : `${(rate * 100).toFixed(1)}%`;
}
