/**
 * `errata impact`: a skill's complaint rate before and after a date (`--skill NAME --since
 * DATE [--days N]`), or for every landed fix (`--landed`: upgrades applied or verified,
 * pivoting on when they landed). Detected rows never count.
 *
 * Example: `errata impact --skill release-notes --since 2026-11-15 --days 14`
 * -> `before 2/40 (5.0%)  after 6/40 (15.0%)  change +10.0 pts  RAISED`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { fmtRate, joinedView } from "../shared/daily.js";
import { badInput } from "../../core/errors.js";
import { printJson, println } from "../shared/io.js";
import { parseNumber, parseSince } from "../shared/ledger.js";
import { landedImpacts, skillImpact, type Impact } from "../../runtime/jobs/index.js";
import { readUpgrades } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

function line(i: Impact): string {
  const change = i.change === null ? "n/a" : `${i.change >= 0 ? "+" : ""}${(i.change * 100).toFixed(1)} pts`;
  return `before ${i.before.complaints}/${i.before.outputs} (${fmtRate(i.before.rate)})  after ${i.after.complaints}/${i.after.outputs} (${fmtRate(i.after.rate)})  change ${change}${i.raised ? "  RAISED" : ""}`;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("impact")
    .description("Compare a skill's complaint rate before and after a fix")
    .option("--skill <name>", "the skill")
    .option("--since <date>", "the pivot: when the fix landed (YYYY-MM-DD)")
    .option("--days <n>", "days on each side of the pivot", "14")
    .option("--landed", "every applied or verified upgrade that names a skill")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          `mkdir host && echo '{"schema":"output/1","id":"out-1","ts":"2026-11-29T10:02:09Z","session_id":null,"skill":"release-notes"}' > host/outputs.jsonl &&`,
          "errata add the release notes missed two fixes --output-id out-1 &&",
          "ERRATA_HOST_DIR=host errata impact --skill release-notes --since 2026-11-15 --days 14",
        ],
        "errata impact --landed --json",
      ]),
    )
    .action(async (opts: { skill?: string; since?: string; days?: string; landed?: boolean; json?: boolean }) => {
      const days = parseNumber("days", opts.days, { integer: true }) ?? 14;
      if (days < 1) throw badInput("bad --days", "a whole number >= 1", String(days));
      if (!opts.landed && (opts.skill === undefined || opts.since === undefined)) {
        throw badInput("impact needs --skill and --since, or --landed", "--skill NAME --since DATE | --landed", "neither");
      }
      const since = parseSince(opts.since);
      const { stage, errata, host } = await joinedView(ctx);
      const now = ctx.io.now();
      if (opts.landed) {
        const rows = landedImpacts(errata, host, readUpgrades(stage.files.upgrades).upgrades, days, now);
        if (opts.json) printJson(ctx.io, { days, landed: rows });
        else {
          if (rows.length === 0) println(ctx.io, "no landed fix names a skill");
          for (const r of rows) println(ctx.io, `${r.upgrade_id}  ${r.skill}  landed ${r.pivot.slice(0, 10)}  ${line(r)}`);
        }
        return;
      }
      const r = skillImpact(errata, host, opts.skill!, Date.parse(since!), days, now);
      if (opts.json) printJson(ctx.io, r);
      else println(ctx.io, `${r.skill}  pivot ${r.pivot.slice(0, 10)}  ${line(r)}`);
    });
}
