/**
 * `errata calibrate`: cuts and probability calibration for the bank's questions from blind
 * labels (writing candidates under `<v4>/candidates/`, never the promoted configuration), the
 * generic draw|brief|agreement|fit loop for any yes/no question, `use` (calibrated cuts made
 * the reports' default, `<v4>/cuts.json`), and the shadow gate's arithmetic; one file a
 * subcommand in this folder.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  cuts: () => import("./cuts.js"),
  probabilities: () => import("./probabilities.js"),
  shadow: () => import("./shadow.js"),
  draw: () => import("./draw.js"),
  brief: () => import("./brief.js"),
  agreement: () => import("./agreement.js"),
  fit: () => import("./fit.js"),
  use: () => import("./use.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("calibrate")
    .description("cuts and probability calibration from blind labels; the shadow gate")
    .addHelpText(
      "after",
      examples([
        "errata calibrate shadow --false-alarm 0.05 --confidence 0.95",
        [
          "errata datasets copy ab-redial &&",
          "errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --out answers.jsonl &&",
          "errata calibrate cuts --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl",
        ],
      ]),
    );
  for (const sub of subs) sub(group, ctx);
}
