import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { addPassCommand } from "../../shared/v4-pass.js";
import { examples } from "../../shared/help.js";

/** `errata v4 detect`: the detect and blame questions of every exchange. */
export function register(group: Command, ctx: CommandContext): void {
  addPassCommand(group, ctx, "detect", "Ask detect and blame questions of every exchange", examples(["errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl --limit 100"]));
}
