import { join } from "node:path";
import type { Command } from "commander";
import { bank, bankHash, renderBrief } from "../../../../questions/index.js";
import { startLabelServer } from "../../../../runtime/pages/index.js";
import type { CommandContext } from "../../../shared/command.js";
import { badInput, describeFound } from "../../../../core/errors.js";
import { printJson, println } from "../../../shared/io.js";
import { evalPaths, parseIntOption, resolveFrom } from "../../../shared/eval-files.js";
import { answerSpecs } from "../../../shared/eval-questions.js";
import { examples } from "../../../shared/help.js";
import { exchangeTexts, LABELER, sheetItems } from "./export.js";
import { lastActiveRound, proposedOf } from "../../../shared/eval-next.js";
import { loadLabels } from "../../../shared/eval-labels.js";

/**
 * `errata eval label serve`: the labelling page on 127.0.0.1: one URL per labeller, each with
 * that labeller's token (a token reads and writes only its own sheet), every answer saved as
 * it is given, a restart resuming where each labeller stopped, and the filled sheet exported
 * in the format `eval label import` validates. When an active-labelling round exists
 * (`eval sample --next K` wrote `active.jsonl`), the page serves that round's proposed items,
 * most informative first, to every labeller (`--items gold` serves the gold set instead).
 * `--adjudicators` adds the adjudication view: one URL each, over the items the labellers split
 * on in the labels of record. Runs until Ctrl-C; `--dry-run` binds, prints the URLs and stops,
 * writing nothing.
 *
 * Example: `errata eval label serve --labelers ana,ben --exchanges ex.jsonl` ->
 * "ana: http://127.0.0.1:7311/?t=5c1f…" and "ben: http://127.0.0.1:7311/?t=a09e…".
 */
interface ServeFlags {
  labelers?: string;
  adjudicators?: string;
  labels?: string[];
  adjudications?: string;
  items: string;
  active?: string;
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
    .option("--labelers <ids>", "comma-separated labeller ids, one token each")
    .option("--adjudicators <ids>", "comma-separated adjudicator ids, one token each: the adjudication view of the items the labellers split on")
    .option("--labels <files...>", "with --adjudicators: the label/1 files of record (default: <ledger>/eval/labels.jsonl)")
    .option("--adjudications <file>", "with --adjudicators: adjudication/1 JSONL to append to (default: <ledger>/eval/adjudications.jsonl)")
    .option("--items <which>", "auto (the last active-labelling round's proposals when active.jsonl exists, else the gold set), active or gold", "auto")
    .option("--active <file>", "active-draw/1 rounds (default: <ledger>/eval/active.jsonl)")
    .option("--gold <file>", "gold-item/1 JSONL (default: <ledger>/eval/gold.jsonl)")
    .option("--exchanges <files...>", "exchange/1 JSONL with the items' text (default: the v4 folder's exchanges.jsonl)")
    .option("--questions <list>", "answer columns, e.g. detect.unhappy,satisfaction:1-5 (default: the bank's questions and class)")
    .option("--split <side>", "all, fit or holdout", "all")
    .option("--host <address>", "address to bind (loopback only unless --allow-non-loopback)", "127.0.0.1")
    .option("--port <n>", `port (default ${DEFAULT_PORT}; 0 picks a free one)`)
    .option("--allow-non-loopback", "allow binding an address other people can reach (the tokens are then the only guard)")
    .option("--state <dir>", "tokens and answers (default: <ledger>/eval/serve)")
    .option("--dry-run", "bind, print the URLs and stop; write nothing")
    .option("--json", "print one JSON value: {host, port, urls, adjudicator_urls, items, order, questions, disputed, state, dry_run}")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial && errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 30 --failure-items 0 &&",
          "errata eval label serve --labelers ana,ben --exchanges datasets/ab-redial/exchanges.jsonl --questions detect.unhappy,satisfaction:1-5 --port 0 --dry-run",
        ],
        [
          "errata datasets copy ab-redial &&",
          "errata eval label serve --adjudicators lee --labels datasets/ab-redial/labels.jsonl --exchanges datasets/ab-redial/exchanges.jsonl --questions detect.unhappy --port 0 --dry-run",
        ],
      ]),
    )
    .action((flags: ServeFlags) => runServe(ctx, flags));
}

