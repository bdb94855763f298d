import { figure, fmt, h2, para, table, type Block } from "../runtime/pages/index.js";
import { badInput } from "../core/errors.js";
import { jsonValue, type InputSpec } from "./inputs.js";
import type { Notebook } from "./notebook.js";

/**
 * Rules: the most-broken rules of the owner's instruction files, from a v4 report's
 * `most_broken_rules` section (`errata rules cover`, then `errata v4 report --json`): breaks per
 * rule by severity, and breaks per judged exchange that had the rule's file in view. Rates
 * before and after filed fixes come when the rules wing records fixes; the page says so.
 * Bundled: the demo's synthetic projects (`npm run demo`), always marked synthetic.
 */
const report: InputSpec = {
  notebook: "rules",
  key: "report",
  what: "v4 report (JSON) with a most-broken-rules section",
  bundled: "notebooks/data/v4-report-demo.json",
  make: "errata rules build && errata rules cover && errata v4 report --json > v4-report.json (npm run demo runs all three on synthetic data)",
};

interface Row {
  rule_id: string;
  source: string;
  count: number;
  sessions: number;
  severity: [number, number, number, number];
  judged_in_view: number;
  before_rule: number;
}
interface Section {
  rows: Row[];
  unbroken: { looked_at: number; never_looked_at: number };
  coverage_rows: number;
  synthetic_rows: number;
  cut_origin: string | null;
}

export const rules: Notebook = {
  name: "rules",
  title: "Most-broken rules",
  inputs: [report],
  async blocks(read) {
    const input = read("report");
    const r = jsonValue(input) as { schema?: string; most_broken_rules?: Section | null };
    if (r.schema !== "v4-report/1") throw badInput(`${input.shown} is not a v4 report`, 'a JSON value with schema "v4-report/1" (errata v4 report --json)', `schema ${JSON.stringify(r.schema)}`);
    const s = r.most_broken_rules;
    if (!s) throw badInput(`${input.shown} has no most-broken-rules section`, "a v4 folder with a rule index and coverage (errata rules build, errata rules cover)", "most_broken_rules null or absent");
    const synthetic = s.synthetic_rows > 0 && s.synthetic_rows === s.coverage_rows;
    const sev = ["severity 0", "severity 1", "severity 2", "severity 3"];
    const blocks: Block[] = [
      para(`${s.rows.length} rules broken, from ${s.coverage_rows} coverage rows${s.synthetic_rows > 0 ? ` (${s.synthetic_rows} synthetic${synthetic ? ": every figure here is from synthetic sessions, not a person" : ""})` : ""}; cut: ${s.cut_origin ?? "not recorded"}. Rules never broken: ${s.unbroken.looked_at} with judged exchanges in view, ${s.unbroken.never_looked_at} never looked at.`),
      h2("Breaks per rule, by severity"),
      figure(
        "breaks-by-rule",
        "Covered failures per rule, stacked by the failure's severity (unknown severity left out).",
        {
          $schema: "https://vega.github.io/schema/vega-lite/v6.json",
          width: 560,
          height: { step: 22 },
          data: { values: s.rows.flatMap((row) => row.severity.map((n, k) => ({ rule: row.rule_id, severity: sev[k], failures: n }))).filter((v) => v.failures > 0) },
          mark: "bar",
          encoding: {
            y: { field: "rule", type: "nominal", sort: s.rows.map((row) => row.rule_id), title: null, axis: { labelLimit: 420 } },
            x: { field: "failures", type: "quantitative", title: "covered failures", aggregate: "sum" },
            color: { field: "severity", type: "ordinal", scale: { domain: sev, scheme: "oranges" }, title: null },
          },
        },
      ),
      table(
        ["rule", "source", "failures", "sessions", "judged in view", "breaks per 100 judged in view", "dated before the rule"],
        s.rows.map((row) => [row.rule_id, row.source, row.count, row.sessions, row.judged_in_view, row.judged_in_view > 0 ? fmt((100 * row.count) / row.judged_in_view, 1) : "—", row.before_rule]),
        [2, 3, 4, 5, 6],
      ),
      h2("Before and after a fix"),
      para("Rates before and after a filed fix to a rule need the fixes recorded by the rules wing; this ledger has none yet, so there is nothing to compare. The page will show them once fixes are recorded."),
    ];
    return blocks;
  },
};
