/**
 * `errata store export | import`: errata between the stores (your ledger, a server's JSONL
 * folder, PostgreSQL), one file a subcommand in this folder. The file between them is JSONL of
 * `erratum/1` lines, each as it stands with its patches folded on.
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  export: () => import("./export.js"),
  import: () => import("./import.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("store")
    .description("Move errata between your ledger, a server's JSONL folder and PostgreSQL (export, import)")
    .addHelpText("after", examples([["errata add bug: it deleted the wrong branch &&", "errata store export --out errata.jsonl &&", "errata store import errata.jsonl --dir srv --tenant me"]]));
  for (const sub of subs) sub(group, ctx);
}
