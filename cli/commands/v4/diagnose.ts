import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { addPassCommand } from "../../shared/v4-pass.js";
import { examples } from "../../shared/help.js";

/** `errata v4 diagnose`: the mode and cost questions of the exchanges composed as failures. */
export function register(group: Command, ctx: CommandContext): void {
  addPassCommand(group, ctx, "diagnose", "Ask mode and cost questions of composed failures", examples([["errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl &&", "errata v4 diagnose --exchanges datasets/ab-redial/exchanges.jsonl"]]));
}
