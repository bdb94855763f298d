import { agreementReport, type AgreementLabel, type QuestionAgreement } from "../eval/index.js";
import { figure, fmt, fmtInterval, h2, para, table, type Block } from "../runtime/pages/index.js";
import { intervalChart, type IntervalRow } from "./charts.js";
import { jsonLines, type InputSpec } from "./inputs.js";
import type { Notebook } from "./notebook.js";

/**
 * Agreement: the labellers' agreement per question with session-block bootstrap intervals
 * (Fleiss' kappa, Krippendorff's alpha), Cohen's kappa for every labeller pair, and how many
 * items have a majority, tie or too few votes. Bundled: AB-ReDial's raters.
 */
const labels: InputSpec = {
  notebook: "agreement",
  key: "labels",
  what: "labels file (label/1 JSONL)",
  bundled: "datasets/ab-redial/labels.jsonl",
  make: "errata eval label import <sheet.csv> (into <ledger>/eval/labels.jsonl), or errata datasets copy ab-redial",
};
const exchanges: InputSpec = {
  notebook: "agreement",
  key: "exchanges",
  what: "exchanges file (exchange/1 JSONL, for the items' sessions)",
  bundled: "datasets/ab-redial/exchanges.jsonl",
  make: "errata exchanges (into the v4 folder), or errata datasets copy ab-redial",
};

export const RESAMPLES = 2000;
export const SEED = 1;

const interval = (q: QuestionAgreement, group: string, f: { value: number | null; lower: number | null; upper: number | null }): IntervalRow[] =>
  f.value === null ? [] : [{ label: `${q.question} · ${group}`, group, value: f.value, lower: f.lower, upper: f.upper }];

export const agreement: Notebook = {
  name: "agreement",
  title: "Agreement between labellers",
  inputs: [labels, exchanges],
  async blocks(read) {
    const labelRows = jsonLines(read("labels")) as AgreementLabel[];
    const sessionOf = new Map((jsonLines(read("exchanges")) as { id: string; session_id: string }[]).map((e) => [e.id, e.session_id]));
    const report = agreementReport(labelRows, { sessionOf, resamples: RESAMPLES, seed: SEED });
    const blocks: Block[] = [
      para(`${labelRows.length} labels from ${new Set(labelRows.map((l) => l.labeler)).size} labellers on ${new Set(labelRows.map((l) => l.exchange_id)).size} items; intervals: session-block percentile bootstrap, ${RESAMPLES} resamples, seed ${SEED}, level 0.95 (eval/agreement-report.ts).`),
      h2("Per question"),
      table(
        ["question", "kind", "items", "labellers", "Fleiss kappa", "alpha (nominal)", "alpha (interval)", "raw pairwise"],
        report.map((q) => [q.question, q.kind, q.items, q.labelers.length, fmtInterval(q.fleissVariable.value, q.fleissVariable.lower, q.fleissVariable.upper), fmtInterval(q.alpha.nominal.value, q.alpha.nominal.lower, q.alpha.nominal.upper), q.alpha.interval ? fmtInterval(q.alpha.interval.value, q.alpha.interval.lower, q.alpha.interval.upper) : "—", fmt(q.raw.pairwise)]),
        [2, 3],
      ),
      figure(
        "kappa-per-question",
        "Fleiss' kappa and Krippendorff's alpha per question, with 95% session-block bootstrap intervals.",
        intervalChart(report.flatMap((q) => [...interval(q, "Fleiss kappa", q.fleissVariable), ...interval(q, "alpha (nominal)", q.alpha.nominal), ...(q.alpha.interval ? interval(q, "alpha (interval)", q.alpha.interval) : [])]), "agreement", [-0.2, 1]),
      ),
      h2("Cohen's kappa per labeller pair"),
      figure(
        "cohen-pairs",
        "Cohen's kappa of every pair of labellers on the items both labelled, with 95% intervals.",
        intervalChart(report.flatMap((q) => q.cohen.filter((c) => c.value !== null).map((c) => ({ label: `${q.question} · ${c.a} / ${c.b}`, group: q.question, value: c.value!, lower: c.lower, upper: c.upper }))), "Cohen's kappa", [-0.2, 1]),
      ),
      table(["question", "pair", "items", "observed agreement", "kappa [95%]"], report.flatMap((q) => q.cohen.map((c) => [q.question, `${c.a} / ${c.b}`, c.items, fmt(c.po), fmtInterval(c.value, c.lower, c.upper)])), [2, 3]),
      h2("Majorities and ties"),
      para("The gold verdict of an item is its labellers' majority (at least the votes below); a tie, or too few votes, leaves the item out of scoring."),
      table(["question", "votes a majority needs", "majority", "tie", "too few votes"], report.map((q) => [q.question, q.majority.minVotes, q.majority.majority, q.majority.tie, q.majority.insufficient]), [1, 2, 3, 4]),
    ];
    return blocks;
  },
};
