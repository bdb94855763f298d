/**
 * `errata secrets learn`: remembers the owner's own secrets so that the redactor removes them
 * wherever they appear, whatever their shape (runtime/privacy/known-values.ts): the values of
 * the secret-looking environment variables, and of the `.env` files in the folders the ledger's
 * errata were captured in (and any `--project` given). Only salted hashes are written
 * (`<state>/known-secrets.json`, 0600); the values themselves never reach a file.
 *
 * `errata secrets rules import <betterleaks.toml> --release v1.7.0 [--samples fixtures.json]`:
 * converts betterleaks' rule file once into the state folder (runtime/privacy/import-rules-file.ts);
 * the redactor then runs its rules in place of gitleaks' of the same id. Run it again with a
 * newer file to refresh; `errata secrets rules status` shows what is imported. docs/privacy.md,
 * "betterleaks' rules at run time".
 *
 * Example: `errata secrets learn` -> `known secrets: 7 values (from the environment and 2 projects' .env files) as salted hashes in <state>/known-secrets.json`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { printJson, println } from "../shared/io.js";
import { ledgerFor, pathsFor, reportProblems } from "../shared/ledger.js";
import { examples } from "../shared/help.js";
import { learnKnownValues } from "../../runtime/privacy/index.js";
import { importRulesFile, importedRulesStatus } from "../../runtime/privacy/index.js";
import { resolve } from "node:path";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("secrets")
    .description("Remember the owner's own secrets (as salted hashes) so they are redacted whatever their shape")
    .addHelpText("after", examples(["errata secrets learn --dry-run"]));
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
  const rules = group
    .command("rules")
    .description("Rule data from outside the package: betterleaks' rule file, imported into the state folder")
    .addHelpText("after", examples(["errata secrets rules status"]));
  // A rule file of one rule, written for the example (betterleaks' own file is not shipped: docs/privacy.md says where to get it).
  const oneRule = `printf '%s\\n' 'title = "betterleaks config"' '[[rules]]' 'id = "acme-api-token"' "regex = '''acme_[A-Za-z0-9]{24}'''" 'keywords = ["acme_"]' > rules.toml &&`;
  rules
    .command("import <file>")
    .description("Convert betterleaks' rule file (its config/betterleaks.toml) into the state folder; its rules then replace gitleaks' bundled ones of the same id")
    .requiredOption("--release <version>", "the betterleaks release the file is from, recorded beside it (v1.7.0; not --version, which prints Errata's)")
    .option("--commit <sha>", "the betterleaks commit the file is from (40 hex digits), recorded beside it")
    .option("--licence <licence>", "the file's licence, recorded beside it", "MIT")
    .option("--samples <fixtures.json>", "check every rule on betterleaks' own samples (scripts/extract-upstream-fixtures.js's fixtures.json); a rule that fails them is left out")
    .option("--dry-run", "convert and check, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([[oneRule, "errata secrets rules import rules.toml --release v1.7.0"]], { after: "Run it again with a newer file to refresh; `errata secrets rules status` shows what is imported." }))
    .action(async (file: string, opts: { release: string; commit?: string; licence: string; samples?: string; dryRun?: boolean; json?: boolean }) => {
      const r = importRulesFile(
        pathsFor(ctx).stateDir,
        resolve(ctx.io.cwd, file),
        { version: opts.release, commit: opts.commit ?? "", licence: opts.licence, ...(opts.samples !== undefined ? { samples: resolve(ctx.io.cwd, opts.samples) } : {}), dryRun: opts.dryRun === true },
        new Date(),
      );
      const d = r.data;
      if (opts.json) {
        printJson(ctx.io, {
          file: r.rulesFile,
          keywords_file: r.keywordsFile,
          source: d.source,
          rules: d.rules.length,
          keywords: d.keywords.length,
          skipped: d.skipped,
          notes: d.notes,
          samples: r.samples,
          ...(opts.dryRun ? { would_write: [r.rulesFile, r.keywordsFile] } : {}),
        });
        return;
      }
      const from = `betterleaks ${d.source.version}${d.source.commit !== "" ? ` (${d.source.commit.slice(0, 12)})` : ""}, ${d.source.licence}, sha256 ${d.source.sha256.slice(0, 12)}`;
      println(ctx.io, `${from}: ${d.rules.length} rules ${opts.dryRun ? "would be written to" : "written to"} ${r.rulesFile}; ${d.skipped.length} left out, ${d.notes.length} notes`);
      if (r.samples !== null) println(ctx.io, `  samples: ${r.samples.checked} checked on ${r.samples.rules} rules, ${r.samples.failed.length} failed`);
      for (const s of d.skipped) println(ctx.io, `  left out ${s.id}: ${s.reason}`);
      for (const n of d.notes) println(ctx.io, `  note ${n.id}: ${n.note}`);
    });
  rules
    .command("status")
    .description("Show the imported rule file: its release, commit, sha256, licence and counts (or that none is imported)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata secrets rules status", [oneRule, "errata secrets rules import rules.toml --release v1.7.0 &&", "errata secrets rules status"]]))
    .action(async (opts: { json?: boolean }) => {
      const s = importedRulesStatus(pathsFor(ctx).stateDir);
      if (opts.json) {
        printJson(ctx.io, s === null ? { imported: false } : { imported: true, ...s });
        return;
      }
      if (s === null) {
        println(ctx.io, "imported rules: none (gitleaks' bundled rules only); `errata secrets rules import <betterleaks.toml> --release <version>` imports betterleaks'");
        return;
      }
      const src = s.source;
      println(ctx.io, `imported rules: betterleaks ${src.version}${src.commit !== "" ? ` (${src.commit})` : ""}, ${src.licence}, sha256 ${src.sha256}`);
      println(ctx.io, `  from ${src.path}, imported ${src.importedAt}, in ${s.file}`);
      println(ctx.io, `  ${s.rules} rules (${s.keywords} keywords), ${s.skipped} left out, ${s.notes} notes${s.samples !== null ? `; samples: ${s.samples.checked} checked on ${s.samples.rules} rules, ${s.samples.failed} failed` : "; not checked on samples"}`);
    });
}
