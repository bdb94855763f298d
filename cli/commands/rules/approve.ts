import { resolve } from "node:path";
import type { Command } from "commander";
import { isCodedError } from "../../../core/errors.js";
import { approve, ladderDir, refreshHandlers, standingNativeDeny } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/**
 * `errata rules approve <id>`: the owner's yes applies a proposal as one edit of one rule unit
 * (a backup of the file first), refusing when the file changed since the proposal was drafted.
 *
 * Example: `errata rules approve pr-3f2a1c9e0b` -> "applied pr-3f2a1c9e0b: install check ladder-claude.tools.pnpm01 in .../checks.json (backup .../backups/pr-3f2a1c9e0b.bak)".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("approve")
    .description("Say yes to a proposal: apply it as one edit of one rule unit, with a backup (refused if the file changed by hand since)")
    .argument("<id>", "a proposal id (errata rules approvals lists them)")
    .option("--command-regex <re>", "a new_check code could not draft: the Bash commands it watches (a regular expression)")
    .option("--path-glob <glob>", "a new_check code could not draft: the files written or edited it watches")
    .option("--hookify <file>", "a new_check code could not draft: take its conditions from a hookify rule file")
    .option("--native-deny", "a deny check on one command word: also write Claude Code's native permission deny rules (Bash(npm), Bash(npm *)) into the project's .claude/settings.json, a hard block that does not fail open; undo removes exactly those")
    .option("--dry-run", "check that it would apply, change nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules approve pr-0000000000  # exit 2", "errata rules approve pr-0000000000 --native-deny --dry-run  # exit 2"], { after: "An unknown id exits 2. Undo an applied proposal with errata rules undo <id> (it also removes exactly the native deny rules --native-deny wrote). --native-deny refuses (exit 2, nothing written) a check that is not one command word denied, and a .claude/settings.json that does not parse." }))
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules approve", (id: string, flags: { dryRun?: boolean; json?: boolean; commandRegex?: string; pathGlob?: string; hookify?: string; nativeDeny?: boolean }) => {
      try {
        const given = { ...(flags.commandRegex !== undefined ? { commandRegex: flags.commandRegex } : {}), ...(flags.pathGlob !== undefined ? { pathGlob: flags.pathGlob } : {}), ...(flags.hookify !== undefined ? { hookify: resolve(ctx.io.cwd, flags.hookify) } : {}) };
        const s = approve(ladderDir(ctx.io.env, ctx.io.cwd), id, new Date(ctx.io.now()).toISOString(), { checkOnly: flags.dryRun === true }, given, flags.nativeDeny === true ? { project: ctx.io.cwd } : null);
        const native = s.nativeDeny;
        const nativeJson = native === undefined ? undefined : { file: native.file, check: native.check_id, rules: native.rules, written: native.added };
        const applied = [...s.decisions].reverse().find((d) => d.status === "applied");
        // The per-check tool handlers, where the owner switched them on (errata rules hooks --write), follow the checks.
        const handlers = flags.dryRun || s.proposal.edit?.kind !== "check" ? { rewritten: [], refused: [] } : refreshHandlers(ladderDir(ctx.io.env, ctx.io.cwd), ctx.io.cwd, ctx.io.env["HOME"]);
        if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, id: s.proposal.id, approved: id, status: s.status, backup: flags.dryRun ? null : (applied?.backup ?? null), ...(nativeJson !== undefined ? { native_deny: nativeJson } : {}), ...(handlers.rewritten.length + handlers.refused.length > 0 ? { tool_handlers: handlers } : {}) });
        const what = s.proposal.edit === null ? "recorded (no file to edit)" : `${s.proposal.edit.file}${applied?.backup && !flags.dryRun ? ` (backup ${applied.backup})` : ""}`;
        println(ctx.io, `${flags.dryRun ? "would apply" : "applied"} ${s.proposal.id}${s.proposal.id !== id ? ` (carrying ${id})` : ""}: ${s.proposal.type} ${s.proposal.from_rung} -> ${s.proposal.to_rung} ${s.proposal.rule_id}; ${what}`);
        const loosened = s.proposal.edit?.kind === "check" ? (s.proposal.edit.deactivate ?? s.proposal.edit.uninstall ?? null) : null;
        if (loosened !== null) {
          // A loosening does not lift a hard block: the native rules stay (undoing their approval needs the checks file as it left it).
          for (const n of standingNativeDeny(ladderDir(ctx.io.env, ctx.io.cwd), loosened)) println(ctx.io, `note: native deny rules ${n.record.rules.join(", ")} for check ${loosened} stay in ${n.record.file} (the loosening does not lift a hard block); remove them there, or undo ${s.proposal.id} and then ${n.id}`);
        }
        if (native !== undefined) {
          const held = native.rules.filter((r) => !native.added.includes(r));
          const wrote = native.added.length === 0 ? "no native deny rule written" : `${flags.dryRun ? "would write" : "wrote"} native deny rule${native.added.length > 1 ? "s" : ""} ${native.added.join(", ")}`;
          println(ctx.io, `${wrote} in ${native.file} (check ${native.check_id})${held.length > 0 ? `; already there, left as the owner's: ${held.join(", ")}` : ""}`);
        }
        for (const f of handlers.rewritten) println(ctx.io, `rewrote the per-check tool handlers in ${f}`);
        for (const f of handlers.refused) println(ctx.io, `note: the per-check tool handlers were not rewritten in ${f}`);
      } catch (err) {
        // With --json a failure is one JSON value on stdout too (and the usual stderr line and exit code).
        if (flags.json && isCodedError(err)) printJson(ctx.io, { ok: false, code: err.code, error: err.message });
        throw err;
      }
    }));
}
