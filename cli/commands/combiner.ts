import { resolve } from "node:path";
import type { Command } from "commander";
import { brierScore, chooseCuts, expectedCalibrationError, logLoss } from "../../calibration/index.js";
import { answerTable } from "../../composers/answer-table.js";
import { assertSameBank, classDistribution, CombinerBankError, detectProbability, fitClassHead, fitDetectHead, type HeadItem } from "../../combiner/index.js";
import { majorityVote } from "../../eval/majority.js";
import { splitOfSession, type SplitSide } from "../../eval/split.js";
import { bank, bankHash, questionsInGroup } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";
import { CombinerSchema, type CombinerRecord } from "../../schemas/combiner.js";
import { DETECT_UNHAPPY } from "../../schemas/label.js";
import type { CommandContext } from "../command.js";
import { badInput } from "../../core/errors.js";
import { printJson, println } from "../io.js";
import { loadInputs, type ResearchInputs } from "./calibrate-inputs.js";
import { splitFrom, withInputOptions } from "./calibrate.js";
import { candidatePath, intOption, readJson, stamp, writeAtomic } from "./research-io.js";

/**
 * `errata combiner fit|eval`: the learned heads over the engine's probabilities, fitted on the
 * fit split of labelled data and scored on the holdout. Plain files in, a candidate out.
 */
export interface GoldRow extends HeadItem {
  y: 0 | 1 | null;
  cls: string | null;
  side: SplitSide;
}

/** Joins answers (current bank versions) and labels into one row per labelled exchange. */
export function goldRows(inputs: ResearchInputs, opts: { target: string; classQuestion: string; holdoutShare: number; salt: string }): GoldRow[] {
  const byExchange = new Map<string, Answer[]>();
  for (const a of inputs.answers) {
    const l = byExchange.get(a.exchange_id);
    if (l) l.push(a);
    else byExchange.set(a.exchange_id, [a]);
  }
  const votes = new Map<string, { d: (boolean | number | string)[]; c: (boolean | number | string)[] }>();
  for (const l of inputs.labels) {
    if (l.question !== opts.target && l.question !== opts.classQuestion) continue;
    const v = votes.get(l.exchange_id) ?? { d: [], c: [] };
    (l.question === opts.target ? v.d : v.c).push(l.value);
    votes.set(l.exchange_id, v);
  }
  const rows: GoldRow[] = [];
  for (const id of [...votes.keys()].sort()) {
    // An exchanges or gold file defines the scope: labelled exchanges outside it are not used.
    if (inputs.sessionOf && !inputs.sessionOf.has(id)) continue;
    const v = votes.get(id)!;
    const d = majorityVote(v.d);
    const c = majorityVote(v.c);
    const y = d.status === "majority" && typeof d.value === "boolean" ? (d.value ? 1 : 0) : null;
    const cls = y === 1 && c.status === "majority" && typeof c.value === "string" && c.value !== "none" ? c.value : null;
    const session = inputs.sessionOf?.get(id) ?? id;
    const side = inputs.splitOf?.get(id) ?? (opts.holdoutShare > 0 ? splitOfSession(session, { holdoutShare: opts.holdoutShare, salt: opts.salt }) : "fit");
    rows.push({ id, session, table: answerTable(byExchange.get(id) ?? [], bank), weight: inputs.weightOf?.get(id) ?? 1, y, cls, side });
  }
  return rows;
}

export const DETECT_FEATURES = [...questionsInGroup("detect"), ...questionsInGroup("blame")].map((q) => q.id);
export const CLASS_FEATURES = [...questionsInGroup("mode"), ...questionsInGroup("cost")].map((q) => q.id);

/** Reads a combiner file and refuses one fitted under another bank (exit 2). */
export function loadCombiner(file: string, currentBank = bankHash): CombinerRecord {
  const model = readJson(file, CombinerSchema);
  try {
    assertSameBank(model, currentBank);
  } catch (err) {
    if (err instanceof CombinerBankError) throw badInput(`${file}: ${err.message}`, err.expected, err.found);
    throw err;
  }
  return model;
}

