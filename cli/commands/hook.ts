/**
 * `errata hook user-prompt-submit|stop`: the capture door for Claude Code. `bin/errata.js`
 * runs it on a fast lane that loads only `runtime/hooks/hook-main.js`; this registration
 * makes the same hook reachable through the CLI (in-process tests, `errata hook --help`).
 * Always exits 0: a hook must never block or break the host.
 *
 * Example: `echo '{"session_id":"s1","prompt":"no, that is wrong"}' | errata hook user-prompt-submit`
 * -> `Errata captured this prompt as a correction (er-20261130-3fa9c1); acceptance pending.`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { runHook } from "../../runtime/hooks/hook-main.js";
import { runToolHook, TOOL_EVENTS } from "../../runtime/hooks/tool-hook.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("hook")
    .description(
      "Claude Code hooks: user-prompt-submit captures explicit ratings, corrections, directives and praise; stop keeps the last reply; " +
        "pre-tool-use runs the ladder's checks and your hookify rules before a tool call; post-tool-use warns about a tool's output; instructions-loaded records which instruction files loaded",
    )
    .argument("<event>", "user-prompt-submit, stop, pre-tool-use, post-tool-use or instructions-loaded")
    .addHelpText(
      "after",
      examples(
        [
          `echo '{"session_id":"s1","prompt":"no, that is wrong"}' | errata hook user-prompt-submit`,
          `echo '{"session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"}}' | errata hook pre-tool-use`,
        ],
        { after: "Install: see docs/capture.md (capture) and docs/ladder.md (checks) for the settings.json lines." },
      ),
    )
    .action(async (event: string) => {
      const io = ctx.io;
      if ((TOOL_EVENTS as readonly string[]).includes(event)) {
        ctx.exitCode = await runToolHook([event], { readStdin: () => io.readStdin(), stdout: io.stdout, stderr: io.stderr, env: io.env, cwd: io.cwd, now: io.now });
        return;
      }
      ctx.exitCode = await runHook([event], {
        readStdin: () => io.readStdin(),
        stdout: io.stdout,
        stderr: io.stderr,
        env: io.env,
        cwd: io.cwd,
        now: io.now,
      });
    });
}
