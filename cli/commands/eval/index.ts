/**
 * `errata eval`: gold sets, blind labelling, agreement and scoring (the research loop's
 * measuring half): `brief`, `predictions`, `sample`, `label export|import`, `agreement`,
 * `adjudicate list|decide`, `score [--check]`, `bias`, `consistency`, one file each in this folder.
 *
 * Example: `errata eval sample --exchanges ex.jsonl --failures v4.jsonl && errata eval label
 * export --labeler ana && … && errata eval score --predictions preds.jsonl --check`
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { register as adjudicate } from "./adjudicate/index.js";
import { register as agreement } from "./agreement.js";
import { register as bias } from "./bias.js";
import { register as consistency } from "./consistency.js";
import { register as brief } from "./brief.js";
import { register as label } from "./label/index.js";
import { register as predictions } from "./predictions.js";
import { register as sample } from "./sample.js";
import { register as score } from "./score.js";
import { examples } from "../../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("eval")
    .description("Gold sets, labels, agreement and scoring")
    .addHelpText(
      "after",
      examples([
        "errata eval brief --out brief.md",
        "errata datasets copy ab-redial && errata eval agreement --labels datasets/ab-redial/labels.jsonl --labelers ab-redial:r1,ab-redial:r2,ab-redial:r3",
      ]),
    );
  for (const sub of [brief, predictions, sample, label, agreement, adjudicate, score, bias, consistency]) sub(group, ctx);
}