interface Opts {
  answers?: string;
  labels?: string;
  gold?: string;
  exchanges?: string;
  weights?: string;
  holdoutShare?: string;
  splitSalt?: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
  target?: string;
  classQuestion?: string;
  seed?: string;
  folds?: string;
  model?: string;
}

function rowsFor(ctx: CommandContext, opts: Opts): GoldRow[] {
  const inputs = loadInputs(ctx.io.cwd, opts);
  const split = splitFrom(opts, inputs.sessionOf !== undefined);
  return goldRows(inputs, { target: opts.target ?? DETECT_UNHAPPY, classQuestion: opts.classQuestion ?? "class", holdoutShare: split?.holdoutShare ?? 0, salt: split?.salt ?? "" });
}

export function register(program: Command, ctx: CommandContext): void {
  const group = program.command("combiner").description("the learned detect and class heads over the engine's probabilities");

  withInputOptions(group.command("fit").description("fit both heads on the fit split (L2 by session-grouped cross-validation), as a candidate"))
    .option("--target <question>", `yes/no question whose majority is the gold verdict (default ${DETECT_UNHAPPY})`)
    .option("--class-question <question>", "label question holding the gold v3 class (default class)")
    .option("--seed <n>", "seed of the cross-validation folds (default 1)")
    .option("--folds <n>", "cross-validation folds (default 5)")
    .addHelpText("after", "\nExample:\n  $ errata combiner fit --answers v4/answers.jsonl --labels labels.jsonl --gold gold.jsonl --seed 1")
    .action((opts: Opts) => {
      const seed = intOption("seed", opts.seed, 1, 0);
      const folds = intOption("folds", opts.folds, 5, 2);
      const rows = rowsFor(ctx, opts).filter((r) => r.side === "fit");
      const notes: string[] = [];
      const detectItems = rows.filter((r): r is GoldRow & { y: 0 | 1 } => r.y !== null);
      let detect: CombinerRecord["detect"] = null;
      try {
        detect = { target: opts.target ?? DETECT_UNHAPPY, ...fitDetectHead(detectItems, { questions: DETECT_FEATURES, seed, folds }) };
      } catch (err) {
        notes.push(`detect head not fitted: ${(err as Error).message}`);
      }
      const classItems = rows.filter((r): r is GoldRow & { cls: string } => r.cls !== null);
      let cls: CombinerRecord["class"] = null;
      try {
        cls = { target: opts.classQuestion ?? "class", ...fitClassHead(classItems, { questions: CLASS_FEATURES, seed, folds }) };
      } catch (err) {
        notes.push(`class head not fitted: ${(err as Error).message}`);
      }
      if (!detect && !cls) throw badInput("nothing to fit", "labelled fit-split exchanges with gold verdicts and classes", notes.join("; "));
      const record: CombinerRecord = CombinerSchema.parse({
        schema: "combiner/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        seed,
        folds,
        detect,
        class: cls,
        inputs: { answers: opts.answers ?? "", labels: opts.labels ?? "", ...(opts.gold ? { gold: opts.gold } : {}), ...(opts.exchanges ? { exchanges: opts.exchanges } : {}) },
        notes,
      });
      const file = candidatePath(ctx, opts.out, `combiner-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(record, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, combiner: record });
      if (detect) println(ctx.io, `detect head: ${detect.n} exchanges (${detect.positives} failures), L2 ${detect.l2} by ${folds}-fold session CV, cut ${detect.cut.toFixed(3)}, out-of-fold kappa ${detect.outOfFold?.kappa?.toFixed(3) ?? "n/a"}`);
      if (cls) println(ctx.io, `class head: ${cls.n} failures over ${cls.classes.length} classes, L2 ${cls.l2}`);
      for (const n of notes) println(ctx.io, n);
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });

  withInputOptions(group.command("eval").description("score a fitted combiner on the holdout; optionally write its predictions for eval score"))
    .requiredOption("--model <file>", "a combiner/1 file")
    .option("--target <question>", `gold verdict question (default ${DETECT_UNHAPPY})`)
    .option("--class-question <question>", "gold class question (default class)")
    .option("--predictions <file>", "write prediction/1 lines (detector \"combiner\") for every labelled exchange")
    .addHelpText("after", "\nExample:\n  $ errata combiner eval --model v4/candidates/combiner-20261130T120000Z.json --answers v4/answers.jsonl --labels labels.jsonl --gold gold.jsonl")
    .action((opts: Opts & { model: string; predictions?: string }) => {
      const model = loadCombiner(resolve(ctx.io.cwd, opts.model));
      const rows = rowsFor(ctx, opts);
      const holdout = rows.filter((r) => r.side === "holdout");
      const scope = holdout.length > 0 ? holdout : rows;
      const result: Record<string, unknown> = { evaluated_on: holdout.length > 0 ? "holdout" : "all (no holdout)", items: scope.length };
      if (model.detect) {
        const d = scope.filter((r): r is GoldRow & { y: 0 | 1 } => r.y !== null);
        const p = d.map((r) => detectProbability(model.detect!, r.table));
        const y = d.map((r) => r.y);
        const w = d.map((r) => r.weight);
        if (d.length > 0) {
          const at = chooseCuts(p, y, { precisionTarget: 1, weights: w }).curve.filter((c) => c.cut >= model.detect!.cut).pop() ?? null;
          result["detect"] = { n: d.length, cut: model.detect.cut, at_cut: at, log_loss: logLoss(p, y, w), brier: brierScore(p, y, w), ece: expectedCalibrationError(p, y, w) };
        }
      }
      if (model.class) {
        const c = scope.filter((r): r is GoldRow & { cls: string } => r.cls !== null);
        let right = 0;
        let total = 0;
        for (const r of c) {
          total += r.weight;
          if (classDistribution(model.class, r.table)[0]!.cls === r.cls) right += r.weight;
        }
        result["class"] = { n: c.length, accuracy_given_gold_failure: total > 0 ? right / total : null };
      }
      if (opts.predictions && !opts.dryRun) {
        const lines = rows.map((r) => {
          const pf = model.detect ? detectProbability(model.detect, r.table) : null;
          const detected = pf === null ? null : pf >= model.detect!.cut;
          const cls = detected && model.class ? classDistribution(model.class, r.table)[0]!.cls : null;
          return JSON.stringify({ schema: "prediction/1", exchange_id: r.id, detector: "combiner", detected, class: cls, p_failure: pf });
        });
        writeAtomic(resolve(ctx.io.cwd, opts.predictions), lines.join("\n") + "\n");
        result["predictions"] = resolve(ctx.io.cwd, opts.predictions);
      }
      if (opts.json) return printJson(ctx.io, result);
      const det = result["detect"] as { n: number; at_cut: { precision: number | null; recall: number | null; kappa: number | null } | null; log_loss: number; ece: number } | undefined;
      println(ctx.io, `evaluated on ${String(result["evaluated_on"])}: ${scope.length} labelled exchanges`);
      if (det) println(ctx.io, `detect: precision ${det.at_cut?.precision?.toFixed(3) ?? "n/a"}, recall ${det.at_cut?.recall?.toFixed(3) ?? "n/a"}, kappa ${det.at_cut?.kappa?.toFixed(3) ?? "n/a"}, log loss ${det.log_loss.toFixed(3)}, ECE ${det.ece.toFixed(3)} (n ${det.n})`);
      const c = result["class"] as { n: number; accuracy_given_gold_failure: number | null } | undefined;
      if (c) println(ctx.io, `class: accuracy given a gold failure ${c.accuracy_given_gold_failure?.toFixed(3) ?? "n/a"} (n ${c.n})`);
    });
}
