/**
 * `errata report`: Errata's own state, told once: counts of the last seven days by system
 * and kind (detected rows excluded), entries stuck in new or enriched over 48 hours, days
 * with no daily run receipt, landed fixes that raised their skill's complaint rate. Writes
 * the events and `state.json`; `--dry-run` computes them and writes nothing. Exit 1 when a
 * day has no daily run receipt.
 *
 * Example: `errata report --dry-run --json` -> `{"state": {...}, "events": [...], "dry_run": true}`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { formatCounts, wireFor } from "../shared/daily.js";
import { printJson, println } from "../shared/io.js";
import { runReport } from "../../runtime/jobs/index.js";
import { makeReceipt, writeRunReceipt } from "../../runtime/jobs/index.js";
import { runId } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";
import { join, resolve } from "node:path";
import { readHost } from "../../runtime/jobs/index.js";
import { gatherPulse, renderPulse } from "../../runtime/pages/index.js";
import { holdoutFromDir, ladderDir, lineHoldoutFromDir, pulseHoldout, pulseLineHoldout } from "../../runtime/ladder/index.js";
import { writeFileAtomic } from "../../runtime/files/index.js";
import { resolvePaths } from "../../runtime/paths.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("report")
    .description("Count the last seven days, find stuck entries and missing runs, emit events and state")
    .option("--json", "print one JSON value")
    .option("--dry-run", "compute the state and events, write and emit nothing")
    .option("--html", "also write the Pulse page: one self-contained HTML file, ids and counts only")
    .option("--out <file>", "with --html: the page's file (default: <reports>/pulse.html)")
    .addHelpText("after", examples(["errata report", "errata report --json --dry-run", "errata report --html --out pulse.html"]))
    .action(async (opts: { json?: boolean; dryRun?: boolean; html?: boolean; out?: string }) => {
      const { ctx: stage } = wireFor(ctx, opts.dryRun === true);
      const start = stage.nowMs();
      let out: Awaited<ReturnType<typeof runReport>>;
      try {
        out = await runReport(stage);
      } catch (err) {
        if (!stage.dryRun) {
          writeRunReceipt(stage.files.runs, makeReceipt({ runId: runId(start, "manual"), loop: "manual", stage: "report", startedMs: start, endedMs: stage.nowMs(), ok: false, error: err, dryRun: false }));
        }
        throw err;
      }
      if (!stage.dryRun) {
        writeRunReceipt(stage.files.runs, makeReceipt({ runId: runId(start, "manual"), loop: "manual", stage: "report", startedMs: start, endedMs: stage.nowMs(), ok: true, counts: out.counts, dryRun: false }));
      }
      const { state, events } = out.result;
      let pulse: string | null = null;
      if (opts.html) {
        // The Pulse page (runtime/pages): the state just computed, with the joins beside it.
        const view = await stage.ledger.readAll();
        // The randomised holdout, disclosed on the page whenever a check or a rule line is opted in (ids and counts).
        const ladder = ladderDir(ctx.io.env, ctx.io.cwd);
        const holdout = [...holdoutFromDir(ladder).map(pulseHoldout), ...lineHoldoutFromDir(ladder).map(pulseLineHoldout)];
        const data = gatherPulse({ errata: view.errata, state, host: readHost(stage.cfg.hostDir), v4Dir: resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir, promotedFile: stage.files.promoted, warn: stage.log, holdout });
        pulse = opts.out ? resolve(ctx.io.cwd, opts.out) : join(stage.files.reportsDir, "pulse.html");
        if (!stage.dryRun) writeFileAtomic(pulse, await renderPulse(data));
      }
      if (opts.json) printJson(ctx.io, { state, events, dry_run: stage.dryRun, ...(pulse !== null ? { html: pulse } : {}) });
      else {
        println(ctx.io, `last ${state.counts.window_days} days: ${state.counts.total} entries (${state.counts.detected_excluded} detected rows not counted)`);
        for (const [k, v] of Object.entries(state.counts.by_system_kind).sort()) println(ctx.io, `  ${k}: ${v}`);
        println(ctx.io, `stuck in new/enriched over ${stage.cfg.config.stuck_hours} h: ${state.stuck.count}${state.stuck.count ? ` (${state.stuck.ids.slice(0, 5).join(", ")}${state.stuck.count > 5 ? ", …" : ""})` : ""}`);
        println(ctx.io, state.missing_run_days.length ? `ALARM: no daily run receipt on ${state.missing_run_days.join(", ")}` : "daily run receipts: none missing");
        for (const e of events) println(ctx.io, `${stage.dryRun ? "would emit" : "emitted"} ${e.severity} ${e.kind} ${formatCounts(e.counts)}`);
        println(ctx.io, `${stage.dryRun ? "would write" : "wrote"} ${stage.files.state}`);
        if (pulse !== null) println(ctx.io, `${stage.dryRun ? "would write" : "wrote"} ${pulse}`);
      }
      if (state.missing_run_days.length > 0) ctx.exitCode = 1;
    });
}
