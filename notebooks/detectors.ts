import { figure, fmtInterval, h2, para, table, type Block } from "../runtime/pages/index.js";
import { intervalChart } from "./charts.js";
import { readScore, scoreInput } from "./score-report.js";
import type { Notebook } from "./notebook.js";

/**
 * Detectors: precision, recall, F1 and kappa with the majority for every detector the score
 * report holds (regex, v3, v4, Combiner, ClassTier in the research loop), each with its paired
 * session-block bootstrap interval and, beside it, its coverage: how many gold items it
 * scored and how many it left unscored. Then every pairwise difference.
 */
const METRICS = [
  ["precision", "precision"],
  ["recall", "recall"],
  ["f1", "F1"],
  ["kappa", "kappa vs majority"],
] as const;

export const detectors: Notebook = {
  name: "detectors",
  title: "Detectors against the gold majority",
  inputs: [scoreInput("detectors")],
  async blocks(read) {
    const r = readScore(read("score"));
    const b = r.bootstrap;
    const blocks: Block[] = [
      para(`Split ${r.split}: ${r.items} gold items, ${r.scored} with a majority verdict (${r.noMajority} without), ${r.goldFailures} gold failures; figures reweighted to the corpus (weights sum ${r.weightSum.toFixed(3)}). Intervals: ${b.method}, ${b.resamples} resamples, seed ${b.seed}, level ${b.level}, ${b.sessions} sessions; paired, so detectors' differences are read off the same resamples.`),
      h2("Coverage"),
      table(
        ["detector", "scored", "coverage", "unscored (detection)", "unscored (class)"],
        r.detectors.map((d) => [d.name, d.scored, r.scored > 0 ? `${((100 * d.scored) / r.scored).toFixed(1)}%` : "—", d.unscoredDetection, d.unscoredClass]),
        [1, 2, 3, 4],
      ),
    ];
    for (const [key, name] of METRICS) {
      const rows = r.detectors.flatMap((d) => {
        const f = d.figures[key];
        return f && f.point !== null ? [{ label: `${d.name} (${d.scored} scored)`, group: d.name, value: f.point, lower: f.lower, upper: f.upper }] : [];
      });
      blocks.push(h2(name), figure(`metric-${key}`, `${name} per detector with its ${Math.round(b.level * 100)}% interval; the label names how many gold items each scored.`, intervalChart(rows, name, key === "kappa" ? [-0.2, 1] : [0, 1])));
    }
    blocks.push(
      h2("All figures"),
      table(
        ["detector", "scored", "precision", "recall", "F1", "class accuracy given detection", "kappa vs majority"],
        r.detectors.map((d) => [d.name, d.scored, ...(["precision", "recall", "f1", "classAccuracy", "kappa"] as const).map((m) => fmtInterval(d.figures[m]?.point, d.figures[m]?.lower, d.figures[m]?.upper))]),
        [1],
      ),
      h2("Pairwise differences"),
      para("Each difference is computed inside every resample, so its interval accounts for the detectors being scored on the same items."),
      table(["a − b", "metric", "difference [interval]", "empty resamples"], r.differences.filter((d) => d.metric !== "classAccuracy").map((d) => [`${d.a} − ${d.b}`, d.metric, fmtInterval(d.point, d.lower, d.upper), d.emptyReplicates]), [3]),
    );
    if (r.check) blocks.push(h2("Check bars"), table(["bar", "held?"], r.check.bars.map((x) => [x.id, x.pass ? "held" : "failed"])));
    return blocks;
  },
};
