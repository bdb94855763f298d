import { z } from "zod";
import { badInput, describeFound } from "../../core/errors.js";
import { println, type Io } from "./io.js";
import { readJsonStrict, resolveFrom } from "./eval-files.js";

/**
 * What `eval score --consistency FILE` reads from a `judge-consistency/1` report (written by
 * `eval consistency --out`), and what it says: the ceiling the judge's own inconsistency puts
 * on its agreement with any gold, and, with `--max-flip-rate`, a gate bar on the flip rate.
 *
 * The ceiling: a judge that says yes to item i with chance q_i on each ask flips between two
 * independent asks with chance f_i = 2 q_i (1 − q_i), and agrees with any fixed verdict with
 * chance at most max(q_i, 1 − q_i) = (1 + √(1 − 2 f_i)) / 2. √ is concave, so over the items
 * (Jensen) agreement ≤ (1 + √(1 − 2 f)) / 2 for the mean flip rate f.
 *
 * Example: f = 0.15 -> ceiling 0.9183: no gold can see more than 91.8% agreement from it.
 */
const QuestionSchema = z.object({ question: z.string(), items: z.number().int().nonnegative(), flips: z.number().int().nonnegative(), rate: z.number().min(0).max(1).nullable(), low: z.number().min(0).max(1), high: z.number().min(0).max(1) });
export const ConsistencyFileSchema = z.object({
  schema: z.literal("judge-consistency/1"),
  lane: z.string(),
  kind: z.string(),
  model: z.string(),
  sampling: z.object({ temperature: z.number().nullable(), seed: z.number().nullable() }),
  level: z.number(),
  questions: z.array(QuestionSchema),
});

/** The agreement ceiling a mean flip rate f puts on a judge: (1 + √(1 − 2f)) / 2. */
export const agreementCeiling = (f: number): number => (1 + Math.sqrt(Math.max(0, 1 - 2 * f))) / 2;

export interface ConsistencyNote {
  file: string;
  lane: string;
  model: string;
  sampling: { temperature: number | null; seed: number | null };
  question: string;
  items: number;
  flips: number;
  rate: number;
  low: number;
  high: number;
  level: number;
  /** At the point flip rate, and at its interval's lower bound (the loosest ceiling the data allow). */
  ceiling: number;
  ceilingLoosest: number;
  bar: { max: number; judgedOn: "upper" | "point"; pass: boolean; source: string } | null;
}

export function readConsistency(io: Io, file: string, question: string, maxFlipRate: number | null, judgedOn: "upper" | "point" = "upper", source = "--max-flip-rate"): ConsistencyNote {
  const path = resolveFrom(io, file);
  const c = readJsonStrict(path, ConsistencyFileSchema, "a judge-consistency/1 report (eval consistency --out)");
  const q = c.questions.find((x) => x.question === question);
  if (!q || q.rate === null) throw badInput(`no flip rate of ${question} in ${file}`, `a scored question ${question} (run eval consistency --question ${question})`, describeFound(c.questions.map((x) => x.question).join(", ")));
  return {
    file: path,
    lane: c.lane,
    model: c.model,
    sampling: c.sampling,
    question,
    items: q.items,
    flips: q.flips,
    rate: q.rate,
    low: q.low,
    high: q.high,
    level: c.level,
    ceiling: agreementCeiling(q.rate),
    ceilingLoosest: agreementCeiling(q.low),
    bar: maxFlipRate === null ? null : { max: maxFlipRate, judgedOn, pass: (judgedOn === "upper" ? q.high : q.rate) <= maxFlipRate, source },
  };
}

export function printConsistency(io: Io, n: ConsistencyNote): void {
  const temp = n.sampling.temperature === null ? "deterministic" : `temperature ${n.sampling.temperature}, seed ${n.sampling.seed ?? "none"}`;
  println(io, `judge consistency (lane ${n.lane}, ${n.model}, ${temp}): ${n.question} flips ${n.flips} of ${n.items} asked twice, ${n.rate.toFixed(3)} [${n.low.toFixed(3)}, ${n.high.toFixed(3)}]`);
  if (n.flips > 0) println(io, `  agreement with any gold is bounded by the judge's own inconsistency: at most ${n.ceiling.toFixed(3)} (at most ${n.ceilingLoosest.toFixed(3)} at the flip rate's lower bound)`);
  if (n.bar) println(io, `  ${n.bar.pass ? "PASS" : "FAIL"} consistency ${n.question} flip rate <= ${n.bar.max}: ${n.rate.toFixed(3)} [${n.low.toFixed(3)}, ${n.high.toFixed(3)}] (judged on the ${n.bar.judgedOn === "upper" ? "upper bound" : "point rate"} <= ${n.bar.max}; bar from ${n.bar.source})`);
}
