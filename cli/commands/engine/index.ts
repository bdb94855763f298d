/**
 * `errata engine train | eval | ask | probe`: the judgment layer from the command line, one
 * file a subcommand in this folder.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  train: () => import("./train.js"),
  eval: () => import("./eval.js"),
  ask: () => import("./ask.js"),
  probe: () => import("./probe.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("engine")
    .description("The judgment layer: train and evaluate the embedded lane, ask questions, probe a server")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy ab-redial && errata engine eval --labels datasets/ab-redial/labels.jsonl",
        "errata datasets copy spotter && errata engine ask --exchanges datasets/spotter/exchanges.jsonl --question detect.unhappy",
      ]),
    );
  for (const sub of subs) sub(group, ctx);
}
