import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { addPassCommand } from "../../shared/v4-pass.js";
import { examples } from "../../shared/help.js";

/**
 * `errata v4 v3`: the 14 single-choice class questions of the composed failures (the
 * comparison scoring needs); `--regex-caught` adds what the capture classifier caught.
 */
export function register(group: Command, ctx: CommandContext): void {
  addPassCommand(group, ctx, "v3", "Ask the 14 v3 class questions of composed failures (single-choice comparison: argmax)", examples([["errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl &&", "errata v4 v3 --exchanges datasets/ab-redial/exchanges.jsonl"]]));
}