const ids = (flag: string, raw: string | undefined): string[] => {
  const list = (raw ?? "").split(",").map((x) => x.trim()).filter((x) => x !== "");
  const bad = list.find((l) => !LABELER.test(l));
  if ((raw !== undefined && list.length === 0) || bad !== undefined) throw badInput(`bad ${flag}`, "comma-separated ids of letters, digits and _ . : @ -", describeFound(raw ?? ""));
  if (new Set(list).size !== list.length) throw badInput(`bad ${flag}`, "each id once", describeFound(raw ?? ""));
  return list;
};

async function runServe(ctx: CommandContext, flags: ServeFlags): Promise<void> {
  const labelers = ids("--labelers", flags.labelers);
  const adjudicators = ids("--adjudicators", flags.adjudicators);
  if (labelers.length === 0 && adjudicators.length === 0) throw badInput("nobody to serve", "--labelers and/or --adjudicators", "neither");
  if (!["auto", "active", "gold"].includes(flags.items)) throw badInput("bad --items", "auto, active or gold", describeFound(flags.items));
  const port = parseIntOption("--port", flags.port, DEFAULT_PORT, 0, 65535);
  const p = evalPaths(ctx.io);
  const activeFile = flags.active ? resolveFrom(ctx.io, flags.active) : p.active;
  const round = flags.items === "gold" ? null : lastActiveRound(activeFile);
  if (flags.items === "active" && round === null) throw badInput("no active-labelling round", `rounds in ${activeFile} (errata eval sample --next K)`, "none");
  const proposed = round ? proposedOf(round.rows).map((r) => r.exchange_id) : null;
  if (proposed !== null && proposed.length === 0) throw badInput(`the last active round (${round!.round}) proposed no items`, "a round with proposals (errata eval sample --next K)", "0");
  const { items, questions } = labelers.length > 0 ? sheetItems(ctx, flags, proposed ?? undefined) : { items: [], questions: answerSpecs(flags.questions) };
  const orderNote = round ? `active round ${round.round}: the most informative first` : "in your own shuffled order";
  const stateDir = flags.state ? resolveFrom(ctx.io, flags.state) : join(p.dir, "serve");
  const dryRun = flags.dryRun === true;
  let adjudication: Parameters<typeof startLabelServer>[0]["adjudication"];
  if (adjudicators.length > 0) {
    const { labels } = loadLabels(ctx, flags.labels);
    // Every question of the labels, or those --questions names.
    const asked = new Set(flags.questions ? questions.map((q) => q.id) : labels.map((l) => l.question));
    adjudication = {
      adjudicators,
      file: flags.adjudications ? resolveFrom(ctx.io, flags.adjudications) : p.adjudications,
      labels,
      questions: [...new Set(labels.map((l) => l.question))].filter((q) => asked.has(q)).sort(),
      texts: exchangeTexts(ctx, flags.exchanges).byId,
      now: ctx.io.now,
    };
  }
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
    order: round ? "given" : "shuffled",
    orderNote,
    ...(adjudication ? { adjudication } : {}),
  });
  const labellerUrls = Object.fromEntries(Object.entries(server.urls).filter(([l]) => labelers.includes(l)));
  const adjudicatorUrls = Object.fromEntries(Object.entries(server.urls).filter(([l]) => adjudicators.includes(l)));
  const disputed = server.desk ? { items: server.desk.items, without_text: server.desk.withoutText } : null;
  const out = { host: flags.host, port: server.port, urls: labellerUrls, adjudicator_urls: adjudicatorUrls, items: items.length, order: orderNote, questions: questions.map((q) => q.id), disputed, state: stateDir, dry_run: dryRun };
  if (flags.json) printJson(ctx.io, out);
  else {
    for (const [l, url] of Object.entries(labellerUrls)) println(ctx.io, `${l}: ${url}`);
    for (const [l, url] of Object.entries(adjudicatorUrls)) println(ctx.io, `${l} (adjudicator): ${url}`);
    if (labelers.length > 0) println(ctx.io, `${items.length} items (${orderNote}), ${questions.length} questions; answers saved in ${stateDir}${dryRun ? " (dry run: stopped, nothing written)" : "; Ctrl-C stops"}`);
    if (disputed) println(ctx.io, `adjudication: ${disputed.items} items the labellers split on${disputed.without_text > 0 ? ` (${disputed.without_text} more without their text in --exchanges)` : ""}; decisions appended to ${adjudication!.file}`);
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
