/**
 * `errata secrets learn`: remembers the owner's own secrets so that the redactor removes them
 * wherever they appear, whatever their shape (runtime/privacy/known-values.ts): the values of
 * the secret-looking environment variables, and of the `.env` files in the folders the ledger's
 * errata were captured in (and any `--project` given). Only salted hashes are written
 * (`<state>/known-secrets.json`, 0600); the values themselves never reach a file.
 *
 * Example: `errata secrets learn` -> `known secrets: 7 values (from the environment and 2 projects' .env files) as salted hashes in <state>/known-secrets.json`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { printJson, println } from "../shared/io.js";
import { ledgerFor, pathsFor, reportProblems } from "../shared/ledger.js";
import { examples } from "../shared/help.js";
import { learnKnownValues } from "../../runtime/privacy/index.js";
import { resolve } from "node:path";

export function register(program: Command, ctx: CommandContext): void {
  const group = program.command("secrets").description("Remember the owner's own secrets (as salted hashes) so they are redacted whatever their shape");
  group
    .command("learn")
    .description("Hash the secret-looking environment variables and the .env files of the projects the ledger knows")
    .option("--project <dir...>", "also read this project folder's .env files")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata secrets learn", "errata secrets learn --project ~/code/app --json"]))
    .action(async (opts: { project?: string[]; json?: boolean }) => {
      const { errata, problems } = ledgerFor(ctx).readAll();
      reportProblems(ctx, problems);
      const projects = new Set<string>();
      for (const f of errata) if (f.erratum.context.cwd) projects.add(f.erratum.context.cwd);
      for (const p of opts.project ?? []) projects.add(resolve(ctx.io.cwd, p));
      const r = learnKnownValues(pathsFor(ctx).stateDir, ctx.io.env, [...projects]);
      if (opts.json) printJson(ctx.io, { ...r, projects_known: projects.size });
      else println(ctx.io, `known secrets: ${r.values} values (from the environment and ${r.projects} projects' .env files) as salted hashes in ${r.file}`);
    });
}
