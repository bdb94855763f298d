import { chooseCuts, type CutPoint } from "../calibration/index.js";
import { logLoss } from "../calibration/index.js";
import { fitLogistic, predictLogistic } from "../learn/index.js";
import { DEFAULT_L2_GRID, pickL2, sessionFolds, type CvPoint } from "./cv.js";
import { fitStandardiser, rawFeatures, standardise, type AnswerTable, type Standardiser } from "./features.js";
import { CombinerInputError } from "./errors.js";

/**
 * The detect head: L2 logistic regression (learn/logistic.ts, sample weights) over the
 * engine's per-question probabilities and their logits, deciding who gets diagnosed. The L2
 * strength is chosen by session-grouped cross-validation (pooled out-of-fold weighted log
 * loss); the decision cut is the kappa cut of the out-of-fold probabilities against the gold
 * verdicts at that strength (calibration/cuts.ts). Deterministic given the seed.
 *
 * Example: 400 exchanges whose detect.unhappy P(yes) tracks the gold verdict → coef on
 * "detect.unhappy:logit" positive, l2 from the grid, cut near where kappa peaks.
 */
export interface HeadItem {
  id: string;
  session: string;
  table: AnswerTable;
  weight: number;
}

export interface DetectHead {
  questions: string[];
  standardiser: Standardiser;
  coef: number[];
  intercept: number;
  l2: number;
  cut: number;
  cv: CvPoint[];
  /** Out-of-fold figures at the chosen L2 and cut. */
  outOfFold: CutPoint | null;
  n: number;
  positives: number;
}

export interface HeadOptions {
  questions: readonly string[];
  seed: number;
  folds?: number;
  l2Grid?: readonly number[];
}

function fitOnce(rows: number[][], y: number[], w: number[], l2: number): { s: Standardiser; coef: number[]; intercept: number } {
  const s = fitStandardiser(rows);
  const m = fitLogistic(rows.map((r) => standardise(r, s)), y, { l2, sampleWeights: w });
  return { s, coef: Array.from(m.coef), intercept: m.intercept };
}

function predictOnce(model: { s: Standardiser; coef: number[]; intercept: number }, row: number[]): number {
  return predictLogistic({ coef: Float64Array.from(model.coef), intercept: model.intercept, dim: model.coef.length }, standardise(row, model.s));
}

export function fitDetectHead(items: readonly (HeadItem & { y: 0 | 1 })[], opts: HeadOptions): DetectHead {
  const positives = items.filter((i) => i.y === 1).length;
  if (positives === 0 || positives === items.length) {
    throw new CombinerInputError("ONE_CLASS", "gold failures and non-failures to fit the detect head", `${positives} of ${items.length}`);
  }
  const questions = [...opts.questions];
  const rows = items.map((i) => rawFeatures(i.table, questions));
  const y = items.map((i) => i.y);
  const w = items.map((i) => i.weight);
  const k = opts.folds ?? 5;
  const folds = sessionFolds(items.map((i) => i.session), k, opts.seed);
  const grid = opts.l2Grid ?? DEFAULT_L2_GRID;
  const oofByL2 = new Map<number, number[]>();
  const cv: CvPoint[] = grid.map((l2) => {
    const oof = new Array<number>(items.length).fill(NaN);
    for (let f = 0; f < k; f++) {
      const train = items.map((_, i) => i).filter((i) => folds[i] !== f);
      const trainY = train.map((i) => y[i]!);
      if (trainY.every((v) => v === trainY[0])) {
        const rate = trainY[0]!;
        for (let i = 0; i < items.length; i++) if (folds[i] === f) oof[i] = rate;
        continue;
      }
      const m = fitOnce(train.map((i) => rows[i]!), trainY, train.map((i) => w[i]!), l2);
      for (let i = 0; i < items.length; i++) if (folds[i] === f) oof[i] = predictOnce(m, rows[i]!);
    }
    oofByL2.set(l2, oof);
    return { l2, loss: logLoss(oof, y, w) };
  });
  const l2 = pickL2(cv);
  const oof = oofByL2.get(l2)!;
  const cuts = chooseCuts(oof, y, { precisionTarget: 1, weights: w });
  const final = fitOnce(rows, y, w, l2);
  return {
    questions,
    standardiser: final.s,
    coef: final.coef,
    intercept: final.intercept,
    l2,
    cut: cuts.kappaCut?.cut ?? 0.5,
    cv,
    outOfFold: cuts.kappaCut,
    n: items.length,
    positives,
  };
}

/** P(failure) from the detect head for one exchange's answers. */
export function detectProbability(head: Pick<DetectHead, "questions" | "standardiser" | "coef" | "intercept">, table: AnswerTable): number {
  return predictOnce({ s: head.standardiser, coef: head.coef, intercept: head.intercept }, rawFeatures(table, head.questions));
}
