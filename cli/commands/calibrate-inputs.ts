import { resolve } from "node:path";
import { z } from "zod";
import { assembleQuestion, type LabelledItem } from "../../calibration/index.js";
import { splitOfSession, type SplitSide } from "../../eval/split.js";
import { GoldItemSchema } from "../../schemas/gold.js";
import { AnswerSchema, type Answer } from "../../schemas/answer.js";
import { LabelSchema, type Label } from "../../schemas/label.js";
import { badInput } from "../../core/errors.js";
import { readJsonl } from "./research-io.js";

/**
 * Loading what the calibration and combiner commands read from plain files: engine answers
 * (answer/1), labels (label/1), exchanges (for sessions), optional weights from the gold
 * draw, and the session-disjoint split. Not a command module.
 */
export const SessionRowSchema = z.object({ id: z.string(), session_id: z.string() }).passthrough();
export const WeightRowSchema = z
  .object({
    exchange_id: z.string(),
    weight: z.number().positive().finite().optional(),
    inclusion_probability: z.number().positive().max(1).optional(),
  })
  .passthrough()
  .refine((r) => r.weight !== undefined || r.inclusion_probability !== undefined, "a weight or an inclusion_probability");

export interface ResearchInputs {
  answers: Answer[];
  labels: Label[];
  sessionOf: Map<string, string> | undefined;
  weightOf: Map<string, number> | undefined;
  /** The gold set's own split, when --gold was given. */
  splitOf: Map<string, SplitSide> | undefined;
  files: Record<string, string>;
}

export interface InputOptions {
  answers?: string;
  labels?: string;
  exchanges?: string;
  weights?: string;
  gold?: string;
}

export function loadInputs(cwd: string, opts: InputOptions, requireAnswers = true): ResearchInputs {
  if (!opts.answers && requireAnswers) throw badInput("missing --answers", "an answers file (answer/1 JSONL)", "nothing");
  if (!opts.labels) throw badInput("missing --labels", "a labels file (label/1 JSONL)", "nothing");
  const files: Record<string, string> = { labels: opts.labels, ...(opts.answers ? { answers: opts.answers } : {}) };
  const answers = opts.answers ? readJsonl(resolve(cwd, opts.answers), AnswerSchema) : [];
  const labels = readJsonl(resolve(cwd, opts.labels), LabelSchema);
  let sessionOf: Map<string, string> | undefined;
  if (opts.exchanges) {
    files["exchanges"] = opts.exchanges;
    sessionOf = new Map(readJsonl(resolve(cwd, opts.exchanges), SessionRowSchema).map((r) => [r.id, r.session_id]));
  }
  let weightOf: Map<string, number> | undefined;
  if (opts.weights) {
    files["weights"] = opts.weights;
    weightOf = new Map(readJsonl(resolve(cwd, opts.weights), WeightRowSchema).map((r) => [r.exchange_id, r.weight ?? 1 / r.inclusion_probability!]));
  }
  let splitOf: Map<string, SplitSide> | undefined;
  if (opts.gold) {
    files["gold"] = opts.gold;
    const gold = readJsonl(resolve(cwd, opts.gold), GoldItemSchema);
    sessionOf = new Map([...(sessionOf ?? []), ...gold.map((g) => [g.exchange_id, g.session_id] as const)]);
    weightOf = weightOf ?? new Map(gold.map((g) => [g.exchange_id, g.weight]));
    splitOf = new Map(gold.map((g) => [g.exchange_id, g.split]));
  }
  return { answers, labels, sessionOf, weightOf, splitOf, files };
}

/** A session split by eval/'s `splitOfSession` (the one `eval score --check` reads), or the gold file's own. */
export interface SplitOptions {
  holdoutShare: number;
  salt: string;
}

/** One question's labelled items, divided into fit and holdout by session. */
export function splitQuestion(
  question: string,
  inputs: ResearchInputs,
  split: SplitOptions | null,
): { fit: LabelledItem[]; holdout: LabelledItem[]; excluded: { no_majority: number; unscored: number } } {
  const opts: { sessionOf?: ReadonlyMap<string, string>; weightOf?: ReadonlyMap<string, number> } = {};
  if (inputs.sessionOf) opts.sessionOf = inputs.sessionOf;
  if (inputs.weightOf) opts.weightOf = inputs.weightOf;
  // An exchanges or gold file defines the scope: labelled items outside it are not used.
  const labels = inputs.sessionOf ? inputs.labels.filter((l) => inputs.sessionOf!.has(l.exchange_id)) : inputs.labels;
  const { items, excluded } = assembleQuestion(question, inputs.answers, labels, opts);
  if (!split) return { fit: items, holdout: [], excluded };
  const side = (i: LabelledItem): SplitSide => inputs.splitOf?.get(i.id) ?? splitOfSession(i.session, split);
  return { fit: items.filter((i) => side(i) === "fit"), holdout: items.filter((i) => side(i) === "holdout"), excluded };
}
