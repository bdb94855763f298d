/**
 * `errata notebook <name> --out DIR`: renders a notebook (or `all` of them) as static
 * self-contained HTML pages, `<DIR>/<name>.html`, from the bundled data or from the files
 * `--input key=file` names. The same inputs give the same bytes. A missing input is bad
 * input naming the file and the command that makes it.
 *
 * Example: `errata notebook all --out pages` -> "wrote pages/agreement.html (52,310 bytes)", ….
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { NOTEBOOKS, notebookNamed, renderNotebook } from "../../notebooks/index.js";
import type { CommandContext } from "../shared/command.js";
import { badInput, describeFound } from "../../core/errors.js";
import { printJson, println } from "../shared/io.js";
import { examples } from "../shared/help.js";

/** The package root (the first folder up holding package.json; the same from source and from dist/): bundled inputs are read from there. */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function parseInputs(list: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of list) {
    const m = /^([a-z][a-z0-9-]*)=(.+)$/.exec(item);
    if (!m) throw badInput("bad --input", "key=file, e.g. score=score.json", describeFound(item));
    out[m[1]!] = m[2]!;
  }
  return out;
}

export function register(program: Command, ctx: CommandContext): void {
  program
    .command("notebook")
    .description(`Render a notebook as one static HTML page (${NOTEBOOKS.map((n) => n.name).join(", ")}, or all)`)
    .argument("<name>", "a notebook's name, or all")
    .requiredOption("--out <dir>", "folder for <name>.html (created if missing)")
    .option("--input <key=file...>", "read this file for one of the notebook's inputs instead of the bundled one")
    .option("--dry-run", "render, write nothing")
    .option("--json", "print one JSON value: {pages: [{name, file, bytes}], written}")
    .addHelpText(
      "after",
      examples([
        "errata notebook rules --out pages",
        "errata datasets copy ab-redial && errata notebook agreement --input labels=datasets/ab-redial/labels.jsonl --out pages",
        "errata notebook detectors --out pages --json",
      ]) + `\nInputs (key: bundled file; how to make one):\n${NOTEBOOKS.flatMap((n) => n.inputs.map((i) => `  ${n.name} ${i.key}: ${i.bundled}; ${i.make}`)).join("\n")}\n`,
    )
    .action(async (name: string, flags: { out: string; input?: string[]; dryRun?: boolean; json?: boolean }) => {
      const chosen = name === "all" ? [...NOTEBOOKS] : [notebookNamed(name)];
      const given = parseInputs(flags.input ?? []);
      if (name === "all" && Object.keys(given).length > 0) throw badInput("--input with all", "one notebook's name with --input", `all and ${Object.keys(given).join(", ")}`);
      const dir = resolve(ctx.io.cwd, flags.out);
      const pages: { name: string; file: string; bytes: number }[] = [];
      const rendered: { file: string; html: string }[] = [];
      for (const nb of chosen) {
        const html = await renderNotebook(nb, packageRoot(), given, ctx.io.cwd);
        const file = join(dir, `${nb.name}.html`);
        rendered.push({ file, html });
        pages.push({ name: nb.name, file, bytes: Buffer.byteLength(html) });
      }
      // Every page rendered before any is written: a missing input writes nothing.
      if (!flags.dryRun) {
        mkdirSync(dir, { recursive: true });
        for (const r of rendered) writeFileSync(r.file, r.html);
      }
      if (flags.json) printJson(ctx.io, { pages, written: !flags.dryRun });
      else for (const p of pages) println(ctx.io, `${flags.dryRun ? "would write" : "wrote"} ${p.file} (${p.bytes.toLocaleString("en-US")} bytes)`);
    });
}
