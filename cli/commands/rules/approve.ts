import type { Command } from "commander";
import { approve, undo } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { ladderDirOf, nowIso } from "./ladder-shared.js";

/**
 * `errata rules approve <id>` and `errata rules undo <id>`: the owner's yes applies a proposal
 * as one edit of one rule unit (a backup of the file first), refusing when the file changed
 * since the proposal was drafted; undo puts the backup back.
 *
 * Example: `errata rules approve pr-3f2a1c9e0b` -> "applied pr-3f2a1c9e0b: install check ladder-claude.tools.pnpm01 in .../checks.json (backup .../backups/pr-3f2a1c9e0b.bak)".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("approve")
    .description("Say yes to a proposal: apply it as one edit of one rule unit, with a backup (refused if the file changed by hand since)")
    .argument("<id>", "a proposal id (errata rules approvals lists them)")
    .option("--dry-run", "check that it would apply, change nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules approve pr-0000000000  # exit 2"], { after: "An unknown id exits 2. Undo an applied proposal with errata rules undo <id>." }))
    .action((id: string, flags: { dryRun?: boolean; json?: boolean }) => {
      const s = approve(ladderDirOf(ctx), id, nowIso(ctx), { checkOnly: flags.dryRun === true });
      const applied = [...s.decisions].reverse().find((d) => d.status === "applied");
      if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, id, status: s.status, backup: flags.dryRun ? null : (applied?.backup ?? null) });
      const what = s.proposal.edit === null ? "recorded (no file to edit)" : `${s.proposal.edit.file}${applied?.backup && !flags.dryRun ? ` (backup ${applied.backup})` : ""}`;
      println(ctx.io, `${flags.dryRun ? "would apply" : "applied"} ${id}: ${s.proposal.type} ${s.proposal.from_rung} -> ${s.proposal.to_rung} ${s.proposal.rule_id}; ${what}`);
    });
  group
    .command("undo")
    .description("Undo an applied proposal: the file as it was before, the rule back at its rung (refused if the file changed since)")
    .argument("<id>", "an applied proposal's id")
    .option("--dry-run", "check that it would undo, change nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules undo pr-0000000000  # exit 2"]))
    .action((id: string, flags: { dryRun?: boolean; json?: boolean }) => {
      undo(ladderDirOf(ctx), id, nowIso(ctx), { checkOnly: flags.dryRun === true });
      if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, id, status: "undone" });
      println(ctx.io, `${flags.dryRun ? "would undo" : "undone"} ${id}`);
    });
}
