/**
 * Coverage: for each diagnosed failure, does a rule already cover it? BM25 picks four
 * candidate rules among those in view for the failure's session (its project's files and
 * the user's and managed ones; search.ts); the judge answers `rules.rule_covers` for each pair (one
 * exchange's pairs in one call, caller `errata-coverage`); code decides: the covering rule is
 * the scored candidate with the highest P(yes) at or over the cut, and the fix type follows
 * from that alone (`enforce_rule` when covered, `add_rule` when every candidate was judged and
 * none covers, null when an answer is missing). No model text decides it. A failure dated on
 * or before its covering rule's first-seen date broke no rule (`before_rule`), and is counted
 * apart; only a known first-seen date counts (git's, or a later build's: a first build without
 * git knows only that the rule existed by then).
 *
 * Example: a failure "npm again??" after "Ran `npm i`", with "- Use pnpm, never npm" in the
 * index -> `{covering: "claude.tooling.4e1a2b", fix: "enforce_rule", before_rule: false, …}`.
 */
import type { ClassId } from "../../questions/index.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { CoverageRecord, RuleIndex } from "../../schemas/rules.js";
import { componentOf } from "./component.js";
import { classText } from "./evaluate.js";
import { askRuleCovers, type RulesJudge } from "./judge.js";
import { candidateRules, RuleRetriever } from "./search.js";

export interface CoverFailure {
  exchange: Exchange;
  failureClass: ClassId | null;
  severity: number | null;
}

export interface CoverCut {
  value: number;
  /** Where the cut came from, printed in reports: "calibrated (...)", or "uncalibrated default". */
  origin: string;
}

export interface CoverOptions {
  cut: CoverCut;
  onProgress?: (done: number, total: number) => void;
}

function day(ts: string | null): string | null {
  return ts === null ? null : ts.slice(0, 10);
}

export async function coverFailures(index: RuleIndex, failures: readonly CoverFailure[], judge: RulesJudge, opts: CoverOptions): Promise<CoverageRecord[]> {
  const retrievers = new Map<string, RuleRetriever>();
  const retrieverFor = (cwd: string | null): RuleRetriever => {
    const key = cwd ?? "";
    let r = retrievers.get(key);
    if (r === undefined) retrievers.set(key, (r = RuleRetriever.of(index, cwd)));
    return r;
  };
  const byId = new Map(index.units.map((u) => [u.id, u]));
  const out: CoverageRecord[] = [];
  let done = 0;
  for (const f of failures) {
    const e = f.exchange;
    const tools = e.tool_calls.map((t) => t.summary);
    const hits = candidateRules(retrieverFor(e.cwd), { complaint: e.prompt, failureClass: classText(f.failureClass), reply: e.reply_end, tools });
    const answers = hits.length === 0 ? [] : await askRuleCovers(judge, hits.map((h, i) => ({ exchange: e, failureClass: f.failureClass, unit: h.unit, retrieval: { score: h.score, rank: i + 1, top: hits[0]?.score ?? 0, next: hits[i + 1]?.score ?? 0 } })));
    const candidates = hits.map((h, i) => {
      const a = answers[i];
      const p = a?.status === "scored" ? a.p_yes : null;
      return { rule_id: h.unit.id, rank: i + 1, score: Math.round(h.score * 1e4) / 1e4, status: a?.status ?? "unscored", p_yes: p, reason: a?.status === "scored" ? null : (a?.reason ?? "no answer") } as const;
    });
    let covering: string | null = null;
    let best = -1;
    for (const c of candidates) {
      if (c.p_yes !== null && c.p_yes >= opts.cut.value && c.p_yes > best) {
        best = c.p_yes;
        covering = c.rule_id;
      }
    }
    const allScored = candidates.every((c) => c.status === "scored");
    const fix = covering !== null ? "enforce_rule" : allScored ? "add_rule" : null;
    const date = day(e.prompt_ts);
    const rule = covering === null ? undefined : byId.get(covering);
    out.push({
      schema: "rule-coverage/1",
      exchange_id: e.id,
      session_id: e.session_id,
      date,
      failure_class: f.failureClass,
      severity: f.severity,
      component: componentOf({ tools: e.tool_calls, prompt: e.prompt, reply: e.reply_end }),
      synthetic: e.synthetic,
      candidates: candidates.map((c) => ({ ...c })),
      covering,
      fix,
      before_rule: rule !== undefined && rule.first_seen_known && date !== null && date <= rule.first_seen,
      cut: opts.cut.value,
      cut_origin: opts.cut.origin,
      judge: { lane: judge.engine.lane, model: judge.engine.model },
    });
    opts.onProgress?.(++done, failures.length);
  }
  return out;
}
