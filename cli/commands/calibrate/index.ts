/**
 * `errata calibrate`: cuts and probability calibration for the bank's questions from blind
 * labels (writing candidates under `<v4>/candidates/`, never the promoted configuration), the
 * generic draw|brief|agreement|fit loop for any yes/no question, `use` (calibrated cuts made
 * the reports' default, `<v4>/cuts.json`), and the shadow gate's arithmetic; one file a
 * subcommand in this folder.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { register as agreement } from "./agreement.js";
import { register as brief } from "./brief.js";
import { register as cuts } from "./cuts.js";
import { register as draw } from "./draw.js";
import { register as fit } from "./fit.js";
import { register as probabilities } from "./probabilities.js";
import { register as shadow } from "./shadow.js";
import { register as use } from "./use.js";
import { examples } from "../../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
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
  for (const sub of [cuts, probabilities, shadow, draw, brief, agreement, fit, use]) sub(group, ctx);
}
