/**
 * `errata classtier ask|eval`: the model judge for failure class through the engine, its
 * answers cached in `<v4>/classtier.jsonl`; `eval --write` records in
 * `<v4>/classtier-level.json` which level ships and whether the second look is on, with the
 * prompt hash (the runtime uses the judge only while that hash is current).
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  ask: () => import("./ask.js"),
  eval: () => import("./eval.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("classtier")
    .description("the model judge for failure class, its cache, second look and shipped level")
    .addHelpText("after", examples(["errata datasets copy spotter && errata classtier ask --exchanges datasets/spotter/exchanges.jsonl  # exit 1: the embedded lane holds no class-tier weights"]));
  for (const sub of subs) sub(group, ctx);
}
