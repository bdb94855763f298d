import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { badInput, describeFound, ErrataError } from "../../../core/errors.js";
import { budgetReport, DEFAULT_BUDGET, ladderDir, openRuleLedger, readInstalledChecks } from "../../../runtime/ladder/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";

/**
 * `errata rules budget`: the always-loaded file against its attention budget (default 200
 * lines), its rules most harmful first (incidents x severity), and what the ladder would move
 * out (only rules an active check carries; never a rule for being old).
 *
 * Example: `errata rules budget --file CLAUDE.md` -> "CLAUDE.md: 230 lines, budget 200 (30 over)\n  would move: ...".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("budget")
    .description("Show the always-loaded file against its line budget, and what the ladder would move")
    .option("--file <path>", "the always-loaded file", "CLAUDE.md")
    .option("--budget <lines>", "the budget in lines", String(DEFAULT_BUDGET))
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([["printf '# Project\\n\\n- Use pnpm, never npm.\\n' > CLAUDE.md &&", "errata rules budget --file CLAUDE.md --budget 2"]]))
    .action((flags: { file: string; budget: string; json?: boolean }) => {
      const budget = Number(flags.budget);
      if (!Number.isInteger(budget) || budget < 1) throw badInput("bad --budget", "a whole number of lines >= 1", describeFound(flags.budget));
      const file = resolve(ctx.io.cwd, flags.file);
      if (!existsSync(file)) throw new ErrataError("NOT_FOUND", `no file ${flags.file}`, { expected: "the always-loaded instruction file (CLAUDE.md)", found: "nothing" });
      const dir = ladderDir(ctx.io.env, ctx.io.cwd);
      const rules = [...openRuleLedger(dir).read().ledger.rules.values()];
      const checks = readInstalledChecks(dir);
      const r = budgetReport(flags.file, readFileSync(file, "utf8"), rules, checks, budget);
      if (flags.json) return printJson(ctx.io, { ok: true, ...r });
      println(ctx.io, `${r.file}: ${r.lines} lines, budget ${r.budget}${r.over > 0 ? ` (${r.over} over)` : " (within)"}`);
      for (const x of r.ranked) println(ctx.io, `  ${x.rule_id}: harm ${x.harm} (${x.incidents} incidents)${x.exempt ? ", exempt" : ""}`);
      println(ctx.io, r.wouldMove.length > 0 ? `  would move (a stronger rung carries them): ${r.wouldMove.join("; ")}` : "  nothing to move: no rule of this file is carried by an active check");
      if (r.over > 0 && r.wouldMove.length === 0) println(ctx.io, "  over budget, and only the owner may loosen a rule: see errata rules approvals");
    });
}
