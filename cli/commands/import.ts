import type { Command } from "commander";
import { resolve } from "node:path";
import type { CommandContext } from "../shared/command.js";
import { badInput } from "../../core/errors.js";
import { printJson, println, progress, warn } from "../shared/io.js";
import { resolvePaths } from "../../runtime/paths.js";
import { IMPORT_FORMATS, runImport, type ImportFormat } from "../../runtime/corpora/index.js";
import { validateImport, writeImport } from "../../runtime/corpora/index.js";
import { examples } from "../shared/help.js";

interface ImportOpts {
  out?: string;
  json?: boolean;
  dryRun?: boolean;
  seed?: string;
  sessions?: string;
  transcripts?: boolean;
  perPart?: string;
}

function intOption(name: string, v: string | undefined, dflt: number, min: number): number {
  if (v === undefined) return dflt;
  if (!/^\d+$/.test(v) || Number(v) < min) throw badInput(`--${name} must be an integer >= ${min}`, `an integer >= ${min}`, v);
  return Number(v);
}

/** `errata import <format> <path>`: a labelled corpus (or a synthetic one) as exchanges + labels. */
export function register(program: Command, ctx: CommandContext): void {
  program
    .command("import")
    .description(`Convert a labelled corpus into exchanges.jsonl + labels.jsonl (formats: ${IMPORT_FORMATS.join(", ")})`)
    .argument("<format>", IMPORT_FORMATS.join(" | "))
    .argument("[path]", "the corpus file or folder (not used by synthetic)")
    .option("--out <dir>", "output folder (default: <v4>/corpora/<format>)")
    .option("--seed <n>", "synthetic: the seed", "1")
    .option("--sessions <n>", "synthetic: how many sessions", "60")
    .option("--per-part <n>", "dbdc3: keep only the first N dialogues of each part (a sample)")
    .option("--transcripts", "synthetic: also write the Claude Code JSONL sessions under <out>/transcripts")
    .option("--json", "print one JSON summary")
    .option("--dry-run", "convert and validate, write nothing")
    .addHelpText(
      "after",
      examples(
        [
          "errata import synthetic --seed 7 --sessions 60 --transcripts --out synthetic",
          "errata import synthetic --seed 3 --sessions 5 --dry-run --json",
        ],
        { after: `The other formats read a corpus you download (each bundled set's NOTICE.md says where):\n  errata import ab-redial annotated_turns.csv --out ab-redial\n  errata import dbdc3 DBDC3.zip --per-part 5 --out dbdc3\n  errata import uss SGD.txt --out uss-sgd` },
      ),
    )
    .action(async (format: string, path: string | undefined, opts: ImportOpts) => {
      const io = ctx.io;
      if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
        throw badInput("unknown import format", IMPORT_FORMATS.join(" | "), format);
      }
      const fmt = format as ImportFormat;
      if (fmt !== "synthetic" && path === undefined) throw badInput(`import ${fmt} needs a path`, "a corpus file or folder", "nothing");
      const seed = intOption("seed", opts.seed, 1, 0);
      const sessions = intOption("sessions", opts.sessions, 60, 1);
      const out = opts.out !== undefined ? resolve(io.cwd, opts.out) : resolve(resolvePaths(io.env, io.cwd).v4Dir, "corpora", fmt);
      // Three steps (convert, validate, write); the converters report no finer progress.
      const bar = progress(io, `import ${fmt}`, 3);
      bar.note("converting");
      const result = await runImport(fmt, path === undefined ? null : resolve(io.cwd, path), {
        seed,
        sessions,
        transcriptsDir: opts.transcripts && !opts.dryRun ? resolve(out, "transcripts") : null,
        ...(opts.perPart === undefined ? {} : { perPart: intOption("per-part", opts.perPart, 0, 1) }),
      });
      bar.tick();
      bar.note(opts.dryRun ? "validating" : "validating and writing");
      let written: { exchanges: string; labels: string } | null = null;
      if (opts.dryRun) validateImport(result);
      else written = writeImport(result, out);
      bar.tick(2);
      bar.done();
      for (const note of result.notes) warn(io, `errata import ${fmt}: ${note}`);
      const summary = {
        format: fmt,
        corpus: result.corpus,
        exchanges: result.exchanges.length,
        labels: result.labels.length,
        stats: result.stats,
        out: written,
        dryRun: opts.dryRun === true,
      };
      if (opts.json) {
        printJson(io, summary);
        return;
      }
      const where = written === null ? "(dry run, nothing written)" : `to ${out}`;
      println(io, `${result.corpus}: ${result.exchanges.length} exchanges, ${result.labels.length} labels ${where}`);
      println(io, Object.entries(result.stats).map(([k, v]) => `${k} ${v}`).join(", "));
    });
}
