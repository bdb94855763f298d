/**
 * `errata eval`: gold sets, blind labelling, agreement and scoring (the research loop's
 * measuring half): `brief`, `predictions`, `sample`, `label export|import`, `agreement`,
 * `adjudicate list|decide`, `score [--check]`, `bias`, `consistency`, one file each in this folder.
 *
 * Example: `errata eval sample --exchanges ex.jsonl --failures v4.jsonl && errata eval label
 * export --labeler ana && … && errata eval score --predictions preds.jsonl --check`
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  brief: () => import("./brief.js"),
  predictions: () => import("./predictions.js"),
  sample: () => import("./sample.js"),
  label: () => import("./label/index.js"),
  agreement: () => import("./agreement.js"),
  adjudicate: () => import("./adjudicate/index.js"),
  score: () => import("./score.js"),
  bias: () => import("./bias.js"),
  consistency: () => import("./consistency.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
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
  for (const sub of subs) sub(group, ctx);
}
