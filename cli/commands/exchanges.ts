import type { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import type { CommandContext } from "../shared/command.js";
import { badInput } from "../../core/errors.js";
import { count, didNothing, printJson, println, progress, warn } from "../shared/io.js";
import { resolvePaths } from "../../runtime/paths.js";
import { loadCapturedIndex } from "../../runtime/transcripts/index.js";
import { sweepExchanges } from "../../runtime/transcripts/index.js";
import { examples } from "../shared/help.js";
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";

interface ExchangesOpts {
  root?: string;
  full?: boolean;
  json?: boolean;
  dryRun?: boolean;
  wait?: string;
}

/** `errata exchanges`: every typed prompt in the transcripts becomes one exchange row. */
export function register(program: Command, ctx: CommandContext): void {
  program
    .command("exchanges")
    .description(
      "Stream Claude Code transcripts and append one exchange per new typed prompt to <v4>/exchanges.jsonl (a re-run appends nothing)",
    )
    .option("--root <dir>", "transcripts folder (default: ~/.claude/projects)")
    .option("--full", "re-read every transcript from its start, ignoring the per-file cursor")
    .option("--json", "print one JSON summary")
    .option("--dry-run", "read and count, write nothing")
    .option("--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy claude-code/spotter && errata exchanges --root datasets/claude-code/spotter --dry-run",
        "errata import synthetic --sessions 3 --transcripts --out corpus && errata exchanges --root corpus/transcripts --json",
      ]),
    )
    .action(async (opts: ExchangesOpts) => {
      const io = ctx.io;
      const paths = resolvePaths(io.env, io.cwd);
      const fromEnv = io.env["ERRATA_TRANSCRIPTS_ROOT"];
      const root = opts.root !== undefined ? resolve(io.cwd, opts.root) : fromEnv ? resolve(io.cwd, fromEnv) : join(io.env["HOME"] ?? homedir(), ".claude", "projects");
      if (!existsSync(root) || !statSync(root).isDirectory()) {
        const how = opts.root !== undefined ? "" : fromEnv ? " (from ERRATA_TRANSCRIPTS_ROOT)" : " (the default; give --root DIR or set ERRATA_TRANSCRIPTS_ROOT)";
        throw badInput(`transcripts root is not a folder${how}`, "a folder of Claude Code *.jsonl transcripts", root);
      }
      const waitMs = waitMsFromFlag(opts.wait);
      const { index, warning } = loadCapturedIndex(paths, (line) => warn(io, line));
      if (warning !== null) warn(io, `errata exchanges: ${warning}`);
      let bar: ReturnType<typeof progress> | null = null;
      const sweep = (): ReturnType<typeof sweepExchanges> => sweepExchanges({
        root,
        v4Dir: paths.v4Dir,
        stateDir: paths.stateDir,
        full: opts.full === true,
        dryRun: opts.dryRun === true,
        captured: index,
        onFile: (_done, total) => {
          bar ??= progress(io, "exchanges", total);
          bar.tick();
        },
      });
      const report = opts.dryRun === true ? await sweep() : await withRunLock(paths.stateDir, { job: "errata exchanges", waitMs }, sweep);
      (bar as ReturnType<typeof progress> | null)?.done();
      const nothing = (): void => {
        if (report.files === 0) didNothing(ctx, `no Claude Code transcripts (*.jsonl sessions) in ${root}`, "give --root a folder such as ~/.claude/projects, or set ERRATA_TRANSCRIPTS_ROOT");
      };
      if (opts.json) {
        printJson(io, report);
        nothing();
        return;
      }
      nothing();
      const verb = report.dryRun ? "would append" : "appended";
      println(io, `${verb} ${count(report.newExchanges, "exchange")} to ${report.out} (${report.alreadyPresent} already there, ${report.captured} captured)`);
      println(
        io,
        `${report.files} transcripts (${report.unchanged} unchanged, ${report.resumed} resumed, ${report.fullReads} read whole), ${report.subagentFiles} subagent files; ${report.typedPrompts} typed prompts, ${report.rewoundPrompts} on rewound branches; ${report.brokenLines} broken lines skipped`,
      );
    });
}
