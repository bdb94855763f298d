import type { Command } from "commander";
import { badInput, describeFound } from "../../../core/errors.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { requireRuleIndex } from "../../../runtime/jobs/index.js";
import { searchRules } from "../../../runtime/rules/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { printJson, println } from "../../shared/io.js";

/**
 * `errata rules search <words...>`: the rules that best match the words (BM25).
 *
 * Example: `errata rules search never push main` -> `5.21  claude.git.1b7c4e  Never push to main; open a pull request.`
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("search")
    .description("Find rules by their words (BM25 over the index)")
    .argument("<words...>", "what to look for")
    .option("--limit <n>", "at most N rules", "5")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata datasets copy claude-md && errata rules build --root datasets/claude-md/2anki__server --no-home && errata rules search raw SQL string concatenation --limit 3"]))
    .action((words: string[], flags: { limit: string; json?: boolean }) => {
      const limit = Number(flags.limit);
      if (!Number.isInteger(limit) || limit < 1) throw badInput("bad --limit", "a whole number >= 1", describeFound(flags.limit));
      const index = requireRuleIndex(resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir);
      const hits = searchRules(index, words.join(" "), limit);
      if (flags.json) return printJson(ctx.io, { ok: true, query: words.join(" "), hits: hits.map((h) => ({ id: h.unit.id, score: Math.round(h.score * 1e4) / 1e4, text: h.unit.text })) });
      if (hits.length === 0) println(ctx.io, `no rule shares a word with "${words.join(" ")}" (${index.units.length} rules indexed)`);
      for (const h of hits) println(ctx.io, `${h.score.toFixed(2).padStart(6)}  ${h.unit.id}  ${h.unit.text.replace(/\s+/g, " ").slice(0, 100)}`);
    });
}
