/**
 * `errata secrets rules import <betterleaks.toml> --release <version>`: converts betterleaks' rule
 * file into the state folder (runtime/privacy/import-rules-file.ts); its rules then replace
 * gitleaks' bundled ones of the same id.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../../shared/command.js";
import { printJson, println } from "../../../shared/io.js";
import { pathsFor } from "../../../shared/ledger.js";
import { examples } from "../../../shared/help.js";
import { importRulesFile } from "../../../../runtime/privacy/index.js";
import { resolve } from "node:path";

/** A rule file of one rule, written for the help's examples (betterleaks' own file is not shipped: docs/privacy.md says where to get it). */
export const ONE_RULE_FILE = `printf '%s\\n' 'title = "betterleaks config"' '[[rules]]' 'id = "acme-api-token"' "regex = '''acme_[A-Za-z0-9]{24}'''" 'keywords = ["acme_"]' > rules.toml &&`;
const oneRule = ONE_RULE_FILE;

export function register(rules: Command, ctx: CommandContext): void {
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
}
