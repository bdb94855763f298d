import { describeRule, HEADLINE_METRICS, type BarResult, type DetectorScore, type ScoreReport } from "../../eval/index.js";
import type { Io } from "./io.js";
import { println } from "./io.js";
import { fmt, pad, withInterval } from "./eval-format.js";

/**
 * The text of `errata eval score`: the figures table (weighted precision, recall, F1, class
 * accuracy given detection, kappa unweighted and weighted), each detector's coverage and
 * strict view, the in-sample marks, the differences, the labellers, PPI++ and the check.
 *
 * Example line: `  v4: coverage 0.993 [0.980, 1.000] (150 of 151 items); class coverage 1.000
 * …; strict (unscored counts against): precision 0.52 …`.
 */
const LABEL: Record<string, string> = { classAccuracy: "class | detected", kappa: "kappa unweighted", kappaWeighted: "kappa weighted" };

/** " [IN-SAMPLE 498/600]" on every line of a detector trained on scored items. */
export function inSampleMark(d: DetectorScore | undefined): string {
  if (!d?.inSample) return "";
  if (d.inSample.items > 0) return ` [IN-SAMPLE ${d.inSample.items}/${d.inSample.of}]`;
  if (d.inSample.possibly > 0) return ` [POSSIBLY IN-SAMPLE ${d.inSample.possibly}/${d.inSample.of}]`;
  return "";
}

