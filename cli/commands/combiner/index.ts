/**
 * `errata combiner fit|eval`: the learned heads over the engine's probabilities, fitted on the
 * fit split of labelled data and scored on the holdout. Plain files in, a candidate out.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  fit: () => import("./fit.js"),
  eval: () => import("./eval.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
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
  for (const sub of subs) sub(group, ctx);
}
