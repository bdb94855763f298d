import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { holdoutFromDir, holdoutLines, installedCheckIds, ladderDir, lineHoldoutFromDir, lineHoldoutLines, refreshHandlers, setHoldout, setLineHoldout } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";

/**
 * `errata rules holdout [id] [--one-in N] [--seed S] [--off]`: the randomised holdout,
 * opt-in per check or rule line and off by default (docs/causal.md). With a check id and
 * --one-in, a seeded 1 in N of sessions runs that check in shadow (it records what it would
 * have done and does not act); with the id of a rung-1/2 rule line, the Errata mod leaves the
 * line out of what the model is sent in a seeded 1 in N of sessions; --off ends it. With no
 * id: each opted-in check's and line's evidence so far (acting or in force vs held out,
 * incidents per chance, the difference with its interval) and its held-out sessions, as the
 * morning report discloses them.
 *
 * Example: `errata rules holdout ladder-pnpm --one-in 5` -> "check ladder-pnpm: held out in 1 of 5 sessions (seed 1) from now on; ...".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("holdout")
    .description("Opt a check or a rule line into the randomised holdout (1 in N sessions runs the check in shadow, or is sent without the line), or show the holdout's evidence")
    .argument("[id]", "an installed check, or a rung-1/2 rule of the ledger, to hold out (none: show the evidence)")
    .option("--one-in <n>", "hold out one session in n (2..1000)")
    .option("--seed <n>", "the assignment's seed (default 1)")
    .option("--off", "end the holdout for this check or rule")
    .option("--dry-run", "say what would change, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules holdout"]))
    .action((id: string | undefined, flags: { oneIn?: string; seed?: string; off?: boolean; dryRun?: boolean; json?: boolean }) => {
      const dir = ladderDir(ctx.io.env, ctx.io.cwd);
      if (id === undefined) {
        if (flags.oneIn !== undefined || flags.off || flags.seed !== undefined) throw badInput("--one-in, --seed and --off need a check or rule id", "errata rules holdout <id> --one-in N", "no id");
        const rows = holdoutFromDir(dir);
        const lineRows = lineHoldoutFromDir(dir);
        if (flags.json) return printJson(ctx.io, { ok: true, rows, line_rows: lineRows });
        const lines = [...holdoutLines(rows), ...lineHoldoutLines(lineRows)];
        println(ctx.io, lines.length === 0 ? "Nothing is held out (opt a check or a rule line in: errata rules holdout <id> --one-in 5)." : lines.join("\n"));
        return;
      }
      if (flags.off && (flags.oneIn !== undefined || flags.seed !== undefined)) throw badInput("--off with --one-in or --seed", "either --off or --one-in N", "both");
      let holdout: { one_in: number; seed: number } | null = null;
      if (!flags.off) {
        const oneIn = Number(flags.oneIn);
        if (flags.oneIn === undefined || !Number.isInteger(oneIn) || oneIn < 2 || oneIn > 1000) throw badInput("bad --one-in", "a whole number in 2..1000", describeFound(flags.oneIn));
        const seed = flags.seed === undefined ? 1 : Number(flags.seed);
        if (!Number.isInteger(seed)) throw badInput("bad --seed", "a whole number", describeFound(flags.seed));
        holdout = { one_in: oneIn, seed };
      }
      const dryRun = flags.dryRun === true;
      if (!installedCheckIds(dir).includes(id)) {
        const line = setLineHoldout(dir, id, holdout, { dryRun });
        if (flags.json) return printJson(ctx.io, { ok: true, dry_run: dryRun, rule: line });
        if (dryRun) println(ctx.io, "(dry run: nothing written)");
        if (line === null) println(ctx.io, `rule ${id}: no longer held out; its line is sent in every session`);
        else {
          println(ctx.io, `rule ${id}: held out in 1 of ${line.one_in} sessions (seed ${line.seed}) from now on; in those the Errata mod leaves its line out of what the model is sent.`);
          println(ctx.io, "  needs the Errata mod (docs/mod.md): the settings hooks cannot withhold a line, and a session without the mod carries it (the morning report counts those apart)");
          println(ctx.io, "  the morning report says which sessions were held out");
        }
        return;
      }
      const check = setHoldout(dir, id, holdout, { dryRun });
      // A check in the holdout keeps an unfiltered handler (its held-out sessions run it in shadow): the per-check handlers follow.
      if (!dryRun) for (const f of refreshHandlers(dir, ctx.io.cwd, ctx.io.env["HOME"]).rewritten) if (!flags.json) println(ctx.io, `rewrote the per-check tool handlers in ${f}`);
      if (flags.json) return printJson(ctx.io, { ok: true, dry_run: dryRun, check });
      if (dryRun) println(ctx.io, "(dry run: nothing written)");
      if (holdout === null) println(ctx.io, `check ${id}: no longer held out; it acts in every session`);
      else {
        println(ctx.io, `check ${id}: held out in 1 of ${holdout.one_in} sessions (seed ${holdout.seed}) from now on; in those it records what it would do and does not act.`);
        if (check.mode === "shadow") println(ctx.io, `  note: the check is in shadow, so it acts in no session yet; the holdout starts to compare once it leaves shadow`);
        println(ctx.io, "  the morning report and the Pulse page say which sessions were held out");
      }
    });
}
