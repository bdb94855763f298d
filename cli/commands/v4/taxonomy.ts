import type { Command } from "commander";
import { renderTaxonomyPage } from "../../../questions/index.js";
import type { CommandContext } from "../../shared/command.js";
import { writeDoc } from "../../shared/doc.js";
import { examples } from "../../shared/help.js";

/** `errata v4 taxonomy`: the failure taxonomy page (classes and modes), to stdout or `--out`. */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("taxonomy")
    .description("Write the failure taxonomy page (classes and modes: definition, example, counterexample)")
    .option("--out <file>", "write to this file instead of stdout")
    .option("--dry-run", "print what would be written, write nothing")
    .option("--json", "print one JSON value: {out, bytes}")
    .addHelpText("after", examples(["errata v4 taxonomy --out taxonomy.md"]))
    .action((flags: { out?: string; dryRun?: boolean; json?: boolean }) => {
      const page = renderTaxonomyPage();
      writeDoc(ctx, page, flags);
    });
}
