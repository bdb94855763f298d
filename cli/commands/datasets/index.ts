/**
 * `errata datasets list|copy`: the data sets bundled with Errata (datasets/README.md says
 * what each is), listed, or copied into a working folder, where the help texts' examples
 * read them.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  list: () => import("./list.js"),
  copy: () => import("./copy.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("datasets")
    .description("The data sets bundled with Errata: list them, copy them into a folder")
    .addHelpText(
      "after",
      examples([
        "errata datasets list",
        "errata datasets copy ab-redial && errata eval agreement --labels datasets/ab-redial/labels.jsonl",
      ]),
    );
  for (const sub of subs) sub(group, ctx);
}
