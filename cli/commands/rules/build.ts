import { platform } from "node:os";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { badInput } from "../../../core/errors.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { loadDailyConfig, runRulesBuild } from "../../../runtime/jobs/index.js";
import { defaultManagedFiles } from "../../../runtime/rules/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { count, printJson, println } from "../../shared/io.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

interface Flags {
  root?: string[];
  project?: string[];
  home?: string | false;
  managed?: string[];
  source?: string[];
  git?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

/**
 * `errata rules build`: finds the instruction files as Claude Code loads them and writes the
 * index (`<v4 dir>/rules.json`) when anything changed.
 *
 * Example: `errata rules build --root .` -> `rules: 114 units from 3 sources (114 new, 0 kept, 0 carried, 0 vanished); wrote …/v4/rules.json`.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("build")
    .description("Index every rule of the instruction files (CLAUDE.md, .claude/rules, AGENTS.md, hookify, @imports); write the index when it changed")
    .option("--root <dir>", "a project root to index (repeat for several projects; default: the roots in the ledger's daily.json `rules`, else this folder)", collect)
    .option("--project <dir>", "the working folder the sessions of the --root at the same position ran in, when the files are a copy elsewhere (repeat in step with --root)", collect)
    .option("--home <dir>", "home folder for ~/.claude/CLAUDE.md and ~/.claude/rules (default $HOME)")
    .option("--no-home", "leave out the user's own files")
    .option("--managed <file>", "a managed policy file (repeat; default this platform's place, skipped when absent)", collect)
    .option("--source <file>", "another instruction file to index (repeat)", collect)
    .option("--no-git", "date units by the index's own history, not by git blame")
    .option("--dry-run", "build and report; write nothing")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy claude-md && errata rules build --root datasets/claude-md/2anki__server",
        "errata datasets copy synthetic && errata rules build --root datasets/synthetic/projects/invoice-api --project /home/dev/projects/invoice-api --no-home --json",
        "errata datasets copy claude-md && errata rules build --root datasets/claude-md/astral-sh__uv --dry-run",
      ]),
    )
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules build", (flags: Flags) => {
      const paths = resolvePaths(ctx.io.env, ctx.io.cwd);
      // Without --root, the roots and sources the daily config names (else this folder).
      const configured = loadDailyConfig(paths, ctx.io.env, ctx.io.cwd).config.rules;
      const fromConfig = flags.root === undefined && configured !== undefined && configured.roots.length > 0;
      const roots = fromConfig ? configured.roots.map((r) => resolve(paths.ledgerDir, r.root)) : (flags.root ?? [ctx.io.cwd]).map((r) => resolve(ctx.io.cwd, r));
      const projects = fromConfig ? configured.roots.map((r) => r.project) : (flags.project ?? []);
      if (projects.length > roots.length) throw badInput("more --project than --root", `at most ${roots.length} --project`, String(projects.length));
      const configSources = (configured?.sources ?? []).map((f) => resolve(paths.ledgerDir, f));
      const home = flags.home === false ? null : flags.home !== undefined ? resolve(ctx.io.cwd, flags.home) : (ctx.io.env["HOME"] ?? null);
      const today = new Date(ctx.io.now()).toISOString().slice(0, 10);
      const report = runRulesBuild({
        roots: roots.map((root, i) => (projects[i] !== undefined ? { root, project: resolve(ctx.io.cwd, projects[i] as string) } : { root })),
        home,
        managed: flags.managed ?? defaultManagedFiles(platform()),
        extra: [...(flags.source ?? []).map((s) => resolve(ctx.io.cwd, s)), ...configSources],
        v4Dir: paths.v4Dir,
        today,
        git: flags.git !== false,
        dryRun: flags.dryRun === true,
      });
      const { result } = report;
      const problems = result.index.sources.flatMap((s) => s.problems.map((p) => `${s.path}: ${p}`));
      if (flags.json) {
        return printJson(ctx.io, {
          ok: true,
          file: report.file,
          changed: result.changed,
          written: report.written,
          dry_run: flags.dryRun === true,
          would_write: flags.dryRun === true && result.changed ? [report.file] : [],
          units: result.index.units.length,
          sources: result.index.sources.map((s) => ({ source: s.source, path: s.path, kind: s.kind, load: s.load, units: s.units, problems: s.problems })),
          added: result.added,
          kept: result.kept,
          carried: result.carried,
          vanished: result.vanished,
        });
      }
      const s = result.index.sources;
      println(ctx.io, `rules: ${count(result.index.units.length, "unit")} from ${count(s.length, "source")} (${result.added} new, ${result.kept} kept, ${result.carried} carried, ${result.vanished} vanished)`);
      // With several projects in the index, a project's file is named with its folder (two CLAUDE.md lines otherwise).
      const several = result.index.projects.length > 1;
      for (const src of s) println(ctx.io, `  ${several && src.project !== null ? join(src.project, src.path) : src.path}  ${src.kind}, ${src.load}${src.scope ? ` [${src.scope.join(", ")}]` : ""}: ${count(src.units, "unit")}`);
      for (const p of problems) println(ctx.io, `  problem: ${p}`);
      if (s.length === 0) println(ctx.io, "  no instruction file found (looked for CLAUDE.md, .claude/CLAUDE.md, .claude/rules/, CLAUDE.local.md, AGENTS.md, hookify rules; --root names another project)");
      if (flags.dryRun) println(ctx.io, result.changed ? `dry run: would write ${report.file}` : "dry run: nothing changed");
      else println(ctx.io, report.written ? `wrote ${report.file}` : `unchanged: nothing written (${report.file})`);
    }));
}
