/**
 * `errata secrets rules status`: the imported rule file's release, commit, sha256, licence and
 * counts, or that none is imported.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../../shared/command.js";
import { printJson, println } from "../../../shared/io.js";
import { pathsFor } from "../../../shared/ledger.js";
import { examples } from "../../../shared/help.js";
import { importedRulesStatus } from "../../../../runtime/privacy/index.js";
import { ONE_RULE_FILE as oneRule } from "./import.js";

export function register(rules: Command, ctx: CommandContext): void {
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
