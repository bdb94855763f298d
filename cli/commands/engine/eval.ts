import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput, ErrataError } from "../../../core/errors.js";
import { printJson, println, progress, warn } from "../../shared/io.js";
import { evaluateEmbedded } from "../../../runtime/engine/index.js";
import { crossValidate } from "../../../runtime/engine/index.js";
import { createScorer } from "../../../runtime/engine/index.js";
import { loadCaptureSignals } from "../../../runtime/engine/index.js";
import { loadShippedWeights } from "../../../runtime/engine/index.js";
import { parseWeights } from "../../../runtime/engine/index.js";
import { evalTable } from "../../../runtime/engine/index.js";
import { collect, defaultLabelFiles, guard, loadSets, staleSignals, versions } from "../../shared/engine.js";
import { examples } from "../../shared/help.js";

/**
 * `errata engine eval`: AUC, Brier, log loss and kappa of embedded weights (default the
 * shipped ones) on the session-disjoint holdout of every bundled labelled set, beside the
 * raters' Fleiss kappa; `--cv` adds 5 session-grouped folds over every item.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("eval")
    .description("AUC, Brier, log loss and kappa of the embedded weights on the session-disjoint holdout, per set and question, beside the raters' Fleiss kappa")
    .option("--weights <file>", "weights file (default: the shipped datasets/weights/embedded.json)")
    .option("--labels <file>", "a labels.jsonl; repeatable (default: every bundled datasets/*/labels.jsonl)", collect)
    .option("--exchanges <file>", "the exchanges file for each --labels, when not beside it; repeatable", collect)
    .option("--cv", "also the recipe on every item of each set: 5 session-grouped folds (at each question's shipped L2)")
    .option("--json", "print one JSON value: {model, rows}")
    .addHelpText("after", examples(["errata datasets copy ab-redial && errata engine eval --labels datasets/ab-redial/labels.jsonl --cv"]))
    .action(async (opts: { weights?: string; labels?: string[]; exchanges?: string[]; cv?: boolean; json?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const weights = opts.weights ? parseWeights(readFileSync(resolve(io.cwd, opts.weights), "utf8"), opts.weights) : loadShippedWeights();
        if (weights === null) throw new ErrataError("NOT_FOUND", "no weights to evaluate", { expected: "--weights FILE or shipped datasets/weights/embedded.json", found: "neither" });
        const labelFiles = opts.labels ?? defaultLabelFiles();
        if (labelFiles.length === 0) throw badInput("no labelled sets to evaluate on", "--labels FILE", "none given or bundled");
        const sets = loadSets(io, labelFiles, opts.exchanges);
        const scorer = createScorer(weights, weights.features.captureSignals ? await loadCaptureSignals() : null);
        const rows = evaluateEmbedded(sets, weights, scorer, { versions: versions() });
        const stale = await staleSignals(weights, sets);
        if (stale) warn(io, `errata engine eval: ${stale}`);
        if (opts.cv) {
          const signals = weights.features.captureSignals ? await loadCaptureSignals() : null;
          const l2Of = (key: string): number => weights.questions[key]?.l2 ?? (typeof weights.l2 === "number" ? weights.l2 : 1);
          const bar = progress(io, "engine eval --cv", sets.length);
          for (const set of sets) {
            rows.push(...crossValidate(set, { versions: versions(), l2: l2Of, features: weights.features, signals, onQuestion: (q) => bar.note(`${set.name} ${q}`) }));
            bar.tick();
          }
          bar.done();
        }
        if (opts.json) return printJson(io, { model: scorer.model, staleSignals: stale, split: weights.split, labellersKappa: "Fleiss' kappa, binary, all raters of each holdout item", intervals: "session-block bootstrap, 2,000 resamples, seed 1, 95% percentile", captureKappa: "unhappyWithReply(classify(prompt, {previousReply})) vs the majority (detect.* only)", kappaCut: "the cut stored with the weights (max kappa on the training side)", rows });
        println(io, `${scorer.model}: session-disjoint holdout of the sets it was trained on (${weights.split.method}); all items of the others ("all items"); SYNTHETIC sets are generated, not people`);
        println(io, "kappa and flags at the cut recorded with the weights per question (max kappa on the training side), never a bare 0.5");
        for (const line of evalTable(rows)) println(io, line);
      }),
    );
}
