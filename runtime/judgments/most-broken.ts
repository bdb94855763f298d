import { join } from "node:path";
import type { Cuts } from "../../composers/index.js";
import type { CoverageRecord, RuleIndex } from "../../schemas/rules.js";
import { CoverageRecordSchema } from "../../schemas/rules.js";
import { readJsonl, reportProblems, warnOnStderr } from "../files/index.js";
import { mostBrokenRules, readRuleIndex, ruleIndexPath, type CoverCut, type Leaderboard } from "../rules/index.js";
import type { ChosenCuts } from "./cuts.js";
import type { JudgeId } from "./judge.js";
import type { Judgments } from "./judgments.js";

/**
 * The most-broken rules, one answer for every page that shows them (the v4 report, the Pulse
 * page, `errata rules budget`): the rule_covers answers `errata rules cover` stored, read for
 * the failures these judgments compose (defects with a class, under the stated cuts) and
 * decided again under the stated `rules.rule_covers` cut, so a report never counts a failure
 * its own cuts do not make, nor a covering that its own cut would not.
 *
 * Example: the demo's folder, the weights' cuts -> `{rows: [{rule_id: "claude.testing.2c1f…",
 * count: 3, judged_in_view: 88, …}], failures: 47, covered: 47, cut: 0.5, …}`.
 */
export const COVERAGE_FILE = "coverage.jsonl";
export const DEFAULT_RULES_CUT = 0.5;

export function readCoverage(v4Dir: string, warn: (l: string) => void = warnOnStderr): CoverageRecord[] {
  const r = readJsonl(join(v4Dir, COVERAGE_FILE), CoverageRecordSchema, { what: "a rule-coverage/1 row" });
  reportProblems(r.problems, warn);
  return r.rows;
}

/** The newest record per exchange for one judge. */
export function latestCoverage(rows: readonly CoverageRecord[], judge: JudgeId): CoverageRecord[] {
  const by = new Map<string, CoverageRecord>();
  for (const r of rows) if (r.judge.lane === judge.lane && r.judge.model === judge.model) by.set(r.exchange_id, r);
  return [...by.values()];
}

/** A rules question's cut from the chosen cuts, with their origin; else the uncalibrated default, said so. */
export function coverCutOf(cuts: Pick<ChosenCuts, "cuts" | "origin">, question = "rules.rule_covers"): CoverCut {
  const v = (cuts.cuts as Cuts)[question];
  return v === undefined ? { value: DEFAULT_RULES_CUT, origin: `uncalibrated default ${DEFAULT_RULES_CUT}` } : { value: v, origin: `${question} from the same cuts: ${cuts.origin}` };
}

/** A coverage record decided again under `cut`: the scored candidate with the highest P(yes) at or over it covers. */
export function underCut(r: CoverageRecord, cut: CoverCut, index: RuleIndex): CoverageRecord {
  if (r.cut === cut.value) return r;
  let covering: string | null = null;
  let best = -1;
  for (const c of r.candidates) {
    if (c.p_yes !== null && c.p_yes >= cut.value && c.p_yes > best) {
      best = c.p_yes;
      covering = c.rule_id;
    }
  }
  const allScored = r.candidates.every((c) => c.status === "scored");
  const rule = covering === null ? undefined : index.units.find((u) => u.id === covering);
  return {
    ...r,
    covering,
    fix: covering !== null ? "enforce_rule" : allScored ? "add_rule" : null,
    before_rule: rule !== undefined && rule.first_seen_known && r.date !== null && r.date <= rule.first_seen,
    cut: cut.value,
    cut_origin: cut.origin,
  };
}

export type MostBroken = Leaderboard & {
  /** Coverage rows counted (the composed failures' newest, this judge's). */
  coverage_rows: number;
  synthetic_rows: number;
  /** The rule_covers cut the rows were decided under, and its origin. */
  cut: number;
  cut_origin: string;
  /** Failures the rules wing covers under these cuts, and how many of them have no coverage yet (`errata rules cover`). */
  failures: number;
  uncovered: number;
};

/** The most-broken rules under these judgments, or null without a rule index or a judge. */
export function mostBroken(j: Judgments, limit = 10, warn: (l: string) => void = warnOnStderr): MostBroken | null {
  if (j.judge === null) return null;
  const index = readRuleIndex(ruleIndexPath(j.v4Dir));
  if (index === null) return null;
  const failures = new Set(j.coverable().map((c) => c.exchange.id));
  const cut = coverCutOf(j.cuts);
  const coverage = latestCoverage(readCoverage(j.v4Dir, warn), j.judge)
    .filter((r) => failures.has(r.exchange_id))
    .map((r) => underCut(r, cut, index));
  return {
    ...mostBrokenRules(coverage, index, j.exchanges, j.judged(), limit),
    coverage_rows: coverage.length,
    synthetic_rows: coverage.filter((r) => r.synthetic).length,
    cut: cut.value,
    cut_origin: cut.origin,
    failures: failures.size,
    uncovered: failures.size - coverage.length,
  };
}
