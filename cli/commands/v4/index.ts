/**
 * `errata v4 detect|diagnose|v3|report|taxonomy`: the v4 pass in shadow. `detect` asks the
 * detect and blame questions of every exchange, `diagnose` the mode and cost questions of
 * composed failures, `v3` the 14 single-choice class questions of the same failures (the
 * comparison scoring needs; `--regex-caught` adds what the capture classifier caught); all
 * through the engine (default: the embedded lane, offline), caller `errata-triage`, answers
 * stored raw in `<v4Dir>/answers.jsonl`. `report` recomposes from stored answers under
 * `--cuts` without asking again. `taxonomy` writes the taxonomy page.
 *
 * Example: `errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl`
 * -> `v4 detect (embedded/…): 597 exchanges, asked 4776, already answered 0, scored 4776, unscored 0`
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  detect: () => import("./detect.js"),
  diagnose: () => import("./diagnose.js"),
  v3: () => import("./v3.js"),
  report: () => import("./report.js"),
  taxonomy: () => import("./taxonomy.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("v4")
    .description("The v4 pass (shadow): many small yes/no questions about every exchange")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy spotter && errata v4 detect --exchanges datasets/spotter/exchanges.jsonl &&",
          "errata v4 report --exchanges datasets/spotter/exchanges.jsonl",
        ],
      ]),
    );
  for (const sub of subs) sub(group, ctx);
}
