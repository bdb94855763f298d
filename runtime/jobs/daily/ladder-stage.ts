/**
 * The ladder stage of `errata daily`: the nightly auditor (runtime/ladder runAudit) over the
 * transcripts changed in the last two days: incidents counted into the rule ledger, rules
 * broken again diagnosed, proposals drafted for the owner, checks in shadow judged. Advisory:
 * a failure here is reported and never changes the daily exit code. A dry run does nothing.
 *
 * Example: ladderStage(ctx, root) -> {name: "ladder", advisory: true, run} whose output counts
 * {transcripts: 3, turns: 41, incidents: 1, mentions: 0, proposals: 0, shadow_checks: 1}.
 */
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { runAudit, syncIndexRules, type Reviewer } from "../../ladder/index.js";
import { readRuleIndex } from "../../rules/index.js";
import type { StageContext } from "./context.js";
import { stageOutput } from "./context.js";
import type { LoopStage } from "./run-loop.js";

const RECENT_MS = 2 * 86_400_000;

function recentTranscripts(root: string, sinceMs: number): string[] {
  const out: string[] = [];
  let entries;
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(root, e.name);
    if (e.isDirectory()) out.push(...recentTranscripts(p, sinceMs));
    else if (e.name.endsWith(".jsonl") && statSync(p).mtimeMs >= sinceMs) out.push(p);
  }
  return out.sort();
}

export interface LadderStageOptions {
  /** The rule index (`<v4>/rules.json`): its units join the rule ledger before the audit. */
  ruleIndexFile: string | null;
  /** The project a drafted climb edits when a correction's session names none (null: the climb asks; never the folder daily runs from). */
  projectDir: string | null;
  /** The home folder whose `~/.claude` files the index names (to say which file a session loaded). */
  home?: string | null;
  /** The reviewer lane (the engine config's `reviewer`), made when the stage runs; absent or null: offline. */
  reviewer?: () => Reviewer | null;
}

export function ladderStage(ctx: StageContext, root: string, opts: LadderStageOptions): LoopStage {
  return {
    name: "ladder",
    advisory: true,
    run: async () => {
      if (ctx.dryRun) return stageOutput({}, ["ladder: dry run, nothing audited"]);
      const now = ctx.nowMs();
      const transcripts = recentTranscripts(root, now - RECENT_MS);
      // The ladder folder sits in the ledger folder, beside upgrades.jsonl.
      const ladderDir = join(dirname(ctx.files.upgrades), "ladder");
      const at = new Date(now).toISOString();
      const index = opts.ruleIndexFile === null ? null : readRuleIndex(opts.ruleIndexFile);
      const added = syncIndexRules(ladderDir, index, at, opts.home ?? null);
      const warnings: string[] = [];
      const r = await runAudit({ ladderDir, projectDir: opts.projectDir, index, transcripts, at, reviewer: opts.reviewer ? opts.reviewer() : null, warn: (l) => warnings.push(l) });
      const counts = { rules_added: added, transcripts: transcripts.length, transcripts_skipped: r.skipped.length, turns: r.turns, incidents: r.incidents, mentions: r.mentions, undecided_rule: r.sorted["undecided_rule"] ?? 0, proposals: r.proposals.length, shadow_checks: r.shadow.length };
      return stageOutput(counts, [...warnings, ...(r.proposals.length > 0 ? [`ladder: ${r.proposals.length} proposal(s) waiting: errata rules approvals`] : [])]);
    },
  };
}
