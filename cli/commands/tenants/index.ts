/**
 * `errata tenants add | list | revoke`: the tenants of `errata serve` and their tokens, one
 * file a subcommand in this folder. A token is printed once, when it is made; the store keeps
 * its SHA-256 only.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  add: () => import("./add.js"),
  list: () => import("./list.js"),
  revoke: () => import("./revoke.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("tenants")
    .description("The server's tenants and their bearer tokens (stored hashed; a revoked token is refused at once)")
    .addHelpText("after", examples(["errata tenants add acme --label billing-app && errata tenants list"]));
  for (const sub of subs) sub(group, ctx);
}
