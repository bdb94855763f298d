/**
 * `errata validate`: lists every problem in the ledger with file and line. Exit 1 when any
 * error is found (warnings such as a torn tail left by a crash do not fail unless --strict).
 *
 * Example: `errata validate`
 * -> `errata-2026-11.jsonl:7: error machine-source-rating: source "hook" is a machine source …`
 *    `1 error, 0 warnings in 12 lines (9 errata, 3 patches)`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { printJson, println } from "../shared/io.js";
import { formatProblem, pathsFor } from "../shared/ledger.js";
import { loadSystems } from "../../runtime/config.js";
import { validateLedger } from "../../runtime/store/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("validate")
    .description("Check every ledger line (live and archived) and list each problem with file and line")
    .option("--strict", "fail on warnings (torn tail, interrupted rotation) too")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata validate", "errata validate --json --strict"]))
    .action(async (opts: { strict?: boolean; json?: boolean }) => {
      const paths = pathsFor(ctx);
      const report = validateLedger(paths.ledgerDir, loadSystems(paths.ledgerDir));
      const errors = report.problems.filter((p) => p.severity === "error").length;
      const warnings = report.problems.length - errors;
      const ok = errors === 0 && (!opts.strict || warnings === 0);
      if (!ok) ctx.exitCode = 1;
      if (opts.json) {
        printJson(ctx.io, { ok, ...report, errors, warnings });
        return;
      }
      for (const p of report.problems) println(ctx.io, formatProblem(p));
      println(
        ctx.io,
        `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"} in ${report.lines} lines (${report.errata} errata, ${report.patches} patches)`,
      );
    });
}
