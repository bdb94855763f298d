/**
 * `errata eval brief`: the labellers' brief (Markdown), generated from the question bank:
 * every question with its text, guidance and examples, and nothing about any judge's
 * answers. Registered on the `eval` group, which helper E's `eval.ts` creates; whichever
 * file registers first creates the group and the other reuses it.
 *
 * Example: `errata eval brief --out brief.md` -> `wrote /…/brief.md (21034 bytes)`
 */
import type { Command } from "commander";
import { bank, bankHash, renderBrief } from "../../questions/index.js";
import type { CommandContext } from "../command.js";
import { writeDoc } from "./v4.js";

export function register(program: Command, ctx: CommandContext): void {
  const evalGroup =
    program.commands.find((c) => c.name() === "eval") ??
    program.command("eval").description("Gold sets, labels, agreement and scoring");
  if (evalGroup.commands.some((c) => c.name() === "brief")) return;
  evalGroup
    .command("brief")
    .description("Write the labellers' brief from the question bank (questions, guidance, examples; no judge answers)")
    .option("--out <file>", "write to this file instead of stdout")
    .option("--dry-run", "print what would be written, write nothing")
    .option("--json", "print one JSON value: {out, bytes, written}")
    .addHelpText("after", "\nExample:\n  $ errata eval brief --out brief.md")
    .action((flags: { out?: string; dryRun?: boolean; json?: boolean }) => {
      writeDoc(ctx, renderBrief(bank, bankHash), flags);
    });
}
