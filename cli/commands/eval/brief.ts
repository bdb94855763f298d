/**
 * `errata eval brief`: the labellers' brief (Markdown), generated from the question bank:
 * every question with its text, guidance and examples, and nothing about any judge's
 * answers.
 *
 * Example: `errata eval brief --out brief.md` -> `wrote /…/brief.md (21034 bytes)`
 */
import type { Command } from "commander";
import { bank, bankHash, renderBrief } from "../../../questions/index.js";
import type { CommandContext } from "../../shared/command.js";
import { writeDoc } from "../../shared/doc.js";
import { examples } from "../../shared/help.js";

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("brief")
    .description("Write the labellers' brief from the question bank (questions, guidance, examples; no judge answers)")
    .option("--out <file>", "write to this file instead of stdout")
    .option("--dry-run", "print what would be written, write nothing")
    .option("--json", "print one JSON value: {out, bytes, written}")
    .addHelpText("after", examples(["errata eval brief --out brief.md"]))
    .action((flags: { out?: string; dryRun?: boolean; json?: boolean }) => {
      writeDoc(ctx, renderBrief(bank, bankHash), flags);
    });
}
