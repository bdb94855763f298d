import type { Command } from "commander";
import type { CommandContext } from "../../../shared/command.js";
import { register as exportSheet } from "./export.js";
import { register as importSheet } from "./import.js";
import { register as serve } from "./serve.js";
import { examples } from "../../../shared/help.js";

/** `errata eval label export|import|serve`: blind labelling sheets, one per labeller, their validated import, and the labelling page. */
export function register(group: Command, ctx: CommandContext): void {
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
  for (const sub of [exportSheet, importSheet, serve]) sub(label, ctx);
}
