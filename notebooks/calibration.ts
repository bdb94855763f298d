import { applyCalibrator, calibrateQuestion, reliability, type Reliability } from "../calibration/index.js";
import { majorityVote, type AgreementLabel } from "../eval/index.js";
import { figure, fmt, h2, para, table, type Block } from "../runtime/pages/index.js";
import { badInput } from "../core/errors.js";
import { jsonLines, type InputSpec } from "./inputs.js";
import type { Notebook } from "./notebook.js";

/**
 * Calibration: reliability diagrams of a detector's P(failure) on the holdout gold items,
 * raw and after Platt and isotonic maps fitted on the fit items (calibration/probabilities.ts),
 * with the ECE bins themselves. Bins are the calibration module's own (`reliability`, 10
 * equal-mass bins, design-weighted), never recomputed here, so the page follows any change to
 * the binning rule. The label is the gold majority of `detect.unhappy`.
 */
const DETECT = "detect.unhappy";
const BINS = 10;
const spec = (key: string, what: string, file: string, make: string): InputSpec => ({ notebook: "calibration", key, what, bundled: `notebooks/data/ab-redial/${file}`, make });
const inputs = [
  spec("predictions", "predictions file (prediction/1 JSONL with p_failure)", "predictions-v4.jsonl", "errata eval predictions --detectors v4 --out predictions.jsonl"),
  spec("gold", "gold set (gold-item/1 JSONL)", "gold.jsonl", "errata eval sample --exchanges <exchanges.jsonl> (writes <ledger>/eval/gold.jsonl)"),
  spec("labels", "labels file (label/1 JSONL)", "labels.jsonl", "errata eval label import <sheet.csv> (writes <ledger>/eval/labels.jsonl)"),
];

interface Gold {
  exchange_id: string;
  split: "fit" | "holdout";
  weight: number;
}
interface Prediction {
  exchange_id: string;
  detector: string;
  p_failure?: number | null;
}
interface Point {
  p: number;
  y: 0 | 1;
  w: number;
}

function diagram(id: string, caption: string, curves: { name: string; rel: Reliability }[]): Block {
  const values = curves.flatMap((c) => c.rel.bins.map((b) => ({ calibrator: c.name, bin: b.bin + 1, predicted: b.meanPredicted, observed: b.observedRate, weight: b.weight })));
  return figure(id, caption, {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    width: 360,
    height: 360,
    layer: [
      { data: { values: [{ x: 0, y: 0 }, { x: 1, y: 1 }] }, mark: { type: "line", strokeDash: [4, 4], color: "#999" }, encoding: { x: { field: "x", type: "quantitative", scale: { domain: [0, 1] }, title: "mean predicted P(failure) in the bin" }, y: { field: "y", type: "quantitative", scale: { domain: [0, 1] }, title: "observed failure rate in the bin" } } },
      { data: { values }, mark: { type: "line", strokeWidth: 1.5 }, encoding: { x: { field: "predicted", type: "quantitative" }, y: { field: "observed", type: "quantitative" }, color: { field: "calibrator", type: "nominal", title: null, sort: curves.map((c) => c.name) } } },
      {
        data: { values },
        mark: { type: "point", filled: true, opacity: 0.8 },
        encoding: {
          x: { field: "predicted", type: "quantitative" },
          y: { field: "observed", type: "quantitative" },
          color: { field: "calibrator", type: "nominal", title: null, sort: curves.map((c) => c.name) },
          size: { field: "weight", type: "quantitative", title: "bin weight", scale: { range: [20, 220] } },
        },
      },
    ],
  });
}

export const calibration: Notebook = {
  name: "calibration",
  title: "Calibration: reliability before and after Platt and isotonic",
  inputs,
  async blocks(read) {
    const gold = jsonLines(read("gold")) as Gold[];
    const preds = (jsonLines(read("predictions")) as Prediction[]).filter((p) => typeof p.p_failure === "number");
    const votes = new Map<string, AgreementLabel["value"][]>();
    for (const l of jsonLines(read("labels")) as AgreementLabel[]) if (l.question === DETECT) votes.set(l.exchange_id, [...(votes.get(l.exchange_id) ?? []), l.value]);
    const detectorNames = [...new Set(preds.map((p) => p.detector))].sort();
    if (detectorNames.length === 0) throw badInput(`${read("predictions").shown} has no p_failure`, "prediction/1 rows with p_failure (v4, combiner or classtier predictions)", "none");
    const blocks: Block[] = [
      para(`Label: the gold majority of ${DETECT} (2 of 3 votes; ties left out). Calibrators fitted on the fit split, every figure on the holdout, design-weighted. ECE: ${BINS} equal-mass bins by calibration/reliability.ts.`),
    ];
    for (const det of detectorNames) {
      const pOf = new Map(preds.filter((p) => p.detector === det).map((p) => [p.exchange_id, p.p_failure as number]));
      const side = (split: Gold["split"]): Point[] =>
        gold.flatMap((g) => {
          const m = majorityVote(votes.get(g.exchange_id) ?? [], 2);
          const p = pOf.get(g.exchange_id);
          return g.split === split && m.status === "majority" && typeof m.value === "boolean" && p !== undefined ? [{ p, y: m.value ? 1 : 0, w: g.weight }] : [];
        });
      const fit = side("fit");
      const hold = side("holdout");
      if (hold.length === 0 || fit.length === 0) {
        blocks.push(h2(det), para(`No ${fit.length === 0 ? "fit" : "holdout"} items with both a majority label and a P(failure): nothing to calibrate.`));
        continue;
      }
      const cal = calibrateQuestion(fit, hold);
      const curves: { name: string; rel: Reliability }[] = [{ name: "raw", rel: reliability(hold.map((x) => x.p), hold.map((x) => x.y), { bins: BINS, weights: hold.map((x) => x.w) }) }];
      for (const m of [cal.platt, cal.isotonic]) {
        if (m === null) continue;
        const p = hold.map((x) => applyCalibrator(m, x.p, "logit"));
        curves.push({ name: m.method, rel: reliability(p, hold.map((x) => x.y), { bins: BINS, weights: hold.map((x) => x.w) }) });
      }
      blocks.push(
        h2(`${det}: ${hold.length} holdout items (${hold.filter((x) => x.y === 1).length} failures), fitted on ${fit.length}`),
        diagram(`reliability-${det}`, `Reliability of ${det}'s P(failure) on the holdout: raw, Platt and isotonic; point size is the bin's weight; the dashed line is perfect calibration.`, curves),
        table(
          ["calibrator", "ECE", "Brier", "log loss"],
          (["raw", "platt", "isotonic"] as const).flatMap((k) => {
            const m = cal.metrics?.[k];
            return m ? [[k, fmt(m.ece), fmt(m.brier), fmt(m.log_loss)]] : [];
          }),
          [1, 2, 3],
        ),
        para(`Chosen by the module's rule: ${cal.chosen.method}${cal.notes.length ? ` (${cal.notes.join("; ")})` : ""}.`),
        h2(`${det}: the ECE bins`),
        table(
          ["calibrator", "bin", "items", "weight", "P range", "mean predicted", "observed rate", "|gap|"],
          curves.flatMap((c) => c.rel.bins.map((b) => [c.name, b.bin + 1, b.count, fmt(b.weight, 2), `${fmt(b.pMin)}-${fmt(b.pMax)}`, fmt(b.meanPredicted), fmt(b.observedRate), fmt(Math.abs(b.meanPredicted - b.observedRate))])),
          [1, 2, 3, 5, 6, 7],
        ),
      );
    }
    return blocks;
  },
};
