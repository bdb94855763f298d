import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import type { CommandContext } from "../../shared/command.js";
import { badInput } from "../../../core/errors.js";
import { printJson, println, progress, warn } from "../../shared/io.js";
import { syntheticTrainingSet } from "../../../runtime/engine/index.js";
import { SYNTHETIC_LABELER } from "../../../runtime/corpora/index.js";
import { trainEmbedded } from "../../../runtime/engine/index.js";
import { loadCaptureSignals } from "../../../runtime/engine/index.js";
import { parseWeights, serialiseWeights, weightsId } from "../../../runtime/engine/index.js";
import { weightsSummary } from "../../../runtime/engine/index.js";
import { collect, guard, loadSets, versions, wholeNumber } from "../../shared/engine.js";
import { examples } from "../../shared/help.js";

/**
 * `errata engine train`: the embedded lane's per-question logistic models from labelled sets
 * and/or a synthetic set generated from a seed (never 7, the bundled evaluation corpus);
 * deterministic: the same data gives the same bytes.
 */
export function register(group: Command, ctx: CommandContext): void {
  group
    .command("train")
    .description("Train the embedded lane's per-question logistic models on labelled sets (deterministic: same data, same bytes)")
    .option("--labels <file>", "a labels.jsonl (its exchanges.jsonl beside it); repeatable (optional with --synthetic-seed)", collect)
    .option("--exchanges <file>", "the exchanges file for each --labels, when not beside it; repeatable", collect)
    .option("--out <file>", "where to write the weights (JSON)")
    .option("--synthetic-seed <n>", "also train on a synthetic set generated now with this seed (never 7: that is the bundled evaluation corpus); used for questions no real set labels over every turn")
    .option("--synthetic-sessions <n>", "sessions of the synthetic training set", "300")
    .option("--max-features <n>", "keep at most n non-zero weights per question (a larger model is refitted on its top features)")
    .option("--l2 <n>", "L2 strength on the coefficients, or 'cv' (per question, session-grouped 5-fold CV over 0.1, 0.3, 1, 3, 10)", "cv")
    .option("--l2-from <file>", "reuse each question's L2 recorded in this weights file (no cross-validation: a refit after a change of the features' inputs, e.g. the capture classifier)")
    .option("--include-holdout", "train on the holdout sessions too (then `engine eval` is no longer honest)")
    .option("--no-signals", "leave the capture classifier's signals out of the features")
    .option("--json", "print one JSON summary")
    .option("--dry-run", "train and report, write nothing")
    .addHelpText(
      "after",
      examples(
        [
          [
            "errata datasets copy ab-redial &&",
            "errata engine train --labels datasets/ab-redial/labels.jsonl --l2 1 --max-features 2000 --out weights.json",
          ],
          "errata engine train --synthetic-seed 101 --synthetic-sessions 10 --l2 1 --dry-run",
        ],
        { after: "The shipped weights (datasets/weights/embedded.json) come from the longer command in\ndatasets/weights/NOTICE.md." },
      ),
    )
    .action(async (opts: { labels?: string[]; exchanges?: string[]; out?: string; l2: string; l2From?: string; syntheticSeed?: string; syntheticSessions: string; maxFeatures?: string; includeHoldout?: boolean; signals: boolean; json?: boolean; dryRun?: boolean }) =>
      guard(async () => {
        const io = ctx.io;
        const l2Number = opts.l2 === "cv" ? "cv" : Number(opts.l2);
        if (l2Number !== "cv" && (!(l2Number > 0) || !Number.isFinite(l2Number))) throw badInput("--l2 must be a positive number or cv", "> 0 or cv", opts.l2);
        if (opts.l2From !== undefined && opts.l2 !== "cv") throw badInput("--l2 and --l2-from exclude each other", "one of --l2 N, --l2-from FILE", `--l2 ${opts.l2} --l2-from ${opts.l2From}`);
        const l2 = opts.l2From !== undefined ? recordedL2(resolve(io.cwd, opts.l2From)) : l2Number;
        if (!opts.out && !opts.dryRun) throw badInput("--out is required unless --dry-run", "--out FILE", "nothing");
        const maxFeatures = opts.maxFeatures !== undefined ? wholeNumber("--max-features", opts.maxFeatures) : undefined;
        if (maxFeatures === 0) throw badInput("--max-features must be at least 1", ">= 1", "0");
        if (!opts.labels?.length && opts.syntheticSeed === undefined) throw badInput("nothing to train on", "--labels FILE (repeatable) and/or --synthetic-seed N", "neither");
        const sets = loadSets(io, opts.labels ?? [], opts.exchanges);
        // The generator's plan trains only through --synthetic-seed (seed recorded, 7 refused): the bundled seed-7 set is the evaluation corpus.
        const given = sets.find((s) => s.labels.some((l) => l.labeler === SYNTHETIC_LABELER));
        if (given) throw badInput(`--labels ${given.name}: the synthetic generator's plan labels are not training data here`, "real labelled sets in --labels; synthetic training data from --synthetic-seed N (another seed than the bundled evaluation corpus)", `labels by ${SYNTHETIC_LABELER}`);
        if (opts.syntheticSeed !== undefined) sets.push(await syntheticTrainingSet(wholeNumber("--synthetic-seed", opts.syntheticSeed), wholeNumber("--synthetic-sessions", opts.syntheticSessions)));
        const signals = opts.signals ? await loadCaptureSignals() : null;
        if (opts.signals && signals === null) warn(io, "errata engine train: the capture classifier is not available; training without its signals");
        let bar: ReturnType<typeof progress> | null = null;
        const weights = trainEmbedded(sets, {
          versions: versions(),
          l2,
          signals,
          includeHoldout: opts.includeHoldout === true,
          ...(maxFeatures !== undefined ? { maxFeatures } : {}),
          onProgress: (done, total) => {
            bar ??= progress(io, "engine train", total);
            if (done > 0) bar.tick();
          },
        });
        (bar as ReturnType<typeof progress> | null)?.done();
        const text = serialiseWeights(weights);
        const out = opts.out ? resolve(io.cwd, opts.out) : null;
        if (out && !opts.dryRun) {
          mkdirSync(dirname(out), { recursive: true });
          writeFileSync(out, text);
        }
        const summary = { model: weightsId(weights), out, written: Boolean(out && !opts.dryRun), bytes: Buffer.byteLength(text), captureSignals: weights.features.captureSignals, trainedOn: weights.trainedOn, ...weightsSummary(weights) };
        if (opts.json) return printJson(io, summary);
        println(io, `${summary.written ? "wrote" : "would write"} ${summary.model} (${summary.bytes} bytes)${out ? ` to ${out}` : ""}`);
        for (const [k, q] of Object.entries(summary.questions)) println(io, `  ${k}: ${q.n} items, ${q.positives} positive, ${q.nonZero} weights, l2 ${q.l2}, cut ${q.cut}${q.converged ? "" : " (NOT converged)"}; trained on ${q.trainedBy}`);
        for (const [k, why] of Object.entries(summary.skipped)) println(io, `  ${k}: skipped: ${why}`);
      }),
    );
}

/** Each question's L2 as a weights file records it ("<id>@<version>" -> L2). */
function recordedL2(path: string): Map<string, number> {
  if (!existsSync(path)) throw badInput("no weights file for --l2-from", "an engine-weights/1 JSON file", path);
  let weights;
  try {
    weights = parseWeights(readFileSync(path, "utf8"));
  } catch (e) {
    throw badInput("--l2-from is not a readable weights file", "an engine-weights/1 JSON file", (e as Error).message);
  }
  return new Map(Object.entries(weights.questions).map(([k, q]) => [k, q.l2]));
}
