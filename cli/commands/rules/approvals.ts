import type { Command } from "commander";
import { approvalLines, ladderDir, readProposals } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";

/**
 * `errata rules approvals`: the owner's approval table: every pending proposal (a climb, a new
 * rule or check, a check leaving shadow, a loosening, a repair) with its diagnosis and evidence.
 *
 * Example: `errata rules approvals` -> "pr-3f2a1c9e0b  climb 2 -> 3  claude.tools.pnpm01  (climb) a check that runs before the action ...".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("approvals")
    .description("List the ladder's proposals waiting for the owner's yes or no, with their evidence")
    .option("--all", "also the decided ones (approved, rejected, applied, undone)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules approvals", "errata rules approvals --all --json"], { after: "Each proposal shows its edit and the reviewer lane's argument against it (the engine config's reviewer key), or that the review was skipped offline or failed. Decide with errata rules approve <id> or errata rules reject <id> --why <text> (docs/ladder.md)." }))
    .action((flags: { all?: boolean; json?: boolean }) => {
      const all = [...readProposals(ladderDir(ctx.io.env, ctx.io.cwd)).values()].filter((p) => flags.all || p.status === "pending");
      // `lines`: the text printed without --json (the mod's pane shows it as the owner would read it here).
      if (flags.json) return printJson(ctx.io, { ok: true, proposals: all.map((p) => ({ ...p.proposal, status: p.status, lines: approvalLines(p.proposal, p.status) })) });
      if (all.length === 0) println(ctx.io, flags.all ? "No proposal yet." : "No proposal waiting.");
      for (const { proposal: p, status } of all) for (const line of approvalLines(p, status)) println(ctx.io, line);
    });
}
