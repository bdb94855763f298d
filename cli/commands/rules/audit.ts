import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import { onLadder, runAudit, syncIndexRules, syncMemoryRules } from "../../../runtime/ladder/index.js";
import { resolvePaths } from "../../../runtime/paths.js";
import { readRuleIndex, ruleIndexPath } from "../../../runtime/rules/index.js";
import type { CommandContext } from "../../shared/command.js";
import { examples } from "../../shared/help.js";
import { reviewerFor } from "./loosen.js";
import { printJson, println, warn } from "../../shared/io.js";
import { lockedAction, WAIT_OPTION } from "../../shared/run-lock.js";

const jsonlUnder = (root: string): string[] => {
  const out: string[] = [];
  for (const e of readdirSync(root, { withFileTypes: true })) {
    const p = join(root, e.name);
    if (e.isDirectory()) out.push(...jsonlUnder(p));
    else if (e.name.endsWith(".jsonl") && statSync(p).size > 0) out.push(p);
  }
  return out.sort();
};

/**
 * `errata rules audit`: the nightly auditor by hand (errata daily runs it as its ladder stage):
 * counts incidents from transcripts into the rule ledger, diagnoses rules broken again, drafts
 * proposals, judges checks in shadow, and writes its receipts, an empty run included. With
 * --root a project's transcripts folder, its auto-memory notes (`memory/`) join the ledger as
 * rung-0 rules first (runtime/ladder/memory.ts).
 *
 * Example: `errata rules audit --root ~/.claude/projects/-home-me-app` -> "audit: 120 turns, 2 incidents, 1 mention; 1 proposal drafted (pr-...)".
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("audit")
    .description("Count incidents into the rule ledger, diagnose, draft proposals, judge checks in shadow (the nightly auditor)")
    .option("--root <dir>", "read every transcript (.jsonl) under this folder")
    .option("--transcript <file...>", "read these transcripts")
    .option("--project <dir>", "the project a climb edits when the corrections' sessions name none (default: the project of each correction's session, from its cwd)")
    .option("--dry-run", "report what it would count and draft, write nothing")
    .option("--json", "print one JSON value")
    .addHelpText("after", examples(["errata rules audit --project ."], { after: "With no transcripts it is an empty run: it still writes its receipts, so a quiet night differs from a night that never ran." }))
    .option(...WAIT_OPTION)
    .action(lockedAction(ctx, "errata rules audit", async (flags: { root?: string; transcript?: string[]; project?: string; dryRun?: boolean; json?: boolean }) => {
      const transcripts = [...(flags.transcript ?? []).map((f) => resolve(ctx.io.cwd, f)), ...(flags.root ? jsonlUnder(resolve(ctx.io.cwd, flags.root)) : [])];
      const at = new Date(ctx.io.now()).toISOString();
      // Read before anything is written, so a bad reviewer config (exit 2) writes nothing. A dry
      // run asks no reviewer: it would spend a remote call on drafts it throws away.
      const reviewer = flags.dryRun ? null : reviewerFor(ctx);
      const index = readRuleIndex(ruleIndexPath(resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir));
      const r = await onLadder(ctx.io.env, ctx.io.cwd, flags.dryRun === true, async (dir) => {
        syncIndexRules(dir, index, at, ctx.io.env["HOME"] ?? null);
        // The assistant's own memory (rung 0): a project's transcripts folder holds its auto-memory folder.
        if (flags.root) syncMemoryRules(dir, join(resolve(ctx.io.cwd, flags.root), "memory"));
        return runAudit({ ladderDir: dir, projectDir: flags.project === undefined ? null : resolve(ctx.io.cwd, flags.project), index, transcripts, at, reviewer, warn: (l) => warn(ctx.io, l) });
      });
      if (flags.json) return printJson(ctx.io, { ok: true, dry_run: flags.dryRun === true, ...r });
      println(ctx.io, `${flags.dryRun ? "would audit" : "audit"}: ${r.turns} turns in ${transcripts.length} transcripts, ${r.incidents} new incidents, ${r.mentions} mentions; ${r.proposals.length} proposals drafted${r.proposals.length ? ` (${r.proposals.join(", ")})` : ""}`);
      for (const d of r.diagnoses) println(ctx.io, `  ${d.rule_id}: ${d.diagnosis} at rung ${d.from} -> ${d.repair}`);
      for (const v of r.shadow) println(ctx.io, `  shadow ${v.check}: ${v.opportunities} sessions, ${v.earned ? "gate passed" : v.reasons.join("; ")}`);
    }));
}
