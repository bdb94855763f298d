/**
 * `errata datasets list|copy`: the data sets bundled with Errata (datasets/README.md says
 * what each is), listed, or copied into a working folder, where the help texts' examples
 * read them.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { register as copy } from "./copy.js";
import { register as list } from "./list.js";
import { examples } from "../../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("datasets")
    .description("The data sets bundled with Errata: list them, copy them into a folder")
    .addHelpText(
      "after",
      examples([
        "errata datasets list",
        "errata datasets copy ab-redial && errata eval agreement --labels datasets/ab-redial/labels.jsonl",
      ]),
    );
  for (const sub of [list, copy]) sub(group, ctx);
}
