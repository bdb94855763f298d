import { join } from "node:path";
import type { Command } from "commander";
import { bank, bankHash, renderBrief } from "../../../../questions/index.js";
import { startLabelServer } from "../../../../runtime/pages/index.js";
import type { CommandContext } from "../../../shared/command.js";
import { badInput, describeFound } from "../../../../core/errors.js";
import { printJson, println } from "../../../shared/io.js";
import { evalPaths, parseIntOption, resolveFrom } from "../../../shared/eval-files.js";
import { examples } from "../../../shared/help.js";
import { LABELER, sheetItems } from "./export.js";

/**
 * `errata eval label serve`: the labelling page on 127.0.0.1: one URL per labeller, each with
 * that labeller's token (a token reads and writes only its own sheet), every answer saved as
 * it is given, a restart resuming where each labeller stopped, and the filled sheet exported
 * in the format `eval label import` validates. Runs until Ctrl-C; `--dry-run` binds, prints the
 * URLs and stops, writing nothing.
 *
 * Example: `errata eval label serve --labelers ana,ben --exchanges ex.jsonl` ->
 * "ana: http://127.0.0.1:7311/?t=5c1f…" and "ben: http://127.0.0.1:7311/?t=a09e…".
 */
interface ServeFlags {
  labelers: string;
  gold?: string;
  exchanges?: string[];
  questions?: string;
  split: string;
  host: string;
  port?: string;
  allowNonLoopback?: boolean;
  state?: string;
  dryRun?: boolean;
  json?: boolean;
}

export const DEFAULT_PORT = 7311;

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("serve")
    .description("Serve the labelling page on 127.0.0.1: one token URL per labeller, keyboard-first, autosaved, exports the sheet eval label import reads")
    .requiredOption("--labelers <ids>", "comma-separated labeller ids, one token each")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--exchanges <files...>", "exchange/1 JSONL with the items' text (default: the v4 folder's exchanges.jsonl)")
    .option("--questions <list>", "answer columns, e.g. detect.unhappy,satisfaction:1-5 (default: the bank's questions and class)")
    .option("--split <side>", "all, fit or holdout", "all")
    .option("--host <address>", "address to bind (loopback only unless --allow-non-loopback)", "127.0.0.1")
    .option("--port <n>", `port (default ${DEFAULT_PORT}; 0 picks a free one)`)
    .option("--allow-non-loopback", "allow binding an address other people can reach (the tokens are then the only guard)")
    .option("--state <dir>", "tokens and answers (default: <ledger>/eval/serve)")
    .option("--dry-run", "bind, print the URLs and stop; write nothing")
    .option("--json", "print one JSON value: {host, port, urls, items, questions, state, dry_run}")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial && errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 30 --failure-items 0 &&",
          "errata eval label serve --labelers ana,ben --exchanges datasets/ab-redial/exchanges.jsonl --questions detect.unhappy,satisfaction:1-5 --port 0 --dry-run",
        ],
      ]),
    )
    .action((flags: ServeFlags) => runServe(ctx, flags));
}

async function runServe(ctx: CommandContext, flags: ServeFlags): Promise<void> {
  const labelers = flags.labelers.split(",").map((s) => s.trim()).filter((s) => s !== "");
  const bad = labelers.find((l) => !LABELER.test(l));
  if (labelers.length === 0 || bad !== undefined) throw badInput("bad --labelers", "comma-separated ids of letters, digits and _ . : @ -", describeFound(flags.labelers));
  if (new Set(labelers).size !== labelers.length) throw badInput("bad --labelers", "each labeller once", describeFound(flags.labelers));
  const port = parseIntOption("--port", flags.port, DEFAULT_PORT, 0, 65535);
  const { items, questions } = sheetItems(ctx, flags);
  const stateDir = flags.state ? resolveFrom(ctx.io, flags.state) : join(evalPaths(ctx.io).dir, "serve");
  const dryRun = flags.dryRun === true;
  const server = await startLabelServer({
    host: flags.host,
    port,
    stateDir,
    labelers,
    items,
    questions,
    brief: renderBrief(bank, bankHash),
    allowNonLoopback: flags.allowNonLoopback === true,
    writeTokens: !dryRun,
  });
  const out = { host: flags.host, port: server.port, urls: server.urls, items: items.length, questions: questions.map((q) => q.id), state: stateDir, dry_run: dryRun };
  if (flags.json) printJson(ctx.io, out);
  else {
    for (const [l, url] of Object.entries(server.urls)) println(ctx.io, `${l}: ${url}`);
    println(ctx.io, `${items.length} items, ${questions.length} questions; answers saved in ${stateDir}${dryRun ? " (dry run: stopped, nothing written)" : "; Ctrl-C stops"}`);
  }
  if (dryRun) return server.close();
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      void server.close().then(resolve);
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}
