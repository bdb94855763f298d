/**
 * `errata misses`: false passes, complaints citing exactly one output whose receipt passed
 * (a complaint citing several outputs names none). `--file-upgrades` files one upgrade per
 * false pass (deduplicated by claim hash, one per output: a re-run files nothing twice).
 *
 * Example: `errata misses --file-upgrades --json` -> `{"false_passes": [...], "filed": 2, "existing": 0, ...}`.
 */
import type { Command } from "commander";
import type { CommandContext } from "../shared/command.js";
import { joinedView } from "../shared/daily.js";
import { printJson, println } from "../shared/io.js";
import { parseSince } from "../shared/ledger.js";
import { falsePassClaim, findMisses } from "../../runtime/jobs/index.js";
import { fileUpgrades, type UpgradeDraft } from "../../runtime/jobs/index.js";
import { makeReceipt, writeRunReceipt } from "../../runtime/jobs/index.js";
import { runId } from "../../runtime/jobs/index.js";
import { examples } from "../shared/help.js";

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("misses")
    .description("False passes: complaints about a single output whose receipt passed")
    .option("--since <date>", "only complaints at or after this date")
    .option("--file-upgrades", "file one upgrade per false pass (deduplicated)")
    .option("--json", "print one JSON value")
    .option("--dry-run", "with --file-upgrades: say what would be filed, write nothing")
    .addHelpText(
      "after",
      examples([
        "errata misses",
        [
          `mkdir host && echo '{"schema":"output/1","id":"out-1","ts":"2026-11-29T10:02:09Z","session_id":null,"skill":"release-notes"}' > host/outputs.jsonl &&`,
          `echo '{"schema":"receipt/1","id":"rc-1","ts":"2026-11-29T10:02:10Z","output_id":"out-1","passed":true}' > host/receipts.jsonl &&`,
          "errata add the release notes missed two fixes --output-id out-1 &&",
          "ERRATA_HOST_DIR=host errata misses --file-upgrades --json",
        ],
      ]),
    )
    .action(async (opts: { since?: string; fileUpgrades?: boolean; json?: boolean; dryRun?: boolean }) => {
      const since = parseSince(opts.since);
      const { stage, errata, host } = await joinedView(ctx);
      const start = ctx.io.now();
      const res = findMisses(errata, host, since !== undefined ? Date.parse(since) : -Infinity, Infinity);
      let filed = 0;
      let existing = 0;
      const dryRun = opts.dryRun === true;
      if (opts.fileUpgrades) {
        const drafts: UpgradeDraft[] = res.false_passes.map((f) => ({
          kind: "false-pass",
          claim: falsePassClaim(f.output_id),
          system: null,
          class: null,
          skill: f.skill,
          output_id: f.output_id,
          erratum_ids: res.false_passes.filter((g) => g.output_id === f.output_id).map((g) => g.erratum_id),
          max_how_upset: null,
        }));
        const r = fileUpgrades(stage.files.upgrades, drafts, start, dryRun);
        filed = r.filed.length;
        existing = r.existing.length;
        if (!dryRun) {
          writeRunReceipt(
            stage.files.runs,
            makeReceipt({ runId: runId(start, "manual"), loop: "manual", stage: "misses", startedMs: start, endedMs: ctx.io.now(), ok: true, counts: { false_passes: res.false_passes.length, filed, existing }, dryRun: false }),
          );
        }
      }
      if (opts.json) {
        printJson(ctx.io, { ...res, filed, existing, dry_run: dryRun });
        return;
      }
      for (const f of res.false_passes) println(ctx.io, `false pass  ${f.erratum_id}  output ${f.output_id}  skill ${f.skill ?? "(none)"}  receipt ${f.receipt_id}`);
      println(ctx.io, `${res.false_passes.length} false pass(es); ${res.caught} caught by a failed receipt, ${res.unchecked} without a receipt, ${res.ambiguous} citing several outputs (name none), ${res.unresolved} unresolved`);
      if (opts.fileUpgrades) println(ctx.io, `${dryRun ? "would file" : "filed"} ${filed} upgrade(s); ${existing} already filed`);
    });
}
