import { copyFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { printJson, println } from "../../shared/io.js";
import { bundledSets } from "../../shared/datasets.js";
import { examples } from "../../shared/help.js";

/**
 * `errata datasets copy <set...>`: copies bundled data sets into `--out` (default
 * `./datasets`, so the copies sit at the paths the docs use: `datasets/ab-redial/labels.jsonl`).
 * A file already there with the same bytes is left alone; one that differs is bad input and
 * nothing is copied.
 *
 * Example: `errata datasets copy ab-redial` -> `copied ab-redial (4 files) to datasets/ab-redial`.
 */
interface CopyFlags {
  out: string;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("copy")
    .description("Copy bundled data sets into a folder (default ./datasets), the way the examples use them")
    .argument("<sets...>", "set names, as `errata datasets list` prints them (e.g. ab-redial, claude-code/spotter)")
    .option("--out <dir>", "the folder to copy into (each set into <dir>/<set>)", "datasets")
    .option("--dry-run", "say what would be copied, copy nothing")
    .option("--json", "print one JSON value: {out, written, sets: [{name, to, copied, already}]}")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy ab-redial spotter",
        "errata datasets copy claude-code/spotter --out transcripts --dry-run",
      ]),
    )
    .action((names: string[], flags: CopyFlags) => {
      const sets = bundledSets();
      const out = resolve(ctx.io.cwd, flags.out);
      const unknown = names.filter((n) => !sets.some((s) => s.name === n));
      if (unknown.length > 0) throw badInput(`unknown data set ${unknown.join(", ")}`, `one of ${sets.map((s) => s.name).join(", ")}`, describeFound(unknown.join(" ")));
      // Every file is checked before any is copied: a conflict copies nothing.
      const plan = [...new Set(names)].map((name) => {
        const set = sets.find((s) => s.name === name)!;
        const to = join(out, name);
        const copy: string[] = [];
        const already: string[] = [];
        for (const f of set.files) {
          const dest = join(to, f);
          if (!existsSync(dest)) copy.push(f);
          else if (readFileSync(dest).equals(readFileSync(join(set.dir, f)))) already.push(f);
          else throw badInput(`${dest} exists and differs from the bundled ${name}/${f}`, "a folder without that file, or the same bytes", "another file there");
        }
        return { name, from: set.dir, to, copy, already };
      });
      if (!flags.dryRun) {
        for (const p of plan) {
          for (const f of p.copy) {
            mkdirSync(dirname(join(p.to, f)), { recursive: true });
            copyFileSync(join(p.from, f), join(p.to, f));
          }
        }
      }
      if (flags.json) return printJson(ctx.io, { out, written: !flags.dryRun, sets: plan.map((p) => ({ name: p.name, to: p.to, copied: p.copy, already: p.already })) });
      for (const p of plan) {
        println(ctx.io, `${flags.dryRun ? "would copy" : "copied"} ${p.name} (${p.copy.length} files${p.already.length ? `, ${p.already.length} already there` : ""}) to ${p.to}`);
      }
    });
}
