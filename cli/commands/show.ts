/**
 * `errata show <id>`: one erratum with its patches folded on, and where its lines are.
 *
 * Example: `errata show er-20261130-3fa9c1` -> the fields, one per line, then
 * `patches: 1 (errata-2026-12.jsonl:4 status=enriched)`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { ErrataError } from "../../core/errors.js";
import { printJson, println } from "../shared/io.js";
import { ledgerFor, reportProblems } from "../shared/ledger.js";
import { ERRATUM_ID_PATTERN } from "../../schemas/erratum-constants.js";
import { badInput } from "../../core/errors.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("show")
    .description("Show one erratum with its patches folded on")
    .argument("<id>", "erratum id, er-YYYYMMDD-xxxxxx")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        `errata add bug: it pushed to main without asking && errata show "$(errata list --limit 1 --json | grep -o 'er-[0-9]*-[0-9a-f]*' | head -1)"`,
        [`echo '{"ts":"2026-11-02T10:00:00Z","rating":3,"comment":"it ignored my instructions"}' > ratings.jsonl &&`, "errata backfill --ratings ratings.jsonl && errata show er-20261102-eb1ff9 --json"],
      ]),
    )
    .action(async (id: string, opts: { json?: boolean }) => {
      if (!ERRATUM_ID_PATTERN.test(id)) throw badInput("bad id", "er-YYYYMMDD- followed by 6 hex digits", JSON.stringify(id));
      const { errata, problems } = ledgerFor(ctx).readAll();
      reportProblems(ctx, problems.filter((p) => p.id === undefined || p.id === id));
      const f = errata.find((x) => x.erratum.id === id);
      if (!f) throw new ErrataError("NOT_FOUND", `no erratum with id ${id}`, { expected: "an id listed by `errata list`", found: id });
      if (opts.json) {
        printJson(ctx.io, { erratum: f.erratum, file: f.file, line: f.line, updated: f.updated, patches: f.patches });
        return;
      }
      const e = f.erratum;
      const rows: Array<[string, string]> = [
        ["id", e.id],
        ["ts", e.ts],
        ["system", `${e.system} (${e.target}, instance ${e.instance})`],
        ["source", `${e.source} via ${e.channel}`],
        ["kind", e.kind],
        ["status", e.status],
        ["rating", e.rating === null ? "-" : String(e.rating)],
        ["frustration", e.frustration === null ? "-" : String(e.frustration)],
        ["reporter", `${e.reporter.id} (${e.reporter.role})`],
        ["complaint", e.complaint],
      ];
      for (const [k, v] of Object.entries(e.context)) {
        if (v === null || (Array.isArray(v) && v.length === 0)) continue;
        rows.push([`context.${k}`, Array.isArray(v) ? v.join(", ") : String(v)]);
      }
      if (e.enrichment) {
        const en = e.enrichment;
        rows.push(["enrichment", `${en.model} (${en.enrichment_version}), confidence ${en.confidence}`]);
        rows.push(["  how_upset", String(en.how_upset)]);
        rows.push(["  class", en.class ?? "-"]);
        rows.push(["  what_upset", en.what_upset]);
        rows.push(["  which_part", en.which_part]);
        rows.push(["  reporter_right", `${en.reporter_right === null ? "unclear" : en.reporter_right ? "yes" : "no"}: ${en.reporter_right_reason}`]);
        rows.push(["  root_cause", en.root_cause_hypothesis]);
        rows.push(["  proposed_fix", en.proposed_fix]);
      } else {
        rows.push(["enrichment", "none yet"]);
      }
      for (const [k, v] of Object.entries(e.links)) rows.push([`links.${k}`, Array.isArray(v) ? v.join(", ") : String(v)]);
      rows.push(["line", `${f.file}:${f.line}`]);
      for (const p of f.patches) rows.push(["patch", `${p.file}:${p.line} ${p.ts} ${Object.keys(p.set).join(", ")}`]);
      const width = Math.max(...rows.map(([k]) => k.length));
      for (const [k, v] of rows) println(ctx.io, `${k.padEnd(width)}  ${v.replace(/\n/g, `\n${" ".repeat(width + 2)}`)}`);
    });
}
