import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { printJson, println } from "../../shared/io.js";
import { bundledSets, datasetsDir } from "../../shared/datasets.js";
import { examples } from "../../shared/help.js";

/**
 * `errata datasets list`: the bundled data sets, their files and sizes.
 *
 * Example: `errata datasets list` -> `ab-redial  6 files, 880 KB: LICENSE, NOTICE.md, exchanges.jsonl, labels.jsonl`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("list")
    .description("List the bundled data sets with their files and sizes")
    .option("--json", "print one JSON value: {dir, sets: [{name, files, bytes}]}")
    .addHelpText("after", examples(["errata datasets list", "errata datasets list --json"]))
    .action((opts: { json?: boolean }) => {
      const dir = datasetsDir();
      const sets = bundledSets(dir);
      if (opts.json) return printJson(ctx.io, { dir, sets: sets.map(({ name, files, bytes }) => ({ name, files, bytes })) });
      for (const s of sets) println(ctx.io, `${s.name.padEnd(20)}  ${String(s.files.length).padStart(3)} files, ${kb(s.bytes).padStart(8)}: ${topLevel(s.files).join(", ")}`);
      println(ctx.io, `(copy one into this folder with: errata datasets copy ${sets[0]?.name ?? "NAME"})`);
    });
}

/** The set's own files and its subfolders (`transcripts/ (60 files)`), for one line. */
function topLevel(files: string[]): string[] {
  const folders = new Map<string, number>();
  const own: string[] = [];
  for (const f of files) {
    const [head, ...rest] = f.split(/[\\/]/);
    if (rest.length === 0) own.push(f);
    else folders.set(head!, (folders.get(head!) ?? 0) + 1);
  }
  return [...own, ...[...folders].map(([d, n]) => `${d}/ (${n} files)`)];
}

const kb = (bytes: number): string => `${Math.max(1, Math.round(bytes / 1024)).toLocaleString("en-US")} KB`;
