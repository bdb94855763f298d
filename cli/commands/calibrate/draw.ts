import { join, resolve } from "node:path";
import type { Command } from "commander";
import { drawForCalibration } from "../../../calibration/index.js";
import { CalibItemSchema, type CalibDrawRow } from "../../../schemas/calibration.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { folderFor } from "../../shared/calibration-loop.js";
import { intOption, readJsonl, writeAtomic } from "../../shared/research-files.js";
import { examples } from "../../shared/help.js";

/**
 * `errata calibrate draw`: the first step of the calibration loop for any yes/no question:
 * items to label, stratified by the judge's P(yes), session-capped and seeded, written to
 * `draw.jsonl` in the loop's folder.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("draw")
    .description("draw items to label for one yes/no question, stratified by the judge's P(yes), session-capped, seeded")
    .requiredOption("--items <file>", "calib-item/1 JSONL (item_id, session_id, question, p_yes, shown)")
    .requiredOption("--question <id>", "the question to calibrate")
    .option("--n <n>", "items to draw (default 100)")
    .option("--bands <n>", "equal-width P(yes) bands (default 5)")
    .option("--per-session <n>", "at most this many items from one session (default 2)")
    .option("--seed <n>", "seed (default 1)")
    .option("--replicates <n>", "re-draws for inclusion probabilities (default 200)")
    .option("--dir <dir>", "folder for the loop's files (default <v4>/calibration/<question>)")
    .option("--dry-run", "draw and print, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        [
          `echo '{"schema":"calib-item/1","item_id":"p1","session_id":"s1","question":"rules.rule_covers","p_yes":0.8,"shown":{"rule":"ask before pushing","erratum":"it pushed to main"}}' > pairs.jsonl &&`,
          "errata calibrate draw --items pairs.jsonl --question rules.rule_covers --n 120 --seed 4",
        ],
      ]),
    )
    .action((opts: { items: string; question: string; n?: string; bands?: string; perSession?: string; seed?: string; replicates?: string; dir?: string; dryRun?: boolean; json?: boolean }) => {
      const all = readJsonl(resolve(ctx.io.cwd, opts.items), CalibItemSchema).filter((i) => i.question === opts.question);
      const scored = all.filter((i): i is typeof i & { p_yes: number } => i.p_yes !== null);
      if (scored.length === 0) throw badInput(`no scored items for ${opts.question}`, "calib-item/1 rows with that question and a p_yes", `${all.length} rows, none scored`);
      const seed = intOption("seed", opts.seed, 1, 0);
      const drawn = drawForCalibration(scored, {
        n: intOption("n", opts.n, 100, 1),
        bands: intOption("bands", opts.bands, 5, 1),
        perSession: intOption("per-session", opts.perSession, 2, 1),
        replicates: intOption("replicates", opts.replicates, 200, 1),
        seed,
      });
      const rows: CalibDrawRow[] = drawn.map((d) => ({
        schema: "calib-draw/1",
        item_id: d.item.item_id,
        session_id: d.item.session_id,
        question: d.item.question,
        p_yes: d.item.p_yes,
        band: d.band,
        inclusion_probability: d.inclusion_probability,
        shown: d.item.shown,
        seed,
      }));
      const folder = folderFor(ctx, opts.dir, opts.question);
      if (!opts.dryRun) writeAtomic(join(folder, "draw.jsonl"), rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
      const perBand = new Map<number, number>();
      for (const r of rows) perBand.set(r.band, (perBand.get(r.band) ?? 0) + 1);
      const summary = { question: opts.question, drawn: rows.length, of: scored.length, unscored: all.length - scored.length, sessions: new Set(rows.map((r) => r.session_id)).size, per_band: Object.fromEntries([...perBand].sort((a, b) => a[0] - b[0])), seed, file: opts.dryRun ? null : join(folder, "draw.jsonl") };
      if (opts.json) return printJson(ctx.io, summary);
      println(ctx.io, `drew ${summary.drawn} of ${summary.of} scored items (${summary.unscored} unscored left out) from ${summary.sessions} sessions; per band ${JSON.stringify(summary.per_band)}; seed ${seed}`);
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `written: ${summary.file}`);
    });
}
