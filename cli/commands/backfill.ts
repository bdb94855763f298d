/**
 * `errata backfill`: imports the older signal stores (a `ratings.jsonl`, `FAILURES/*
 * /sentiment.json` folders, correction-sourced upgrade records) idempotently: a re-run
 * appends nothing. Formats: docs/capture.md.
 *
 * Example: `errata backfill --ratings old/ratings.jsonl --failures old/FAILURES --json`
 * -> `{"read": 41, "written": 12, "already": 0, "skipped": [...], "by_format": {...}}`
 */
import type { Command } from "commander";
import { existsSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { CommandContext } from "../shared/command.js";
import { badInput } from "../../core/errors.js";
import { count, printJson, println, warn } from "../shared/io.js";
import { ledgerFor } from "../shared/ledger.js";
import { readBackfillUpgrades as readUpgrades, readFailures, readRatings, type BackfillRead } from "../../runtime/jobs/index.js";
import { loadOrCreateReporterKey, pseudonymize, readReporterKey } from "../../runtime/privacy/index.js";
import { examples } from "../shared/help.js";

interface BackfillOpts {
  ratings?: string;
  failures?: string;
  upgrades?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("backfill")
    .description("Import older signal stores (ratings.jsonl low rows, FAILURES/*/sentiment.json, correction-sourced upgrades) idempotently")
    .option("--ratings <file>", "a ratings.jsonl (only ratings below 7 are imported)")
    .option("--failures <dir>", "a FAILURES folder of <name>/sentiment.json")
    .option("--upgrades <file>", "an upgrades.jsonl (records with source \"correction\")")
    .option("--dry-run", "read and report, write nothing")
    .option("--json", "print one JSON summary")
    .addHelpText(
      "after",
      examples([
        [
          `echo '{"ts":"2026-11-02T10:00:00Z","rating":3,"comment":"it ignored my instructions"}' > ratings.jsonl &&`,
          "errata backfill --ratings ratings.jsonl",
        ],
        [
          `mkdir -p FAILURES/f1 && echo '{"ts":"2026-10-20T09:00:00Z","user_message":"no, that is the wrong branch"}' > FAILURES/f1/sentiment.json &&`,
          "errata backfill --failures FAILURES --dry-run --json",
        ],
        [
          `echo '{"id":"up-7","source":"correction","ts":"2026-10-01T08:00:00Z","claim":"ask before force-pushing"}' > upgrades.jsonl &&`,
          "errata backfill --upgrades upgrades.jsonl --json",
        ],
      ]),
    )
    .action((opts: BackfillOpts) => {
      const io = ctx.io;
      if (opts.ratings === undefined && opts.failures === undefined && opts.upgrades === undefined) {
        throw badInput("nothing to backfill", "at least one of --ratings, --failures, --upgrades", "none");
      }
      const file = (flag: string, p: string | undefined, dir: boolean): string | undefined => {
        if (p === undefined) return undefined;
        const abs = resolve(io.cwd, p);
        if (!existsSync(abs) || statSync(abs).isDirectory() !== dir) throw badInput(`bad --${flag}`, dir ? "a folder" : "a file", p);
        return abs;
      };
      const ratings = file("ratings", opts.ratings, false);
      const failures = file("failures", opts.failures, true);
      const upgrades = file("upgrades", opts.upgrades, false);
      const ledger = ledgerFor(ctx);
      const key = opts.dryRun ? (readReporterKey(ledger.paths.stateDir) ?? Buffer.alloc(32)) : loadOrCreateReporterKey(ledger.paths.stateDir);
      const base = { nowMs: io.now(), reporter: { id: pseudonymize(io.env["USER"] ?? "owner", key), role: "owner" } };
      const reads: BackfillRead[] = [];
      if (ratings) reads.push(readRatings(ratings, basename(ratings), base));
      if (failures) reads.push(readFailures(failures, basename(failures), base));
      if (upgrades) reads.push(readUpgrades(upgrades, basename(upgrades), base));
      const candidates = reads.flatMap((r) => r.candidates);
      const skipped = reads.flatMap((r) => r.skipped);
      const existing = new Set(ledger.readAll().errata.map((f) => f.erratum.id));
      const byFormat: Record<string, { written: number; already: number }> = {};
      let written = 0;
      let already = 0;
      // Validate every row before writing any: bad input writes nothing.
      for (const c of candidates) if (!existing.has(c.erratum.id)) ledger.append(c.erratum, { dryRun: true });
      for (const c of candidates) {
        const f = (byFormat[c.format] ??= { written: 0, already: 0 });
        if (existing.has(c.erratum.id)) {
          already++;
          f.already++;
          continue;
        }
        if (!opts.dryRun) ledger.append(c.erratum);
        existing.add(c.erratum.id);
        written++;
        f.written++;
      }
      const summary = { read: candidates.length, written, already, skipped, by_format: byFormat, dry_run: opts.dryRun === true };
      if (opts.json) {
        printJson(io, summary);
        return;
      }
      for (const s of skipped) warn(io, `errata backfill: skipped ${s.ref}: ${s.reason}`);
      println(io, `${opts.dryRun ? "would write" : "wrote"} ${written} errata (${already} already in the ledger, ${count(skipped.length, "row")} skipped)`);
    });
}
