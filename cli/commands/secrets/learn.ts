/**
 * `errata secrets learn`: hashes the secret-looking environment variables and the .env files of
 * the projects the ledger knows (index.ts says more).
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { printJson, println } from "../../shared/io.js";
import { ledgerFor, pathsFor, reportProblems } from "../../shared/ledger.js";
import { examples } from "../../shared/help.js";
import { learnKnownValues } from "../../../runtime/privacy/index.js";
import { resolve } from "node:path";

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("learn")
    .description("Hash the secret-looking environment variables and the .env files of the projects the ledger knows")
    .option("--project <dir...>", "also read this project folder's .env files")
    .option("--dry-run", "count what would be remembered, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata secrets learn", "errata secrets learn --project ~/code/app --json", "errata secrets learn --dry-run"]))
    .action(async (opts: { project?: string[]; json?: boolean; dryRun?: boolean }) => {
      const { errata, problems } = ledgerFor(ctx).readAll();
      reportProblems(ctx, problems);
      const projects = new Set<string>();
      for (const f of errata) if (f.erratum.context.cwd) projects.add(f.erratum.context.cwd);
      for (const p of opts.project ?? []) projects.add(resolve(ctx.io.cwd, p));
      const r = learnKnownValues(pathsFor(ctx).stateDir, ctx.io.env, [...projects], { dryRun: opts.dryRun === true });
      if (opts.json) printJson(ctx.io, { file: r.file, values: r.values, projects: r.projects, projects_known: projects.size, ...(opts.dryRun ? { would_write: [r.file] } : {}) });
      else if (opts.dryRun) println(ctx.io, `known secrets: would remember ${r.values} values (from the environment and ${r.projects} projects' .env files) as salted hashes in ${r.file}`);
      else println(ctx.io, `known secrets: ${r.values} values (from the environment and ${r.projects} projects' .env files) as salted hashes in ${r.file}`);
    });
}
