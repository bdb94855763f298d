import { figure, fmt, h2, para, table, type Block } from "../runtime/pages/index.js";
import { lambdaText } from "../eval/index.js";
import { badInput } from "../core/errors.js";
import { intervalChart } from "./charts.js";
import { readScore, scoreInput } from "./score-report.js";
import type { Notebook } from "./notebook.js";

/**
 * Corpus failure rate: the PPI++ estimate (labelled gold items plus a detector's predictions
 * on the unlabelled rest) against the naive one (the labelled items alone), each with its
 * interval at the same level.
 *
 * The naive interval is Wilson's score interval on the labelled items' failure share; written
 * here (five lines) because no bundled library has it and eval's PPI++ port is the only other
 * interval on this page.
 */
function wilson(k: number, n: number, level: number): { lower: number; upper: number } {
  // Two-sided normal quantiles for the levels a score report uses; a table rather than an
  // inverse-normal approximation, exact to every digit shown.
  const z = level === 0.9 ? 1.6448536269514722 : level === 0.95 ? 1.959963984540054 : level === 0.99 ? 2.5758293035489004 : NaN;
  if (!Number.isFinite(z)) throw badInput("unsupported interval level for the naive estimate", "0.9, 0.95 or 0.99", String(level));
  const p = k / n;
  const d = 1 + (z * z) / n;
  const c = (p + (z * z) / (2 * n)) / d;
  const h = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / d;
  return { lower: Math.max(0, c - h), upper: Math.min(1, c + h) };
}

export const corpusRate: Notebook = {
  name: "corpus-rate",
  title: "Corpus failure rate: PPI++ against the naive estimate",
  inputs: [scoreInput("corpus-rate")],
  async blocks(read) {
    const input = read("score");
    const r = readScore(input);
    const ppi = r.ppi;
    if (ppi === null) throw badInput(`${input.shown} has no PPI++ estimate`, "a score report made with a --ppi detector (errata eval score --ppi v4)", "ppi null");
    const naive = wilson(r.goldFailures, r.scored, ppi.level);
    const naivePoint = r.goldFailures / r.scored;
    const pct = Math.round(ppi.level * 100);
    const blocks: Block[] = [
      para(`${ppi.labelled} labelled gold items and ${ppi.unlabelled} unlabelled exchanges with ${ppi.detector}'s predictions; ${pct}% intervals.`),
      figure(
        "rate",
        `The corpus failure rate, PPI++ (with ${ppi.detector}) and naive (labelled items only), ${pct}% intervals.`,
        intervalChart(
          [
            { label: `PPI++ with ${ppi.detector}`, group: "PPI++", value: ppi.estimate, lower: ppi.lower, upper: ppi.upper },
            { label: "naive: labelled items alone", group: "naive", value: naivePoint, lower: naive.lower, upper: naive.upper },
          ],
          "failure rate",
        ),
      ),
      h2("Figures"),
      table(
        ["estimate", "point", "lower", "upper", "width", "items"],
        [
          [`PPI++ (${ppi.method}, lambda ${lambdaText(ppi.lambda)})`, fmt(ppi.estimate), fmt(ppi.lower), fmt(ppi.upper), fmt(ppi.upper - ppi.lower), `${ppi.labelled} labelled + ${ppi.unlabelled} unlabelled`],
          ["naive (Wilson)", fmt(naivePoint), fmt(naive.lower), fmt(naive.upper), fmt(naive.upper - naive.lower), `${r.goldFailures} failures in ${r.scored} labelled`],
        ],
        [1, 2, 3, 4],
      ),
      para("The naive share counts the gold items as drawn; the gold draw oversamples composed failures, so it is not the corpus rate. PPI++ corrects the detector's rate on all exchanges by its error on the labelled ones (eval/ppi-mean.ts, a port of ppi_py's ppi_mean_ci)."),
    ];
    return blocks;
  },
};
