/**
 * `errata rotate --before YYYY-MM`: gzips every month older than YYYY-MM into `archive/`,
 * verifying the round trip byte for byte before removing the live file. Crash-safe and
 * re-runnable (runtime/store/rotate.ts says why). Exit 1 when a month could not be rotated.
 *
 * Example: `errata rotate --before 2026-10`
 * -> `2026-08: archived (131 lines, 48,213 bytes -> 9,120 gz)`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { badInput } from "../../core/errors.js";
import { printJson, println } from "../shared/io.js";
import { pathsFor } from "../shared/ledger.js";
import { rotateLedger } from "../../runtime/store/index.js";
import { examples } from "../shared/help.js";
import { waitMsFromFlag, withRunLock } from "../../runtime/files/index.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("rotate")
    .description("Gzip months older than --before into archive/ after a byte-for-byte round-trip check")
    .requiredOption("--before <YYYY-MM>", "rotate every month strictly before this one")
    .option("--dry-run", "say what would be rotated; write nothing")
    .option("--json", "print one JSON value")
    .option("--wait <seconds>", "when another run holds the lock, wait up to this long for it (default: exit 2 at once, naming it)")
    .addHelpText(
      "after",
      examples([
        "errata rotate --before 2026-10 --dry-run",
        "errata add --ts 2026-08-02T10:00:00Z bug: it deleted the wrong branch && errata rotate --before 2026-10",
        "errata rotate --before 2026-10 --wait 60",
      ]),
    )
    .action(async (opts: { before: string; dryRun?: boolean; json?: boolean; wait?: string }) => {
      if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(opts.before)) throw badInput("bad --before", "a month YYYY-MM", JSON.stringify(opts.before));
      const waitMs = waitMsFromFlag(opts.wait);
      const paths = pathsFor(ctx);
      const currentMonth = new Date(ctx.io.now()).toISOString().slice(0, 7);
      const rotate = async () => rotateLedger(paths.ledgerDir, { before: opts.before, currentMonth, dryRun: opts.dryRun ?? false });
      const result = opts.dryRun === true ? await rotate() : await withRunLock(paths.stateDir, { job: "errata rotate", waitMs }, rotate);
      const failed = result.months.filter((m) => m.action === "failed" || m.action === "kept");
      if (failed.length > 0) ctx.exitCode = 1;
      if (opts.json) {
        printJson(ctx.io, { ok: failed.length === 0, dry_run: opts.dryRun ?? false, ...result });
        return;
      }
      if (result.months.length === 0) println(ctx.io, `nothing to rotate before ${opts.before}`);
      for (const m of result.months) {
        const size = `${m.lines} lines, ${m.bytes.toLocaleString("en-US")} bytes${m.gzBytes !== undefined ? ` -> ${m.gzBytes.toLocaleString("en-US")} gz` : ""}`;
        println(ctx.io, `${m.month}: ${m.action} (${size})${m.error ? `: ${m.error}` : ""}`);
      }
      if (result.removedTempFiles > 0) println(ctx.io, `removed ${result.removedTempFiles} temp file(s) left by an interrupted rotation`);
    });
}
