import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../../shared/command.js";
import { examples } from "../../../shared/help.js";

/** `errata eval label export|import|serve`: blind labelling sheets, one per labeller, their validated import, and the labelling page. */
/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  export: () => import("./export.js"),
  import: () => import("./import.js"),
  serve: () => import("./serve.js"),
};

export function register(group: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const label = group
    .command("label")
    .description("Blind labelling sheets: export one per labeller, import the returned sheets, or serve the labelling page")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial && errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 30 --failure-items 0 &&",
          "errata eval label export --labeler ana --exchanges datasets/ab-redial/exchanges.jsonl --out ana.csv",
        ],
      ]),
    );
  for (const sub of subs) sub(label, ctx);
}
