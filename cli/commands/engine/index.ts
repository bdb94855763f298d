/**
 * `errata engine train | eval | ask | probe`: the judgment layer from the command line, one
 * file a subcommand in this folder.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { register as ask } from "./ask.js";
import { register as evaluate } from "./eval.js";
import { register as probe } from "./probe.js";
import { register as train } from "./train.js";
import { examples } from "../../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
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
  for (const sub of [train, evaluate, ask, probe]) sub(group, ctx);
}
