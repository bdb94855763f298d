import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../../shared/command.js";
import { examples } from "../../../shared/help.js";

/**
 * `errata eval adjudicate list|decide`: the items the labellers split on (and the ties that
 * have no 2-of-3 majority), and one adjudicator's decision on one, appended to
 * `adjudications.jsonl` apart from the raw labels. The labelling page's adjudication view
 * (`eval label serve --adjudicators ID`) writes the same rows.
 */
/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  list: () => import("./list.js"),
  decide: () => import("./decide.js"),
};

export function register(group: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const adjudicate = group
    .command("adjudicate")
    .description("Items the labellers split on: list them, or record an adjudicator's pick (or ambiguous), kept apart from the raw labels")
    .addHelpText(
      "after",
      examples([
        [
          "printf '%s\\n' '{\"schema\":\"label/1\",\"exchange_id\":\"ex-1\",\"labeler\":\"ana\",\"question\":\"detect.unhappy\",\"value\":true,\"origin\":\"x\"}'",
          "'{\"schema\":\"label/1\",\"exchange_id\":\"ex-1\",\"labeler\":\"ben\",\"question\":\"detect.unhappy\",\"value\":false,\"origin\":\"x\"}' > labels.jsonl &&",
          "errata eval adjudicate list --labels labels.jsonl",
        ],
      ]),
    );
  for (const sub of subs) sub(adjudicate, ctx);
}
