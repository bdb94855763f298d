/**
 * `errata secrets rules import|status`: rule data from outside the package (betterleaks' rule
 * file), imported into the state folder; one file each in this folder.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../../shared/command.js";
import { examples } from "../../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  import: () => import("./import.js"),
  status: () => import("./status.js"),
};

export function register(group: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const rules = group
    .command("rules")
    .description("Rule data from outside the package: betterleaks' rule file, imported into the state folder")
    .addHelpText("after", examples(["errata secrets rules status"]));
  for (const sub of subs) sub(rules, ctx);
}
