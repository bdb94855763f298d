import { bankHash } from "../../questions/index.js";
import { warnOnStderr } from "../files/index.js";
import type { Judgments } from "./judgments.js";
import { mostBroken } from "./most-broken.js";
import { readPlan } from "./plan.js";
import { buildReport, type V4Report } from "./report.js";

/**
 * The v4 report of these judgments: what `errata v4 report`, the daily run's v4 stage and the
 * Pulse page all print, built in one place so they cannot drift: the composed failures under
 * the stated cuts, the unscored tally by reason code, the synthetic plan (labels.jsonl beside
 * the exchanges, or `labelFiles`), and the most-broken rules (`mostBroken`, when the folder
 * has a rule index; `limit` rows).
 *
 * Example: `judgmentsReport(openJudgments({v4Dir, cuts}))` -> `{schema: "v4-report/1", cuts_origin: "calibrated with the weights …", failures: 0, synthetic: {flagged: 47, …}, unscored: {answers: 0, reasons: []}, …}`.
 */
export function judgmentsReport(j: Judgments, opts: { labelFiles?: readonly string[] | undefined; limit?: number; warn?: (l: string) => void } = {}): V4Report {
  const warn = opts.warn ?? warnOnStderr;
  const plan = readPlan(j.exchanges, j.exchangeFiles, opts.labelFiles, { warn });
  const report = buildReport(j.composed(), {
    judge: j.judge,
    bankHash,
    cuts: j.cuts.cuts,
    cutsOrigin: j.cuts.origin,
    answers: j.answers,
    planted: plan.planted,
    planCovered: plan.covered,
  });
  report.most_broken_rules = mostBroken(j, opts.limit ?? 10, warn);
  return report;
}