export function printScoreReport(io: Io, r: ScoreReport, trainingNotes: readonly string[]): void {
  const b = r.bootstrap;
  if (r.adjudication === null) println(io, `${r.split} split: ${r.items} gold items, ${r.scored} with a majority verdict (${r.noMajority} ties or too few labels left out), ${r.goldFailures} gold failures; corpus weights sum ${r.weightSum.toFixed(1)}`);
  else {
    const a = r.adjudication;
    println(io, `${r.split} split: ${r.items} gold items, ${r.scored} with a gold verdict after adjudication (${r.noMajority} ties, too few labels or ambiguous left out), ${r.goldFailures} gold failures; corpus weights sum ${r.weightSum.toFixed(1)}`);
    println(io, `  adjudicated gold: ${a.adjudicated} items decided (${a.overturned} overturned the raw majority, ${a.tiesResolved} ties resolved), ${a.ambiguous} ambiguous; items with a gold verdict before ${a.goldBefore}, after ${a.goldAfter} (the labellers' agreement below is on the raw labels)`);
    for (const k of a.kappa) println(io, `  ${k.detector} kappa with the gold (unweighted): before adjudication ${k.before === null ? "—" : k.before.toFixed(3)}, after ${k.after === null ? "—" : k.after.toFixed(3)}`);
  }
  println(io, `intervals: ${b.method}, paired across detectors, ${b.resamples} resamples, seed ${b.seed}, level ${b.level}, ${b.sessions} sessions; precision, recall, F1, class accuracy and weighted kappa are corpus-weighted`);
  const head = ["detector", "scored", ...HEADLINE_METRICS.map((m) => LABEL[m] ?? m)];
  const w = [10, 8, 24, 24, 24, 24, 24, 24];
  println(io, head.map((h, i) => pad(h, w[i] ?? 10)).join(""));
  for (const d of r.detectors) {
    const cells = [d.name, String(d.scored), ...HEADLINE_METRICS.map((m) => withInterval(d.figures[m].point, d.figures[m].lower, d.figures[m].upper))];
    println(io, cells.map((c, i) => pad(c, w[i] ?? 10)).join("") + inSampleMark(d));
  }
  for (const d of r.detectors) {
    const f = d.figures;
    const iv = (m: keyof DetectorScore["figures"]): string => withInterval(f[m].point, f[m].lower, f[m].upper);
    println(
      io,
      `  ${d.name}: coverage ${iv("coverage")} (${d.scored} of ${d.eligible} items scored); class coverage ${iv("classCoverage")} (${d.classable - d.unscoredClass} of ${d.classable} detections classed)${inSampleMark(d)}`,
    );
    println(io, `  ${d.name} strict (an unscored item counts against it): precision ${iv("strictPrecision")}, recall ${iv("strictRecall")}, F1 ${iv("strictF1")}, class | detected ${iv("strictClassAccuracy")}${inSampleMark(d)}`);
    const notes = [
      d.unscoredDetection ? `${d.unscoredDetection} unscored (left out of the figures above, never "no"; counted against it in the strict view)` : "",
      d.unscoredClass ? `${d.unscoredClass} detected without a class` : "",
      ...HEADLINE_METRICS.filter((m) => d.figures[m].emptyReplicates > 0).map((m) => `${m}: ${d.figures[m].emptyReplicates} replicates with an empty denominator`),
    ].filter(Boolean);
    if (notes.length) println(io, `  ${d.name}: ${notes.join("; ")}${inSampleMark(d)}`);
  }
  for (const n of trainingNotes) println(io, `training record: ${n}`);
  const byName = new Map(r.detectors.map((d) => [d.name, d]));
  if (r.differences.length) println(io, "differences (paired, same resamples):");
  const pairs = [...new Set(r.differences.map((d) => `${d.a}\t${d.b}`))];
  for (const pair of pairs) {
    const [a, c] = pair.split("\t") as [string, string];
    const ds = r.differences.filter((d) => d.a === a && d.b === c && (HEADLINE_METRICS as readonly string[]).includes(d.metric));
    const mark = inSampleMark(byName.get(a)) || inSampleMark(byName.get(c)) ? ` [IN-SAMPLE: ${[a, c].filter((x) => inSampleMark(byName.get(x))).join(", ")}]` : "";
    println(io, `  ${a} - ${c}: ${ds.map((d) => `${d.metric} ${withInterval(d.point, d.lower, d.upper, 3, true)}`).join("; ")}${mark}`);
  }
  const lab = r.labellers.detect;
  if (lab) {
    const cohen = lab.cohen.map((c) => `${c.a}/${c.b} ${fmt(c.value)}`).join(", ");
    const fixed = lab.fleissFixed.value !== null;
    const fl = fixed ? lab.fleissFixed : lab.fleissVariable;
    const which = fixed ? `Fleiss fixed raters (${lab.fleissFixed.items} of ${lab.items} items rated by all)` : `Fleiss variable raters (${lab.fleissVariable.items} items)`;
    println(io, `labellers on the same items (${lab.question}): ${which} ${withInterval(fl.value, fl.lower, fl.upper)}; Cohen ${cohen || "—"}`);
  }
  if (r.labellers.class) println(io, `labellers on class (gold failures): Fleiss ${fmt(r.labellers.class.fleissVariable.value)}`);
  if (r.ppi) {
    const p = r.ppi;
    const how = p.method === "plain" ? "PPI++" : `${p.method} PPI++`;
    const lam = typeof p.lambda === "number" ? `lambda ${p.lambda.toFixed(3)}` : `lambda ${Object.entries(p.lambda).map(([k, v]) => `${k} ${v.toFixed(3)}`).join(", ")}`;
    const units = p.labelledSessions !== null ? `${p.labelled} labelled in ${p.labelledSessions} sessions` : `${p.labelled} labelled`;
    const noSession = p.unlabelledWithoutSession > 0 ? `; ${p.unlabelledWithoutSession} unlabelled items without a known session, each its own (--exchanges gives them)` : "";
    if (p.insufficient) println(io, `corpus failure rate (${how} with ${p.detector}): insufficient data (${units}; at least 2 ${p.labelledSessions !== null ? "sessions" : "items"} are needed for an interval)`);
    else println(io, `corpus failure rate (${how} with ${p.detector}, ${Math.round(p.level * 100)}% interval, clipped to [0, 1]): ${withInterval(p.estimate, p.lower, p.upper, 4)} (${lam}; ${units}, ${p.unlabelled} unlabelled${noSession})`);
    println(io, `  method: ${p.method} (${p.asked === "auto" ? `auto: ${p.why}` : "asked with --ppi-method"})`);
  }
}

export function printBars(io: Io, source: string, results: readonly BarResult[]): void {
  println(io, `check (bars: ${source}):`);
  for (const b of results) {
    const fig = withInterval(b.figure, b.lower, b.upper, 3, b.comparison === ">");
    println(io, `  ${b.pass ? "PASS" : "FAIL"} ${b.id} ${b.description}: ${b.name} ${fig} (judged on the ${describeRule(b)})${b.reason ? ` — ${b.reason}` : ""}`);
  }
}
