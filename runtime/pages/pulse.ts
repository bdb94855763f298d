import { figure, fmt, h2, para, renderPage, table, type Block } from "./html.js";
import type { PulseData } from "./pulse-data.js";

/**
 * The Pulse page (`errata report --html`): the month at a glance, one self-contained file.
 * Ids and counts only: no complaint text, no rule text.
 */
const pct = (r: number | null): string => (r === null ? "n/a" : `${(100 * r).toFixed(1)}%`);

/** The cuts' source in words (the page never prints an origin, which can name a local file). */
const CUTS_SOURCE: Record<string, string> = {
  file: "a cuts file",
  promoted: "the promoted configuration's",
  calibrated: "the judge's calibrated cuts (errata calibrate use)",
  weights: "those recorded with the judge's weights",
  default: "the default 0.5",
};

export async function renderPulse(d: PulseData): Promise<string> {
  const s = d.state;
  const blocks: Block[] = [
    para(`Last ${s.counts.window_days} days (${s.counts.since.slice(0, 10)} to ${s.counts.until.slice(0, 10)}): ${s.counts.total} entries, ${s.counts.detected_excluded} detected rows not counted; last daily run ${s.last_daily_run ?? "never"}; ${s.ledger_warnings} ledger warnings.`),
    h2("Alarms"),
    table(
      ["what", "count", "ids"],
      [
        ["stuck in new/enriched", s.stuck.count, s.stuck.ids.slice(0, 20).join(", ") + (s.stuck.count > 20 ? ", …" : "")],
        ["days without a daily run receipt", s.missing_run_days.length, s.missing_run_days.join(", ")],
        ["false passes (complaint about an output whose receipt passed)", d.misses.false_passes.length, d.misses.false_passes.slice(0, 20).map((f) => `${f.erratum_id} → ${f.output_id}`).join(", ")],
      ],
      [1],
    ),
    h2("Entries by system and kind over time"),
  ];
  if (d.months.length > 0) {
    blocks.push(
      figure("by-month", "Entries per month, stacked by system/kind (detected rows excluded), over the whole ledger.", {
        $schema: "https://vega.github.io/schema/vega-lite/v6.json",
        width: 620,
        height: 240,
        data: { values: d.months },
        mark: "bar",
        encoding: {
          x: { field: "month", type: "ordinal", title: null, axis: { labelAngle: 0 } },
          y: { field: "n", type: "quantitative", aggregate: "sum", title: "entries" },
          color: { field: "key", type: "nominal", title: "system/kind" },
        },
      }),
    );
  } else blocks.push(para("The ledger holds no entries."));
  blocks.push(table(["system/kind (last window)", "entries"], Object.entries(s.counts.by_system_kind).sort().map(([k, v]) => [k, v]), [1]));
  blocks.push(h2("Complaint rates per skill, over delivered outputs"));
  if (!d.host_present) blocks.push(para("No host outputs or receipts found (set ERRATA_HOST_DIR or host_dir in daily.json): no rates, no false passes."));
  else if (d.skills.length === 0) blocks.push(para("No outputs or complaints."));
  else {
    blocks.push(
      figure("skills", "Complaints per delivered output, per skill.", {
        $schema: "https://vega.github.io/schema/vega-lite/v6.json",
        width: 560,
        height: { step: 22 },
        data: { values: d.skills.filter((r) => r.rate !== null) },
        mark: "bar",
        encoding: { y: { field: "skill", type: "nominal", title: null, sort: "-x" }, x: { field: "rate", type: "quantitative", axis: { format: "%" }, title: "complaint rate" } },
      }),
      table(["skill", "outputs", "complaints", "rate"], d.skills.map((r) => [r.skill, r.outputs, r.complaints, pct(r.rate)]), [1, 2, 3]),
    );
  }
  blocks.push(
    h2("False passes and misses"),
    table(
      ["single-output complaints considered", "false passes", "caught by the check", "unchecked (no receipt)", "several outputs", "unresolved outputs"],
      [[d.misses.considered, d.misses.false_passes.length, d.misses.caught, d.misses.unchecked, d.misses.ambiguous, d.misses.unresolved]],
      [0, 1, 2, 3, 4, 5],
    ),
    h2("v4 (shadow)"),
  );
  if (d.v4 === null) blocks.push(para("No v4 folder yet (errata daily runs the v4 pass in shadow)."));
  else {
    const v = d.v4;
    blocks.push(
      para(`Judge ${v.judge ?? "none"}: ${v.exchanges} exchanges, ${v.composed} composed, ${v.failures} failures (${v.reported} reported, ${v.unreported} unreported), ${v.diagnosed} diagnosed; ${v.sessions_with_failure} sessions with a failure, mean session rate ${fmt(v.mean_session_rate)}.${v.synthetic ? ` Synthetic: ${v.synthetic.exchanges} exchanges, ${v.synthetic.failures} flagged, ${v.synthetic.found} of ${v.synthetic.planted} planted found.` : ""}`),
      para(`Cuts: ${CUTS_SOURCE[v.cuts_source] ?? v.cuts_source} (errata v4 report names them in full). Unscored answers by reason: ${v.unscored.length === 0 ? "none" : v.unscored.map((u) => `${u.code} ${u.count}`).join(", ")}.`),
      table(["class", "failures", "reported", "unreported"], v.classes.map((c) => [c.class_id, c.count, c.reported, c.unreported]), [1, 2, 3]),
    );
  }
  blocks.push(h2("Most-broken rules"));
  if (d.rules === null || d.rules.length === 0) blocks.push(para(d.rules === null ? "No rule index or coverage in the v4 folder (errata rules build, errata rules cover)." : "No rule broken."));
  else {
    blocks.push(
      figure("rules", "Covered failures per rule (ids only).", {
        $schema: "https://vega.github.io/schema/vega-lite/v6.json",
        width: 560,
        height: { step: 22 },
        data: { values: d.rules },
        mark: "bar",
        encoding: { y: { field: "rule_id", type: "nominal", title: null, sort: null }, x: { field: "count", type: "quantitative", title: "covered failures" } },
      }),
      table(["rule", "source", "failures", "sessions", "judged in view"], d.rules.map((r) => [r.rule_id, r.source, r.count, r.sessions, r.judged_in_view]), [2, 3, 4]),
    );
  }
  blocks.push(h2("Randomised holdout"));
  if (d.holdout.length === 0) blocks.push(para("No check or rule line is held out (errata rules holdout <check-id or rule-id> --one-in N opts one in)."));
  else {
    blocks.push(
      para("You opted these in: in a held-out session a check records what it would have done and does not act, and a rule line (marked \"(line)\") is left out of what the model is sent by the Errata mod, a session being its chance. Incidents per chance, acting (in force) vs held out; the difference with a 95% session-cluster interval."),
      table(
        ["check", "held out", "acting", "held-out sessions' slips", "difference [95%]", "held-out sessions"],
        d.holdout.map((h) => [
          h.check,
          `1 in ${h.one_in}`,
          `${h.acting.incidents}/${h.acting.chances} (${h.acting.sessions} sessions)`,
          `${h.held_out.incidents}/${h.held_out.chances} (${h.held_out.sessions} sessions)`,
          h.difference ? `${fmt(h.difference.value)} [${fmt(h.difference.low)}, ${fmt(h.difference.high)}]` : "not yet (an arm has no chance)",
          h.held_out_sessions.length === 0 ? "none yet" : `${h.held_out_sessions.slice(0, 20).join(", ")}${h.held_out_sessions.length > 20 ? ` and ${h.held_out_sessions.length - 20} more` : ""}`,
        ]),
        [],
      ),
    );
  }
  return renderPage({ title: "Errata Pulse", subtitle: `Generated ${d.generated_at} by errata report --html. Ids and counts only: no complaint text.`, blocks });
}
