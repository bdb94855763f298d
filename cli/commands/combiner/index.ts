/**
 * `errata combiner fit|eval`: the learned heads over the engine's probabilities, fitted on the
 * fit split of labelled data and scored on the holdout. Plain files in, a candidate out.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { register as evaluate } from "./eval.js";
import { register as fit } from "./fit.js";
import { examples } from "../../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("combiner")
    .description("the learned detect and class heads over the engine's probabilities")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial &&",
          "errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --out answers.jsonl &&",
          "errata combiner fit --answers answers.jsonl --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --out combiner.json",
        ],
      ]),
    );
  for (const sub of [fit, evaluate]) sub(group, ctx);
}
