/** `errata rules act`: recommend, check and (with --file) file in one step; defined with recommend. */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { addRecommendCommand } from "./recommend.js";

export function register(group: Command, ctx: CommandContext): void {
  addRecommendCommand(group, ctx, "act");
}
