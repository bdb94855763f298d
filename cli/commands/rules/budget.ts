import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { badInput, describeFound, ErrataError } from "../../../core/errors.js";
import { budgetReport, DEFAULT_BUDGET, holdoutFromDir, ladderDir, openRuleLedger, readInstalledChecks, tokenBudget } from "../../../runtime/ladder/index.js";
import { mostBroken, openJudgments, v4Files } from "../../../runtime/judgments/index.js";
import { readRuleIndex, ruleIndexPath } from "../../../runtime/rules/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { cutsRequest } from "../../shared/cuts-file.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println, warn } from "../../shared/io.js";

/**
 * `errata rules budget`: the always-loaded file against its attention budget (default 200
 * lines), its rules most harmful first (incidents x severity), and what the ladder would move
 * out (only rules an active check carries; never a rule for being old). The file's tokens and
 * each rule's (about: @anthropic-ai/tokenizer approximates the model's count), against
 * `--budget-tokens` when set, and beside a rule whose check the owner held out, the incidents
 * the holdout shows prevented per thousand tokens (runtime/ladder/cost.ts).
 *
 * Beside it, the file's most-broken rules as every report counts them (runtime/judgments: the
 * v4 folder's failures under the one cuts chooser's cuts, their rule coverage), each count
 * beside the rule's text and the exchanges judged with it in view.
 *
 * Example: `errata rules budget --file CLAUDE.md` -> "CLAUDE.md: 230 lines, budget 200 (30 over)\n  would move: ...".
 */

/**
 * The file's rules among the most-broken: those whose source is this file (its project folder
 * and path); when the index names no source so (built with --project naming another folder),
 * those whose first line is in the file's text, as the ladder matches, and said so.
 */
function brokenInFile(ctx: CommandContext, file: string, text: string) {
  const v4Dir = resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir;
  if (!existsSync(v4Files(v4Dir).exchanges)) return null;
  const j = openJudgments({ v4Dir, cuts: cutsRequest(undefined, ctx.io), warn: (l) => warn(ctx.io, l) });
  const b = mostBroken(j, Number.POSITIVE_INFINITY);
  const index = readRuleIndex(ruleIndexPath(v4Dir));
  if (b === null || index === null) return null;
  const mine = new Set(index.sources.filter((s) => s.project !== null && resolve(s.project, s.path) === file).map((s) => s.source));
  const byPath = mine.size > 0;
  const rows = b.rows
    .filter((r) => (byPath ? mine.has(r.source) : text.includes(r.text.split("\n")[0]!.trim())))
    .map((r) => ({ rule_id: r.rule_id, text: r.text, count: r.count, sessions: r.sessions, judged_in_view: r.judged_in_view }));
  return { matched_by: byPath ? ("path" as const) : ("text" as const), cuts_origin: j.cuts.origin, rule_covers_cut: b.cut, rule_covers_origin: b.cut_origin, failures: b.failures, uncovered: b.uncovered, rows };
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("budget")
    .description("Show the always-loaded file against its line budget, and what the ladder would move")
    .option("--file <path>", "the always-loaded file", "CLAUDE.md")
    .option("--budget <lines>", "the budget in lines", String(DEFAULT_BUDGET))
    .option("--budget-tokens <n>", "a budget in tokens as well (counted about, with @anthropic-ai/tokenizer)")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples([["printf '# Project\\n\\n- Use pnpm, never npm.\\n' > CLAUDE.md &&", "errata rules budget --file CLAUDE.md --budget 2 --budget-tokens 10"]]))
    .action((flags: { file: string; budget: string; budgetTokens?: string; json?: boolean }) => {
      const budget = Number(flags.budget);
      if (!Number.isInteger(budget) || budget < 1) throw badInput("bad --budget", "a whole number of lines >= 1", describeFound(flags.budget));
      const budgetTokens = flags.budgetTokens === undefined ? null : Number(flags.budgetTokens);
      if (budgetTokens !== null && (!Number.isInteger(budgetTokens) || budgetTokens < 1)) throw badInput("bad --budget-tokens", "a whole number of tokens >= 1", describeFound(flags.budgetTokens));
      const file = resolve(ctx.io.cwd, flags.file);
      if (!existsSync(file)) throw new ErrataError("NOT_FOUND", `no file ${flags.file}`, { expected: "the always-loaded instruction file (CLAUDE.md)", found: "nothing" });
      const dir = ladderDir(ctx.io.env, ctx.io.cwd);
      const rules = [...openRuleLedger(dir).read().ledger.rules.values()];
      const checks = readInstalledChecks(dir);
      const text = readFileSync(file, "utf8");
      const r = budgetReport(flags.file, text, rules, checks, budget);
      const inFile = new Set(r.ranked.map((x) => x.rule_id));
      const tokens = tokenBudget(text, rules.filter((x) => inFile.has(x.rule_id)), holdoutFromDir(dir), budgetTokens);
      const broken = brokenInFile(ctx, file, text);
      if (flags.json) return printJson(ctx.io, { ok: true, ...r, tokens, most_broken: broken });
      println(ctx.io, `${r.file}: ${r.lines} lines, budget ${r.budget}${r.over > 0 ? ` (${r.over} over)` : " (within)"}`);
      println(ctx.io, `  about ${tokens.file_tokens} tokens read every turn${tokens.budget_tokens === null ? "" : `, budget ${tokens.budget_tokens}${tokens.over_tokens! > 0 ? ` (${tokens.over_tokens} over)` : " (within)"}`} (${tokens.tokenizer})`);
      const cost = new Map(tokens.rules.map((c) => [c.rule_id, c]));
      if (broken === null) println(ctx.io, "  most-broken: no judged failures covered yet (errata v4 detect, v4 diagnose, rules build, rules cover)");
      else {
        println(ctx.io, `  most-broken rules of this file, as errata v4 report counts them (${broken.failures} failures; cuts: ${broken.cuts_origin}; rule_covers cut ${broken.rule_covers_cut}${broken.matched_by === "text" ? "; rules matched by their text: the index names this file under another folder" : ""}):`);
        if (broken.rows.length === 0) println(ctx.io, "    none of its rules covers a failure");
        for (const x of broken.rows) println(ctx.io, `    ${x.rule_id}: broken ${x.count}x in ${x.sessions} session${x.sessions === 1 ? "" : "s"}; judged in view ${x.judged_in_view} exchanges; rule: ${x.text.replace(/\s+/g, " ").slice(0, 120)}`);
      }
      if (r.ranked.length > 0) println(ctx.io, "  the ladder's incidents, most harmful first:");
      for (const x of r.ranked) {
        const c = cost.get(x.rule_id);
        const per = c?.prevented_per_1k_tokens;
        println(ctx.io, `  ${x.rule_id}: harm ${x.harm} (${x.incidents} incidents)${x.exempt ? ", exempt" : ""}; about ${c?.tokens ?? 0} tokens${per === null || per === undefined ? "" : `; its holdout: ${c!.prevented!.toFixed(1)} incidents prevented, ${per.toFixed(0)} per 1k tokens`}`);
      }
      println(ctx.io, r.wouldMove.length > 0 ? `  would move (a stronger rung carries them): ${r.wouldMove.join("; ")}` : "  nothing to move: no rule of this file is carried by an active check");
      if (r.over > 0 && r.wouldMove.length === 0) println(ctx.io, "  over budget, and only the owner may loosen a rule: see errata rules approvals");
    });
}
