import { resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { assembleQuestion, type LabelledItem } from "../../calibration/index.js";
import { DEFAULT_SPLIT_SALT, splitOfSession, type SplitSide } from "../../eval/index.js";
import { GoldItemSchema } from "../../schemas/gold.js";
import { AnswerSchema, type Answer } from "../../schemas/answer.js";
import { LabelSchema, type Label } from "../../schemas/label.js";
import { badInput } from "../../core/errors.js";
import { numberOption, readJsonl } from "./research-files.js";

/**
 * Loading what the calibration and combiner commands read from plain files: engine answers
 * (answer/1), labels (label/1), exchanges (for sessions), optional weights from the gold
 * draw, and the session-disjoint split; the input options those commands share.
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

/** The options of `calibrate cuts|probabilities` and `combiner fit|eval` (withInputOptions). */
export interface CommonOptions extends InputOptions {
  holdoutShare?: string;
  splitSalt?: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
}

export function splitFrom(opts: CommonOptions, hasSessions: boolean): SplitOptions | null {
  const holdoutShare = numberOption("holdout-share", opts.holdoutShare, hasSessions ? 0.5 : 0, [0, 0.9]);
  if (holdoutShare > 0 && !hasSessions) throw badInput("--holdout-share needs sessions", "--exchanges FILE or --gold FILE to split by session", "neither");
  return holdoutShare > 0 ? { holdoutShare, salt: opts.splitSalt ?? DEFAULT_SPLIT_SALT } : null;
}

export function withInputOptions(cmd: Command): Command {
  return cmd
    .option("--answers <file>", "engine answers (answer/1 JSONL)")
    .option("--labels <file>", "blind labels (label/1 JSONL; yes/no values)")
    .option("--gold <file>", "the gold set (gold-item/1 JSONL): sessions, Hajek weights and its fit/holdout split")
    .option("--exchanges <file>", "exchanges (exchange/1 JSONL), for sessions when there is no gold file")
    .option("--weights <file>", "JSONL of {exchange_id, weight | inclusion_probability}")
    .option("--holdout-share <x>", "share of sessions held out when splitting by session id (default 0.5, eval's)")
    .option("--split-salt <text>", `salt of the session split (default ${DEFAULT_SPLIT_SALT}, eval's)`)
    .option("--out <file>", "candidate file (default <v4>/candidates/…)")
    .option("--dry-run", "compute and print, write nothing")
    .option("--json", "print one JSON value");
}
