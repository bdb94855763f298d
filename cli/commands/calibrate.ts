import { resolve } from "node:path";
import type { Command } from "commander";
import { calibrateQuestion, cutsForItems, judgeShadowLog, opportunitiesNeeded, clopperPearsonUpper, yesNoQuestions } from "../../calibration/index.js";
import { bankHash } from "../../questions/index.js";
import { DEFAULT_SPLIT_SALT } from "../../eval/split.js";
import {
  CutsCandidateSchema,
  ProbabilitiesCandidateSchema,
  ShadowEventSchema,
  type CutsCandidate,
  type ProbabilitiesCandidate,
  type QuestionCutsRecord,
} from "../../schemas/calibration.js";
import type { CommandContext } from "../command.js";
import { badInput } from "../../core/errors.js";
import { printJson, println } from "../io.js";
import { loadInputs, splitQuestion, type InputOptions, type SplitOptions } from "./calibrate-inputs.js";
import { registerGeneric } from "./calibrate-generic.js";
import { candidatePath, numberOption, readJsonl, stamp, writeAtomic } from "./research-io.js";

/**
 * `errata calibrate`: cuts and probability calibration for the bank's questions from blind
 * labels (writing candidates under `<v4>/candidates/`, never the promoted configuration), the
 * generic draw|brief|agreement|fit for any yes/no question, and the shadow gate's arithmetic.
 */
