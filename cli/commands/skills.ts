/**
 * `errata skills`: per-skill complaint rates over the outputs the host delivered (complaints
 * resolve to outputs through `context.output_ids`; detected rows never count).
 *
 * Example: `errata skills --since 2026-11-01` -> `release-notes  outputs 40  complaints 3  rate 7.5%`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../command.js";
import { fmtRate, joinedView } from "../daily-common.js";
import { printJson, println } from "../io.js";
import { parseSince } from "../ledger-common.js";
import { DAY_MS } from "../../runtime/jobs/daily/ids.js";
import { skillRates } from "../../runtime/jobs/daily/joins.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("skills")
    .description("Per-skill complaint rates over delivered outputs")
    .option("--since <date>", "window start (YYYY-MM-DD; default 30 days ago)")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nExample:\n  $ errata skills --since 2026-11-01 --json")
    .action(async (opts: { since?: string; json?: boolean }) => {
      const now = ctx.io.now();
      const since = parseSince(opts.since);
      const sinceMs = since !== undefined ? Date.parse(since) : now - 30 * DAY_MS;
      const { errata, host } = await joinedView(ctx);
      const rows = skillRates(errata, host, sinceMs, now + 1);
      if (opts.json) {
        printJson(ctx.io, { since: new Date(sinceMs).toISOString(), until: new Date(now).toISOString(), skills: rows });
        return;
      }
      if (rows.length === 0) println(ctx.io, "no outputs or complaints in the window");
      for (const r of rows) println(ctx.io, `${r.skill.padEnd(24)}  outputs ${String(r.outputs).padStart(6)}  complaints ${String(r.complaints).padStart(4)}  rate ${fmtRate(r.rate)}`);
    });
}
