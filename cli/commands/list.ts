/**
 * `errata list`: errata newest first, folded with their patches, filtered.
 *
 * Example: `errata list --kind bug --since 2026-11-01 --limit 2`
 * -> `er-20261130-3fa9c1  2026-11-30 12:00  assistant  bug  new  it pushed to main without asking`
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { printJson, println } from "../shared/io.js";
import { ledgerFor, oneLine, parseKind, parseNumber, parseSince, parseStatus, reportProblems } from "../shared/ledger.js";
import { badInput } from "../../core/errors.js";
import { examples } from "../shared/help.js";

interface ListOptions {
  system?: string;
  kind?: string;
  status?: string;
  since?: string;
  limit?: string;
  unenriched?: boolean;
  json?: boolean;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("list")
    .description("List errata, newest first, with patches folded on")
    .option("--system <name>", "only this system")
    .option("--kind <kind>", "only this kind")
    .option("--status <status>", "only this status")
    .option("--since <date>", "only errata captured at or after this date (YYYY-MM-DD or ISO time)")
    .option("--limit <n>", "at most n errata", "50")
    .option("--unenriched", "only errata no model has enriched yet")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        "errata add bug: it pushed to main without asking && errata list --kind bug --since 2026-11-01 --limit 20",
        "errata list --unenriched --json",
      ]),
    )
    .action(async (opts: ListOptions) => {
      const kind = parseKind(opts.kind);
      const status = parseStatus(opts.status);
      const since = parseSince(opts.since);
      const limit = parseNumber("limit", opts.limit, { integer: true }) ?? 50;
      if (limit < 0) throw badInput("bad --limit", "a whole number >= 0", String(limit));
      const ledger = ledgerFor(ctx);
      const { errata, problems } = ledger.readAll();
      reportProblems(ctx, problems);
      const picked = errata
        .filter((f) => opts.system === undefined || f.erratum.system === opts.system)
        .filter((f) => kind === undefined || f.erratum.kind === kind)
        .filter((f) => status === undefined || f.erratum.status === status)
        .filter((f) => since === undefined || f.erratum.ts >= since)
        .filter((f) => !opts.unenriched || f.erratum.enrichment === null)
        .sort((a, b) => (a.erratum.ts < b.erratum.ts ? 1 : a.erratum.ts > b.erratum.ts ? -1 : 0));
      const shown = picked.slice(0, limit);
      if (opts.json) {
        printJson(ctx.io, { total: picked.length, shown: shown.length, errata: shown.map((f) => f.erratum) });
        return;
      }
      if (shown.length === 0) {
        println(ctx.io, "no errata match");
        return;
      }
      for (const { erratum: e } of shown) {
        const when = `${e.ts.slice(0, 10)} ${e.ts.slice(11, 16)}`;
        println(ctx.io, `${e.id}  ${when}  ${e.system}  ${e.kind}  ${e.status}  ${oneLine(e.complaint, 70)}`);
      }
      if (picked.length > shown.length) println(ctx.io, `(${picked.length - shown.length} more; raise --limit)`);
    });
}
