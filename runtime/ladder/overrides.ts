/**
 * The auditor's one loosening draft: an active check that asks the owner, and that the owner
 * overrode (said yes to the very call it asked about) in REPEAT (2) distinct sessions, earns a
 * `loosen` proposal: back to shadow, the rule to rung 2. It is still only a proposal: nothing
 * moves without the owner's approve. An override is a live `tool-events.jsonl` line of an
 * active check that fired with decision `ask`, whose tool call then ran: the transcript holds
 * its tool_result and that result is not Claude Code's rejection ("The user doesn't want to
 * proceed with this tool use..."). A deny gives the owner no such moment (the model gets the
 * reason, the owner is not asked), so a deny check is never drafted down here; the owner
 * loosens it with `errata rules loosen`. Bias, stated: an owner who says yes to move on, not
 * because the check was wrong, counts as an override (pessimistic for the check).
 *
 * Example: check ladder-r asked twice, in sessions a and b, and the owner let both calls run
 * -> one loosen proposal 3 -> 2 for rule r, evidence the two tool_use ids.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import type { ToolEvent } from "../../schemas/ladder-checks.js";
import { REPEAT } from "./diagnose.js";
import type { DraftContext } from "./drafts.js";
import type { LedgerRule } from "./ledger.js";
import { loosenProposal } from "./loosen.js";
import { proposalId, type ProposalState } from "./proposals.js";

const REJECTED = /user doesn't want to proceed|tool use was rejected/i;

/** tool_use_id -> whether the call was rejected by the owner, for every tool_result of the transcripts. */
export function toolResults(files: readonly string[]): Map<string, { rejected: boolean }> {
  const out = new Map<string, { rejected: boolean }>();
  for (const f of files) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, "utf8").split("\n")) {
      if (!line.includes('"tool_result"')) continue;
      let rec: unknown;
      try {
        rec = JSON.parse(line);
      } catch {
        continue; // A torn line: the transcript reader reports those; here it is one result fewer.
      }
      const content = (rec as { message?: { content?: unknown } }).message?.content;
      if (!Array.isArray(content)) continue;
      for (const c of content as Array<Record<string, unknown>>) {
        if (c["type"] !== "tool_result" || typeof c["tool_use_id"] !== "string") continue;
        const text = typeof c["content"] === "string" ? c["content"] : JSON.stringify(c["content"] ?? "");
        out.set(c["tool_use_id"], { rejected: c["is_error"] === true && REJECTED.test(text) });
      }
    }
  }
  return out;
}

/** The loosen drafts the overrides earn (not yet in the table; the overrides behind any earlier loosen are spent). */
export function draftOverrideLoosens(rules: ReadonlyMap<string, LedgerRule>, events: readonly ToolEvent[], results: ReadonlyMap<string, { rejected: boolean }>, table: ReadonlyMap<string, ProposalState>, ctx: DraftContext): Proposal[] {
  const spent = new Set([...table.values()].filter((s) => s.proposal.type === "loosen").flatMap((s) => s.proposal.evidence.map((e) => e.split(" ")[0]!)));
  const byCheck = new Map<string, ToolEvent[]>();
  for (const e of events) {
    if (e.mode !== "active" || !e.fired || e.decision !== "ask" || e.tool_use_id === null || e.rule_id === null || spent.has(e.tool_use_id)) continue;
    const r = results.get(e.tool_use_id);
    if (r === undefined || r.rejected) continue;
    byCheck.set(e.check, [...(byCheck.get(e.check) ?? []), e]);
  }
  const out: Proposal[] = [];
  for (const [check, overrides] of byCheck) {
    const sessions = new Set(overrides.map((e) => e.session_id ?? "?"));
    const rule = rules.get(overrides[0]!.rule_id!);
    if (sessions.size < REPEAT || !rule || rule.rung !== 3 || rule.location.kind !== "check" || rule.location.check !== check) continue;
    const evidence = overrides.map((e) => `${e.tool_use_id} ${e.ts} session ${e.session_id ?? "?"}: check ${check} asked, the owner let the ${e.tool_name} call run`);
    let p: Proposal;
    try {
      p = loosenProposal(ctx.ladderDir, rule.rule_id, { why: `overridden in ${sessions.size} sessions` }, ctx);
    } catch {
      continue; // The check is gone from checks.json (or is a hookify rule): nothing to draft.
    }
    out.push({
      ...p,
      id: proposalId(rule.rule_id, "loosen", p.from_rung, p.to_rung, overrides.map((e) => e.tool_use_id!)),
      diagnosis: "overridden",
      why: `the owner let the calls check ${check} asked about run ${overrides.length} times in ${sessions.size} sessions: ${p.why}`,
      evidence,
    });
  }
  return out.filter((p) => !table.has(p.id));
}
