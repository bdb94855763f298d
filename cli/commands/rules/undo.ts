import type { Command } from "commander";
import { isCodedError } from "../../../core/errors.js";
import { ladderDir, refreshHandlers, undo } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/**
 * `errata rules undo <id>`: puts back the file as it was before an applied proposal and the
 * rule at its rung, refusing when the file changed after the apply.
 *
 * Example: `errata rules undo pr-3f2a1c9e0b` -> "undone pr-3f2a1c9e0b".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("undo")
    .description("Undo an applied proposal: the file as it was before, the rule back at its rung (refused if the file changed since)")
    .argument("<id>", "an applied proposal's id")
    .option("--dry-run", "check that it would undo, change nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules undo pr-0000000000  # exit 2"]))
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules undo", (id: string, flags: { dryRun?: boolean; json?: boolean }) => {
      try {
        const done = undo(ladderDir(ctx.io.env, ctx.io.cwd), id, new Date(ctx.io.now()).toISOString(), { checkOnly: flags.dryRun === true });
        const native = done.native_deny !== undefined && done.native_deny.rules.length > 0 ? done.native_deny : undefined;
        // The per-check tool handlers, where the owner switched them on, follow the checks (an undo that touched none rewrites nothing).
        const handlers = flags.dryRun ? { rewritten: [], refused: [] } : refreshHandlers(ladderDir(ctx.io.env, ctx.io.cwd), ctx.io.cwd, ctx.io.env["HOME"]);
        if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, id, status: "undone", ...(native !== undefined ? { native_deny_removed: { file: native.file, rules: native.rules } } : {}), ...(handlers.rewritten.length + handlers.refused.length > 0 ? { tool_handlers: handlers } : {}) });
        println(ctx.io, `${flags.dryRun ? "would undo" : "undone"} ${id}`);
        if (native !== undefined) println(ctx.io, `${flags.dryRun ? "would remove" : "removed"} native deny rule${native.rules.length > 1 ? "s" : ""} ${native.rules.join(", ")} from ${native.file}`);
        for (const f of handlers.rewritten) println(ctx.io, `rewrote the per-check tool handlers in ${f}`);
        for (const f of handlers.refused) println(ctx.io, `note: the per-check tool handlers were not rewritten in ${f}`);
      } catch (err) {
        // With --json a failure is one JSON value on stdout too (and the usual stderr line and exit code).
        if (flags.json && isCodedError(err)) printJson(ctx.io, { ok: false, code: err.code, error: err.message });
        throw err;
      }
    }));
}
