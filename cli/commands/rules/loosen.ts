import type { Command } from "commander";
import { isCodedError } from "../../../core/errors.js";
import { addProposal, loosenProposal, onLadder, readProposals, reviewed, reviewerFromConfig, type Reviewer } from "../../../runtime/ladder/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { wholeNumber } from "../../shared/rules-writer.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/** The reviewer lane the engine config names (its `reviewer` key), or null: offline. A bad config exits 2. */
export function reviewerFor(ctx: CommandContext): Reviewer | null {
  return reviewerFromConfig({ paths: resolvePaths(ctx.io.env, ctx.io.cwd), env: ctx.io.env }).reviewer;
}

/**
 * `errata rules loosen <rule_id> --why <text> [--to-rung N]`: the owner's loosening, drafted
 * as a proposal in the approval table (the reviewer lane argues against it when one is
 * configured); `errata rules approve <id>` applies it as one unit edit with a backup, and
 * `errata rules undo <id>` puts it back. Only the owner loosens: nothing else moves a rule down.
 *
 * Example: `errata rules loosen claude.tools.pnpm01 --why "npm is fine in docs/"` ->
 * "drafted pr-1a2b3c4d5e: loosen 3 -> 2 claude.tools.pnpm01: switch check ladder-claude.tools.pnpm01 back to shadow ...".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("loosen")
    .description("Propose moving a rule down a rung (a check back to shadow or off, a line removed), for the owner's approve; undoable")
    .argument("<rule_id>", "a rule of the ledger (errata rules budget lists the always-loaded ones)")
    .requiredOption("--why <text>", "why the owner loosens it (kept as the proposal's evidence)")
    .option("--to-rung <n>", "the rung to go to (a check: 0-2, default 2; a written line: 0, its removal)")
    .option("--dry-run", "draft it on a copy, record nothing")
    .option("--json", "print one JSON value")
    .option(...WAIT_OPTION)
    .addHelpText(
      "after",
      examples(['errata rules loosen claude.tools.pnpm01 --why "npm is fine in docs/"  # exit 2'], {
        before: "Name a rule of the ledger (errata rules budget lists the always-loaded ones). Pasted in an empty folder, whose ledger holds no rule, the example exits 2 and writes nothing:",
        after: "Then errata rules approvals shows it, errata rules approve <id> applies it and errata rules undo <id> puts it back (docs/ladder.md).",
      }),
    )
    .action(lockedAction(ctx, "errata rules loosen", async (ruleId: string, flags: { why: string; toRung?: string; dryRun?: boolean; json?: boolean }) => {
      try {
        const toRung = flags.toRung === undefined ? undefined : wholeNumber("--to-rung", flags.toRung, 0);
        const at = new Date(ctx.io.now()).toISOString();
        const out = await onLadder(ctx.io.env, ctx.io.cwd, flags.dryRun === true, async (dir) => {
          const draft = loosenProposal(dir, ruleId, { why: flags.why, ...(toRung !== undefined ? { toRung } : {}) }, { ladderDir: dir, projectDir: ctx.io.cwd, at });
          if (readProposals(dir).has(draft.id)) return { p: draft, added: false };
          const p = await reviewed(draft, reviewerFor(ctx));
          return { p, added: addProposal(dir, p) };
        });
        const { p, added } = out;
        if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, added, proposal: p });
        println(ctx.io, `${flags.dryRun ? "would draft" : added ? "drafted" : "already in the table:"} ${p.id}: loosen ${p.from_rung} -> ${p.to_rung} ${p.rule_id}: ${p.why}`);
        println(ctx.io, `    review: ${p.review}`);
        if (!flags.dryRun) println(ctx.io, `Apply with errata rules approve ${p.id}; reject with errata rules reject ${p.id} --why <text>.`);
      } catch (err) {
        // With --json a failure is one JSON value on stdout too (and the usual stderr line and exit code).
        if (flags.json && isCodedError(err)) printJson(ctx.io, { ok: false, code: err.code, error: err.message });
        throw err;
      }
    }));
}
