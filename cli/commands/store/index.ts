/**
 * `errata store export | import`: errata between the stores (your ledger, a server's JSONL
 * folder, PostgreSQL), one file a subcommand in this folder. The file between them is JSONL of
 * `erratum/1` lines, each as it stands with its patches folded on.
 */
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { register as exportCmd } from "./export.js";
import { register as importCmd } from "./import.js";

export function register(program: Command, ctx: CommandContext): void {
  const group = program
    .command("store")
    .description("Move errata between your ledger, a server's JSONL folder and PostgreSQL (export, import)")
    .addHelpText("after", examples([["errata add bug: it deleted the wrong branch &&", "errata store export --out errata.jsonl &&", "errata store import errata.jsonl --dir srv --tenant me"]]));
  for (const sub of [exportCmd, importCmd]) sub(group, ctx);
}
