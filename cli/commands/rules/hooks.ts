import { resolve } from "node:path";
import type { Command } from "commander";
import { checksInForce, handlersFor, ladderDir, planHandlers, recordHandlerFile, SETTINGS_PATH, writeHandlers } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

/**
 * `errata rules hooks [--write] [--settings FILE]`: one PreToolUse handler per check in force
 * (`errata-tool-hook pre-tool-use --check ID`, behind the check's `if` rule where it has one), so
 * the client starts no process for a tool call no check can match (docs/mod.md, "Without the
 * mod"). Without --write it prints the handlers; with it they replace Errata's unfiltered
 * handler in the project's `.claude/settings.json` (or FILE), and approve, undo and holdout
 * keep them in step with the checks from then on.
 *
 * Example: `errata rules hooks --write` -> "wrote 2 per-check handlers in ./.claude/settings.json (replacing errata-tool-hook pre-tool-use)".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("hooks")
    .description("One if-filtered PreToolUse handler per check in force, so no process starts for a call no check can match; --write puts them in the settings")
    .option("--write", "write them into the settings file, replacing Errata's unfiltered PreToolUse handler; approve, undo and holdout rewrite them from then on")
    .option("--settings <file>", "the settings file to write (default: the project's .claude/settings.json)")
    .option("--dry-run", "with --write: say what would change, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules hooks", "errata rules hooks --write --dry-run --json"], { after: "A check with no prefix form, a shadow check and a check in the holdout get a handler with no if (its tools only). A settings file that does not parse exits 2, nothing written." }))
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules hooks", (flags: { write?: boolean; settings?: string; dryRun?: boolean; json?: boolean }) => {
      const dir = ladderDir(ctx.io.env, ctx.io.cwd);
      const entries = handlersFor(checksInForce(dir, ctx.io.cwd, ctx.io.env["HOME"]));
      const file = flags.settings !== undefined ? resolve(ctx.io.cwd, flags.settings) : resolve(ctx.io.cwd, SETTINGS_PATH);
      if (!flags.write) {
        if (flags.json) return printJson(ctx.io, { ok: true, file, handlers: entries });
        println(ctx.io, entries.length === 0 ? "No check in force: no per-check handler to write." : JSON.stringify({ hooks: { PreToolUse: entries } }, null, 2));
        return;
      }
      const plan = planHandlers(file, entries);
      const dry = flags.dryRun === true;
      if (!dry) {
        writeHandlers(plan);
        recordHandlerFile(dir, file);
      }
      if (flags.json) return printJson(ctx.io, { ok: true, dry_run: dry, file, handlers: entries, removed: plan.removed });
      const n = entries.length;
      println(ctx.io, `${dry ? "would write" : "wrote"} ${n} per-check handler${n === 1 ? "" : "s"} in ${file}${plan.removed.length > 0 ? ` (replacing ${[...new Set(plan.removed)].join(", ")})` : ""}`);
    }));
}
