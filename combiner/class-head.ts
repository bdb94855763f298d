import { fitSoftmax, predictSoftmax } from "../learn/index.js";
import { DEFAULT_L2_GRID, pickL2, sessionFolds, type CvPoint } from "./cv.js";
import { fitStandardiser, rawFeatures, standardise, type AnswerTable, type Standardiser } from "./features.js";
import type { HeadItem, HeadOptions } from "./detect-head.js";
import { CombinerInputError } from "./errors.js";

/**
 * The class head: multinomial (softmax) regression (learn/softmax.ts, L2, sample weights)
 * naming the v3 class of a failure from the engine's probabilities and logits. Fitted on gold
 * failures with a gold class, over the classes present (a class never seen cannot be
 * predicted: the fit has no finite optimum for it). L2 by session-grouped cross-validation on
 * the pooled out-of-fold weighted multinomial log loss (probabilities floored at 1e-6, so a
 * class missing from a training fold costs ln 10⁶ ≈ 13.8, not infinity).
 *
 * Example: failures whose mode.wrong_language P(yes) is high are "wrong_language" →
 * classDistribution puts most of its mass there.
 */
export interface ClassHead {
  questions: string[];
  classes: string[];
  standardiser: Standardiser;
  W: number[][];
  b: number[];
  l2: number;
  cv: CvPoint[];
  n: number;
}

const FLOOR = 1e-6;

function fitOnce(rows: number[][], labels: string[], w: number[], l2: number) {
  const classes = [...new Set(labels)].sort();
  const s = fitStandardiser(rows);
  const index = new Map(classes.map((c, i) => [c, i]));
  const m = fitSoftmax(rows.map((r) => standardise(r, s)), labels.map((c) => index.get(c)!), { classes: classes.length, l2, sampleWeights: w });
  return { classes, s, W: m.W, b: m.b };
}

function distribution(m: { classes: string[]; s: Standardiser; W: number[][]; b: number[] }, row: number[]): Map<string, number> {
  const p = predictSoftmax({ W: m.W, b: m.b, dim: row.length }, standardise(row, m.s));
  return new Map(m.classes.map((c, i) => [c, p[i]!]));
}

export function fitClassHead(items: readonly (HeadItem & { cls: string })[], opts: HeadOptions): ClassHead {
  const classes = [...new Set(items.map((i) => i.cls))].sort();
  if (classes.length < 2) throw new CombinerInputError("ONE_CLASS", "gold failures of at least 2 classes to fit the class head", String(classes.length));
  const questions = [...opts.questions];
  const rows = items.map((i) => rawFeatures(i.table, questions));
  const labels = items.map((i) => i.cls);
  const w = items.map((i) => i.weight);
  const k = opts.folds ?? 5;
  const folds = sessionFolds(items.map((i) => i.session), k, opts.seed);
  const grid = opts.l2Grid ?? DEFAULT_L2_GRID;
  const totalW = w.reduce((a, v) => a + v, 0);
  const cv: CvPoint[] = grid.map((l2) => {
    let loss = 0;
    for (let f = 0; f < k; f++) {
      const train = items.map((_, i) => i).filter((i) => folds[i] !== f);
      const trainLabels = train.map((i) => labels[i]!);
      const present = new Set(trainLabels);
      let predict: (row: number[]) => Map<string, number>;
      if (present.size < 2) {
        const only = trainLabels[0]!;
        predict = () => new Map([[only, 1]]);
      } else {
        const m = fitOnce(train.map((i) => rows[i]!), trainLabels, train.map((i) => w[i]!), l2);
        predict = (row) => distribution(m, row);
      }
      for (let i = 0; i < items.length; i++) {
        if (folds[i] !== f) continue;
        loss += w[i]! * -Math.log(Math.max(FLOOR, predict(rows[i]!).get(labels[i]!) ?? 0));
      }
    }
    return { l2, loss: loss / totalW };
  });
  const l2 = pickL2(cv);
  const m = fitOnce(rows, labels, w, l2);
  return { questions, classes: m.classes, standardiser: m.s, W: m.W, b: m.b, l2, cv, n: items.length };
}

/** Class probabilities for one exchange's answers, most likely first. */
export function classDistribution(head: Pick<ClassHead, "questions" | "classes" | "standardiser" | "W" | "b">, table: AnswerTable): { cls: string; p: number }[] {
  const d = distribution({ classes: head.classes, s: head.standardiser, W: head.W, b: head.b }, rawFeatures(table, head.questions));
  return [...d].map(([cls, p]) => ({ cls, p })).sort((a, b) => b.p - a.p || a.cls.localeCompare(b.cls));
}
