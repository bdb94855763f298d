import type { Command } from "commander";
import { ErrataError } from "../../../core/errors.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { requireRuleIndex } from "../../../runtime/jobs/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";

/**
 * `errata rules show <id>`: one rule unit, where it is, its dates and the carries of its id.
 *
 * Example: `errata rules show claude.git.1b7c4e` -> the unit's text, "CLAUDE.md lines 12-12, section Git", dates, history.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("show")
    .description("Show one rule: its text, file and lines, section, dates and the history of its id")
    .argument("<id>", "a rule id (errata rules search finds them)")
    .option("--json", "print one JSON value")
    .addHelpText(
      "after",
      examples([
        "errata datasets copy claude-md && errata rules build --root datasets/claude-md/astral-sh__uv --no-home && errata rules show agents.top.cc20a2",
      ]),
    )
    .action((id: string, flags: { json?: boolean }) => {
      const index = requireRuleIndex(resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir);
      const unit = index.units.find((u) => u.id === id);
      const carries = index.carries.filter((c) => c.id === id);
      const vanished = index.vanished.find((v) => v.id === id);
      if (unit === undefined && vanished === undefined) {
        throw new ErrataError("NOT_FOUND", `no rule ${id}`, { expected: "an id of the index (errata rules search <words> lists them)", found: id });
      }
      const source = index.sources.find((s) => s.source === (unit?.source ?? vanished?.source));
      if (flags.json) return printJson(ctx.io, { ok: true, unit: unit ?? null, source: source ?? null, carries, vanished: vanished ?? null });
      if (unit === undefined) {
        println(ctx.io, `${id} vanished on ${vanished?.at}: ${vanished?.text}`);
        return;
      }
      println(ctx.io, unit.id);
      println(ctx.io, `  ${source?.path ?? unit.source} lines ${unit.line_start}-${unit.line_end} of ${unit.file_lines}${unit.heading_path.length ? `, section ${unit.heading_path.join(" > ")}` : ""} (${unit.kind})`);
      println(ctx.io, `  first seen ${unit.first_seen}, last changed ${unit.last_changed} (from ${unit.dates_from})${unit.scope ? `; applies to ${unit.scope.join(", ")}` : ""}`);
      for (const line of unit.text.split("\n")) println(ctx.io, `  | ${line}`);
      for (const c of carries) println(ctx.io, `  carried on ${c.at}: ${c.from_hash} -> ${c.to_hash} (word overlap ${c.overlap})`);
    });
}
