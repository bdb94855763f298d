/**
 * `errata rules build|show|search|cover|cluster|pairs|recommend|act|recheck|report`: every rule of the assistant's instruction
 * files indexed with stable ids, found again by search, and matched to the failures it covers
 * (docs/rules.md); and the binding ladder's audit|approvals|approve|undo|reject|loosen|morning|budget
 * (docs/ladder.md), the randomised holdout (holdout, docs/causal.md), and the per-check tool handlers
 * (hooks, docs/mod.md).
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  build: () => import("./build.js"),
  show: () => import("./show.js"),
  search: () => import("./search.js"),
  cover: () => import("./cover.js"),
  cluster: () => import("./cluster.js"),
  pairs: () => import("./pairs.js"),
  recommend: () => import("./recommend.js"),
  act: () => import("./act.js"),
  recheck: () => import("./recheck.js"),
  report: () => import("./report.js"),
  audit: () => import("./audit.js"),
  approvals: () => import("./approvals.js"),
  approve: () => import("./approve.js"),
  undo: () => import("./undo.js"),
  reject: () => import("./reject.js"),
  loosen: () => import("./loosen.js"),
  morning: () => import("./morning.js"),
  budget: () => import("./budget.js"),
  holdout: () => import("./holdout.js"),
  hooks: () => import("./hooks.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("rules")
    .description("The rule index: every rule of the instruction files, with stable ids; which failures each covers")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy claude-md && errata rules build --root datasets/claude-md/astral-sh__uv && errata rules search never commit",
      ]),
    );
  for (const sub of subs) sub(group, ctx);
}
