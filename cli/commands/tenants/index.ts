/**
 * `errata tenants add | list | revoke`: the tenants of `errata serve` and their tokens, one
 * file a subcommand in this folder. A token is printed once, when it is made; the store keeps
 * its SHA-256 only.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { register as add } from "./add.js";
import { register as list } from "./list.js";
import { register as revoke } from "./revoke.js";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("tenants")
    .description("The server's tenants and their bearer tokens (stored hashed; a revoked token is refused at once)")
    .addHelpText("after", examples(["errata tenants add acme --label billing-app && errata tenants list"]));
  for (const sub of [add, list, revoke]) sub(group, ctx);
}