interface CommonOptions extends InputOptions {
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

export function register(program: Command, ctx: CommandContext): void {
  const group = program.command("calibrate").description("cuts and probability calibration from blind labels; the shadow gate");

  withInputOptions(group.command("cuts").description("per-question cuts from blind labels (kappa cut and precision cut), as a candidate"))
    .option("--precision <x>", "target precision for the precision cut (default 0.9)")
    .option("--rule <rule>", "which cut fills the registry: kappa or precision (default kappa)")
    .addHelpText("after", "\nExample:\n  $ errata calibrate cuts --answers answers.jsonl --labels labels.jsonl --exchanges exchanges.jsonl --precision 0.9")
    .action((opts: CommonOptions & { precision?: string; rule?: string }) => {
      const rule = opts.rule ?? "kappa";
      if (rule !== "kappa" && rule !== "precision") throw badInput("bad --rule", "kappa or precision", JSON.stringify(rule));
      const precisionTarget = numberOption("precision", opts.precision, 0.9, [0.01, 1]);
      const inputs = loadInputs(ctx.io.cwd, opts);
      const split = splitFrom(opts, inputs.sessionOf !== undefined);
      const questions: QuestionCutsRecord[] = [];
      const cuts: Record<string, number> = {};
      for (const q of yesNoQuestions(inputs.labels)) {
        const { fit, excluded } = splitQuestion(q, inputs, split);
        const r = cutsForItems(fit, precisionTarget);
        const rec: QuestionCutsRecord = {
          question: q,
          n: fit.length,
          positives: r?.positives ?? 0,
          excluded,
          kappa_cut: r?.kappaCut ?? null,
          precision_target: precisionTarget,
          precision_cut: r?.precisionCut ?? null,
          notes: r ? r.notes : ["no labelled, scored items in the fit split"],
        };
        questions.push(rec);
        const chosen = rule === "kappa" ? rec.kappa_cut : rec.precision_cut;
        if (chosen) cuts[q] = chosen.cut;
      }
      if (questions.length === 0) throw badInput("no yes/no labels", "label/1 rows with boolean values", "none in --labels");
      const candidate: CutsCandidate = CutsCandidateSchema.parse({
        schema: "calibration-cuts/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        rule,
        cuts,
        questions,
        inputs: { ...inputs.files, split: split ? `${inputs.splitOf ? "the gold file's split" : `sessions, holdout share ${split.holdoutShare}, salt ${split.salt}`}; cuts fitted on the fit part` : "none: all items" },
      });
      const file = candidatePath(ctx, opts.out, `cuts-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(candidate, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, candidate });
      println(ctx.io, `question                      n    kappa cut (κ, P, R)            precision ≥ ${precisionTarget} cut (P, R)`);
      for (const q of questions) {
        const k = q.kappa_cut;
        const p = q.precision_cut;
        const f = (x: number | null | undefined) => (x === null || x === undefined ? "  - " : x.toFixed(2));
        println(
          ctx.io,
          `${q.question.padEnd(28)} ${String(q.n).padStart(4)}   ${k ? `${k.cut.toFixed(3)} (${f(k.kappa)}, ${f(k.precision)}, ${f(k.recall)})` : "none".padEnd(24)}   ${p ? `${p.cut.toFixed(3)} (${f(p.precision)}, ${f(p.recall)})` : "none"}`,
        );
      }
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });

  withInputOptions(group.command("probabilities").description("Platt and isotonic calibration per question, scored on the holdout, as a candidate"))
    .option("--platt-input <kind>", "what Platt reads: logit (default) or probability (sklearn's predict_proba path)")
    .addHelpText("after", "\nExample:\n  $ errata calibrate probabilities --answers answers.jsonl --labels labels.jsonl --exchanges exchanges.jsonl")
    .action((opts: CommonOptions & { plattInput?: string }) => {
      const plattInput = opts.plattInput ?? "logit";
      if (plattInput !== "logit" && plattInput !== "probability") throw badInput("bad --platt-input", "logit or probability", JSON.stringify(plattInput));
      const inputs = loadInputs(ctx.io.cwd, opts);
      const split = splitFrom(opts, inputs.sessionOf !== undefined);
      const questions: ProbabilitiesCandidate["questions"] = [];
      for (const q of yesNoQuestions(inputs.labels)) {
        const { fit, holdout, excluded } = splitQuestion(q, inputs, split);
        if (fit.length === 0) {
          questions.push({ question: q, n_fit: 0, n_eval: 0, chosen: { method: "none" }, platt: null, isotonic: null, metrics: null, evaluated_on: "fit", notes: ["no labelled, scored items in the fit split"] });
          continue;
        }
        const r = calibrateQuestion(fit, split ? holdout : null, plattInput);
        const notes = [...r.notes];
        if (excluded.no_majority + excluded.unscored > 0) notes.push(`left out: ${excluded.no_majority} without a majority, ${excluded.unscored} unscored`);
        questions.push({ question: q, n_fit: r.n_fit, n_eval: r.n_eval, chosen: r.chosen, platt: r.platt, isotonic: r.isotonic, metrics: r.metrics, evaluated_on: r.evaluated_on, notes });
      }
      if (questions.length === 0) throw badInput("no yes/no labels", "label/1 rows with boolean values", "none in --labels");
      const candidate: ProbabilitiesCandidate = ProbabilitiesCandidateSchema.parse({
        schema: "calibration-probabilities/1",
        created_at: new Date(ctx.io.now()).toISOString(),
        bank_hash: bankHash,
        platt_input: plattInput,
        questions,
        inputs: { ...inputs.files, split: split ? (inputs.splitOf ? "the gold file's split" : `sessions, holdout share ${split.holdoutShare}, salt ${split.salt}`) : "none: in-sample" },
      });
      const file = candidatePath(ctx, opts.out, `probabilities-${stamp(ctx.io.now())}.json`);
      if (!opts.dryRun) writeAtomic(file, `${JSON.stringify(candidate, null, 2)}\n`);
      if (opts.json) return printJson(ctx.io, { file: opts.dryRun ? null : file, candidate });
      println(ctx.io, "question                     fit  eval  chosen     ECE raw→platt→iso        Brier raw→platt→iso      log loss raw→platt→iso");
      const t = (m: { ece: number; brier: number; log_loss: number } | null | undefined, k: "ece" | "brier" | "log_loss") => (m ? m[k].toFixed(3) : "  -  ");
      for (const q of questions) {
        const m = q.metrics;
        println(
          ctx.io,
          `${q.question.padEnd(28)} ${String(q.n_fit).padStart(4)} ${String(q.n_eval).padStart(5)}  ${q.chosen.method.padEnd(9)}  ` +
            (["ece", "brier", "log_loss"] as const).map((k) => `${t(m?.raw, k)}→${t(m?.platt, k)}→${t(m?.isotonic, k)}`).join("  ") +
            (q.evaluated_on === "fit" ? "  (in-sample)" : ""),
        );
      }
      println(ctx.io, opts.dryRun ? "dry run: nothing written" : `candidate written: ${file} (not promoted)`);
    });

  group
    .command("shadow")
    .description("how many clean opportunities a check must watch; with --log, whether it has earned its place")
    .option("--false-alarm <rate>", "false-alarm rate to bound (default 0.05)")
    .option("--confidence <level>", "one-sided confidence (default 0.95)")
    .option("--log <file>", "shadow log (shadow/1 JSONL)")
    .option("--check <name>", "only this check (default every check in the log)")
    .option("--min-days <n>", "days a check must watch besides the count (default 7)")
    .option("--json", "print one JSON value")
    .addHelpText("after", "\nConvention: one opportunity per distinct session with clean, eligible moments; a session\nis a false alarm when the check fired on any of its clean moments. Exit 1 when a check in\nthe log has not earned its place.\n\nExample:\n  $ errata calibrate shadow --false-alarm 0.05 --confidence 0.95\n  $ errata calibrate shadow --log shadow.jsonl --check reply_language")
    .action((opts: { falseAlarm?: string; confidence?: string; log?: string; check?: string; minDays?: string; json?: boolean }) => {
      const rate = numberOption("false-alarm", opts.falseAlarm, 0.05, [1e-6, 0.999999]);
      const confidence = numberOption("confidence", opts.confidence, 0.95, [0.5, 0.999999]);
      if (rate <= 0 || rate >= 1) throw badInput("bad --false-alarm", "a rate in (0, 1)", String(rate));
      const minDays = numberOption("min-days", opts.minDays, 7, [0, 3650]);
      const needed = opportunitiesNeeded(rate, confidence);
      const base = { false_alarm_rate: rate, confidence, method: "one-sided exact Clopper-Pearson upper bound (jstat beta quantile)", convention: "distinct sessions", needed, bound_at_needed: clopperPearsonUpper(0, needed, confidence) };
      if (!opts.log) {
        if (opts.json) return printJson(ctx.io, base);
        println(ctx.io, `${needed} clean, eligible opportunities from distinct sessions bound the false-alarm rate at ${(base.bound_at_needed * 100).toFixed(2)}% < ${rate * 100}% (one-sided exact ${confidence * 100}%).`);
        return;
      }
      const events = readJsonl(resolve(ctx.io.cwd, opts.log), ShadowEventSchema);
      const checks = opts.check ? [opts.check] : [...new Set(events.map((e) => e.check))].sort();
      if (checks.length === 0) throw badInput(`no checks in ${opts.log}`, "shadow/1 lines", "an empty log");
      const verdicts = checks.map((c) => judgeShadowLog(events, c, { falseAlarmRate: rate, confidence, minDays }));
      if (verdicts.some((v) => !v.earned)) ctx.exitCode = 1;
      if (opts.json) return printJson(ctx.io, { ...base, min_days: minDays, checks: verdicts });
      for (const v of verdicts) {
        println(
          ctx.io,
          `${v.check}: ${v.earned ? "earned its place" : "still in shadow"}: ${v.falseAlarmSessions} false alarms in ${v.opportunities} sessions, bound ${v.upperBound === null ? "n/a" : `${(v.upperBound * 100).toFixed(2)}%`}, ${v.daysWatched.toFixed(1)} days` +
            (v.reasons.length ? ` (${v.reasons.join("; ")})` : ""),
        );
      }
    });

  registerGeneric(group, ctx);
}
