/**
 * `errata by-model`: complaints by the model that wrote the reply (`context.model`), beside
 * the outputs the host delivered with each model. Detected rows never count.
 *
 * Example: `errata by-model --since 2026-11-01` -> `claude-sonnet-4-5  complaints 12  outputs 300  rate 4.0%`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../command.js";
import { fmtRate, joinedView } from "../daily-common.js";
import { printJson, println } from "../io.js";
import { parseSince } from "../ledger-common.js";
import { DAY_MS } from "../../runtime/jobs/daily/ids.js";
import { modelRates } from "../../runtime/jobs/daily/joins.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("by-model")
    .description("Complaints by assistant model, with rates over delivered outputs")
    .option("--since <date>", "window start (YYYY-MM-DD; default 30 days ago)")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ errata by-model --since 2026-11-01")
    .action(async (opts: { since?: string; json?: boolean }) => {
      const now = ctx.io.now();
      const since = parseSince(opts.since);
      const sinceMs = since !== undefined ? Date.parse(since) : now - 30 * DAY_MS;
      const { errata, host } = await joinedView(ctx);
      const rows = modelRates(errata, host, sinceMs, now + 1);
      if (opts.json) {
        printJson(ctx.io, { since: new Date(sinceMs).toISOString(), until: new Date(now).toISOString(), models: rows });
        return;
      }
      if (rows.length === 0) println(ctx.io, "no complaints or outputs in the window");
      for (const r of rows) println(ctx.io, `${r.model.padEnd(28)}  complaints ${String(r.complaints).padStart(4)}  outputs ${String(r.outputs).padStart(6)}  rate ${fmtRate(r.rate)}`);
    });
}
