/**
 * `errata mine`: sweeps Claude Code transcripts with the hook's classifier and appends the
 * explicit ratings, corrections, directives and praise the hook did not already capture.
 *
 * Example: `errata mine --root ~/.claude/projects --limit-files 50 --json`
 * -> `{"root_files": 412, "files_read": 50, "files_left": 362, "prompts": 1890, "written": 37, ...}`
 */
import type { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { homedir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import type { CommandContext } from "../shared/command.js";
import { ErrataError, badInput } from "../../core/errors.js";
import { count, didNothing, printJson, println, progress, warn } from "../shared/io.js";
import { ledgerFor, parseNumber } from "../shared/ledger.js";
import { mineTranscripts } from "../../runtime/jobs/index.js";
import { withRunLock } from "../../runtime/files/index.js";
import { loadOrCreateReporterKey, pseudonymize, readReporterKey } from "../../runtime/privacy/index.js";
import { CapturedIndex } from "../../runtime/transcripts/index.js";
import { ledgerTurns } from "../../runtime/transcripts/index.js";
import { examples } from "../shared/help.js";

interface MineOpts {
  root?: string;
  limitFiles?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("mine")
    .description("Sweep Claude Code transcripts with the capture classifier; append what the hook did not capture (resumable)")
    .option("--root <dir>", "transcripts folder (default: ERRATA_TRANSCRIPTS_ROOT, else ~/.claude/projects)")
    .option("--limit-files <n>", "read at most N new or changed files in this run")
    .option("--dry-run", "classify and count, write nothing (no ledger rows, no cursor)")
    .option("--json", "print one JSON summary")
    .addHelpText(
      "after",
      examples([
        "errata import synthetic --sessions 3 --transcripts --out corpus && errata mine --root corpus/transcripts --limit-files 50 --json",
        "errata datasets copy claude-code/spotter && errata mine --root datasets/claude-code/spotter --dry-run",
      ]),
    )
    .action(async (opts: MineOpts) => {
      const io = ctx.io;
      const limit = parseNumber("limit-files", opts.limitFiles, { integer: true });
      if (limit !== undefined && limit < 1) throw badInput("bad --limit-files", "a whole number of at least 1", String(limit));
      const fromEnv = io.env["ERRATA_TRANSCRIPTS_ROOT"];
      const root = opts.root !== undefined ? resolve(io.cwd, opts.root) : fromEnv ? resolve(io.cwd, fromEnv) : join(io.env["HOME"] ?? homedir(), ".claude", "projects");
      if (!existsSync(root) || !statSync(root).isDirectory()) {
        const how = opts.root !== undefined ? "" : fromEnv ? " (from ERRATA_TRANSCRIPTS_ROOT)" : " (the default; give --root DIR or set ERRATA_TRANSCRIPTS_ROOT)";
        throw badInput(`transcripts folder not found${how}`, "a folder of Claude Code *.jsonl transcripts", root);
      }
      // Mining appends errata: one run at a time with daily (the run lock), so two never mine the same prompt.
      const mine = async (): Promise<void> => {
        const ledger = ledgerFor(ctx);
        const read = ledger.readAll();
        if (read.problems.length > 0) warn(io, `errata mine: ${read.problems.length} ledger lines could not be read (see errata validate)`);
        const captured = new CapturedIndex(ledgerTurns(read.errata.map((f) => f.erratum)));
        // The read's ids: the store checks new ids against them instead of reading each month's file again.
        const held = new Map(read.errata.map((f) => [f.erratum.id, f.erratum]));
        const owner = io.env["USER"] ?? safeUser();
        const key = opts.dryRun ? (readReporterKey(ledger.paths.stateDir) ?? Buffer.alloc(32)) : loadOrCreateReporterKey(ledger.paths.stateDir);
        let bar: ReturnType<typeof progress> | null = null;
        let report;
        try {
          report = await mineTranscripts({
            root,
            stateDir: ledger.paths.stateDir,
            nowMs: io.now(),
            reporter: { id: pseudonymize(owner, key), role: "owner" },
            ...(limit !== undefined ? { limitFiles: limit } : {}),
            dryRun: opts.dryRun === true,
            captured,
            append: (e) => void ledger.append(e, { takenIds: held }),
            heldBy: (id) => held.get(id) ?? null,
            onFile: (_done, total) => {
              bar ??= progress(io, "mine", total);
              bar.tick();
            },
          });
        } catch (err) {
          if (err instanceof ErrataError) throw err;
          throw new ErrataError("IO", `errata mine stopped: ${(err as Error).message}`, { cause: err });
        }
        (bar as ReturnType<typeof progress> | null)?.done();
        const nothing = (): void => {
          if (report.root_files === 0) didNothing(ctx, `no Claude Code transcripts (*.jsonl sessions) in ${root}`, "give --root a folder such as ~/.claude/projects, or set ERRATA_TRANSCRIPTS_ROOT");
        };
        if (opts.json) {
          printJson(io, report);
          nothing();
          return;
        }
        nothing();
        println(
          io,
          `${opts.dryRun ? "would write" : "wrote"} ${report.written} errata from ${count(report.prompts, "typed prompt")} in ${count(report.files_read, "file")}` +
            ` (${report.synthetic} of them SYNTHETIC, ${report.already_captured} already captured, ${count(report.files_unchanged, "file")} unchanged, ${report.files_left} left for the next run)`,
        );
      };
      if (opts.dryRun === true) await mine();
      else await withRunLock(ledgerFor(ctx).paths.stateDir, { job: "errata mine" }, mine);
    });
}

function safeUser(): string {
  try {
    return userInfo().username;
  } catch {
    return "owner";
  }
}
