import type { Command } from "commander";
import type { Erratum } from "../../schemas/erratum.js";
import type { HostData } from "../../runtime/jobs/index.js";
import { DAY_MS } from "../../runtime/jobs/index.js";
import type { CommandContext, Register } from "./command.js";
import { printJson, println } from "./io.js";
import { joinedView } from "./daily.js";
import { parseSince } from "./ledger.js";

/**
 * `errata by-model` and `errata skills` are one command over two joins: complaint rates over
 * the outputs the host delivered in a window (`--since`, default 30 days ago, until now),
 * grouped by the key the join puts on each row. A spec names the command, its join and how a
 * row reads; `rateCommand` builds the rest (window, joined view, `--json` as
 * `{since, until, <key>: rows}`, one line a row, or the empty line).
 *
 * Example: `rateCommand({name: "skills", key: "skills", join: skillRates, …})` registers
 * `errata skills`, which prints `release-notes  outputs 40  complaints 3  rate 7.5%`.
 */
export interface RateCommandSpec<Row> {
  name: string;
  description: string;
  /** The help text after the options (its examples). */
  helpAfter: string;
  /** The key of the rows in the `--json` value. */
  key: string;
  join: (errata: readonly Erratum[], host: HostData, sinceMs: number, untilMs: number) => Row[];
  /** The line printed when the window holds no row. */
  empty: string;
  line: (row: Row) => string;
}

export function rateCommand<Row>(spec: RateCommandSpec<Row>): Register {
  return (program: Command, ctx: CommandContext) => {
    program
      .command(spec.name)
      .description(spec.description)
      .option("--since <date>", "window start (YYYY-MM-DD; default 30 days ago)")
      .option("--json", "print one JSON value")
      .addHelpText("after", spec.helpAfter)
      .action(async (opts: { since?: string; json?: boolean }) => {
        const now = ctx.io.now();
        const since = parseSince(opts.since);
        const sinceMs = since !== undefined ? Date.parse(since) : now - 30 * DAY_MS;
        const { errata, host } = await joinedView(ctx);
        const rows = spec.join(errata, host, sinceMs, now + 1);
        if (opts.json) {
          printJson(ctx.io, { since: new Date(sinceMs).toISOString(), until: new Date(now).toISOString(), [spec.key]: rows });
          return;
        }
        if (rows.length === 0) println(ctx.io, spec.empty);
        for (const r of rows) println(ctx.io, spec.line(r));
      });
  };
}
