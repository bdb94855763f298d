import { existsSync } from "node:fs";
import { basename } from "node:path";
import type { Command } from "commander";
import { inclusionMonteCarlo } from "../../../eval/index.js";
import { mulberry32 } from "../../../eval/index.js";
import { drawWithPlan, inclusionProbabilities, planSample, sampleGold, type GoldCandidate } from "../../../eval/index.js";
import { DEFAULT_SPLIT_SALT, splitOfSession } from "../../../eval/index.js";
import { openJudgments } from "../../../runtime/judgments/index.js";
import { ExchangeSchema } from "../../../schemas/exchange.js";
import { GoldItemSchema, GoldManifestSchema, type GoldItem, type GoldManifest } from "../../../schemas/gold.js";
import { PredictionSchema } from "../../../schemas/prediction.js";
import type { CommandContext } from "../../shared/command.js";
import { badInput, describeFound } from "../../../core/errors.js";
import { printJson, println, progress } from "../../shared/io.js";
import { cutsRequest } from "../../shared/cuts-file.js";
import { evalPaths, parseIntOption, parseNumberOption, pure, readJsonlStrict, resolveFrom, toJsonl, writeAtomic } from "../../shared/eval-files.js";
import { examples } from "../../shared/help.js";
import { runNext } from "../../shared/eval-next.js";

/**
 * `errata eval sample`: draws the gold set from exchanges and their composed v4 verdicts and
 * writes `gold.jsonl` (gold-item/1: inclusion probability, weights, split) and `gold.json`
 * (gold-manifest/1: the design, corpus and pool counts, shortfalls, sources).
 *
 * Example: `errata eval sample --exchanges ex.jsonl --failures v4.jsonl --seed 7` →
 * "drew 300 items (180 failures, 120 other) from 5,210 exchanges in 412 sessions; …".
 */
export interface SampleFlags {
  exchanges?: string[];
  answers?: string;
  cuts?: string;
  failures?: string;
  failureDetector: string;
  items?: string;
  perSession?: string;
  failureItems?: string;
  seed?: string;
  holdoutShare?: string;
  splitSalt?: string;
  monteCarlo?: string;
  next?: string;
  labels?: string[];
  detectQuestion?: string;
  out?: string;
  force?: boolean;
  dryRun?: boolean;
  json?: boolean;
}

export function register(group: Command, ctx: CommandContext): void {
  group
    .command("sample")
    .description("Draw the gold set: N items, at most k per session, M composed failures, seeded; exact inclusion probabilities; fit/holdout split by session")
    .option("--exchanges <files...>", "exchange/1 JSONL files (default: the v4 folder's exchanges.jsonl)")
    .option("--failures <file>", "composed verdicts as prediction/1 rows (default: compose the v4 folder's answers)")
    .option("--failure-detector <name>", "which detector's rows in --failures give the strata", "v4")
    .option("--answers <file>", "answer/1 JSONL to compose from (default: the v4 folder's answers.jsonl)")
    .option("--cuts <file>", "cuts used to compose the answers (default: the promoted configuration's, else those recorded with the judge's weights, else 0.5)")
    .option("--items <n>", "items to draw (default 300)")
    .option("--per-session <k>", "at most k items per session (default 3, at least 2)")
    .option("--failure-items <m>", "composed failures to draw (default 180)")
    .option("--seed <n>", "seed of the draw (default 1)")
    .option("--holdout-share <x>", "share of sessions in the holdout (default 0.5)")
    .option("--split-salt <text>", "salt of the session hash (default errata-split/1)")
    .option("--next <k>", "active labelling: propose about k items to label next (inclusion probabilities from --failures' p_failure and the labels so far, appended to <out>/active.jsonl)")
    .option("--labels <files...>", "with --next: label/1 files with the labels so far (default: <ledger>/eval/labels.jsonl)")
    .option("--detect-question <id>", "with --next: the yes/no question whose majority is a label", "detect.unhappy")
    .option("--monte-carlo <runs>", "also re-run the seeded sampler this many times and report the largest |z| against the exact probabilities")
    .option("--out <dir>", "folder for gold.jsonl and gold.json (default: <ledger>/eval)")
    .option("--force", "replace an existing gold set")
    .option("--dry-run", "draw and report, write nothing")
    .option("--json", "print one JSON value: the manifest and where it was written")
    .addHelpText(
      "after",
      examples([
        [
          "errata datasets copy ab-redial && errata v4 detect --exchanges datasets/ab-redial/exchanges.jsonl &&",
          "errata eval sample --exchanges datasets/ab-redial/exchanges.jsonl --items 60 --failure-items 10 --seed 7",
        ],
        [
          "errata datasets copy ab-redial &&",
          "errata eval predictions --exchanges datasets/ab-redial/exchanges.jsonl --detectors regex --out regex.jsonl &&",
          "errata eval sample --next 20 --exchanges datasets/ab-redial/exchanges.jsonl --failures regex.jsonl --failure-detector regex --dry-run",
        ],
      ]),
    )
    .action((flags: SampleFlags) => runSample(ctx, flags));
}

/** Candidates with their composed verdict: from a predictions file, or composed from stored answers. */
function candidates(ctx: CommandContext, flags: SampleFlags, exchangeFiles: string[]): { list: GoldCandidate[]; failureSources: string[] } {
  const exchanges = exchangeFiles.flatMap((f) => readJsonlStrict(f, ExchangeSchema, "exchange/1"));
  if (exchanges.length === 0) throw badInput("no exchanges to sample from", "exchange/1 rows", `0 in ${exchangeFiles.join(", ")}`);
  let verdict = new Map<string, boolean | null>();
  let failureSources: string[] = [];
  if (flags.failures) {
    const file = resolveFrom(ctx.io, flags.failures);
    const rows = readJsonlStrict(file, PredictionSchema, "prediction/1").filter((p) => p.detector === flags.failureDetector);
    if (rows.length === 0) throw badInput(`no predictions of detector ${flags.failureDetector} in ${file}`, "prediction/1 rows of that detector", "none");
    verdict = new Map(rows.map((p) => [p.exchange_id, p.detected]));
    failureSources = [file];
  } else {
    const v4Dir = evalPaths(ctx.io).v4Dir;
    // --answers names another answers file: read it as the v4 folder's (the folder is where it lives).
    const answersFile = flags.answers ? resolveFrom(ctx.io, flags.answers) : `${v4Dir}/answers.jsonl`;
    const j = openJudgments({ v4Dir, answersFile, exchangeFiles, cuts: cutsRequest(flags.cuts, ctx.io) });
    if (j.judge) {
      ctx.io.stderr.write(`errata eval sample: cuts: ${j.cuts.origin}\n`);
      verdict = new Map(j.composed().map((c) => [c.exchange.id, c.detect ? c.detect.is_failure : null]));
      failureSources = [answersFile];
    }
  }
  return { list: exchanges.map((e) => ({ id: e.id, session: e.session_id, failure: verdict.get(e.id) ?? null })), failureSources };
}

function runSample(ctx: CommandContext, flags: SampleFlags): void {
  const p = evalPaths(ctx.io);
  const exchangeFiles = (flags.exchanges && flags.exchanges.length > 0 ? flags.exchanges : [`${p.v4Dir}/exchanges.jsonl`]).map((f) => resolveFrom(ctx.io, f));
  if (flags.next !== undefined) {
    runNext(ctx, {
      next: flags.next, failureDetector: flags.failureDetector, exchanges: exchangeFiles, detectQuestion: flags.detectQuestion ?? "detect.unhappy",
      seed: parseIntOption("--seed", flags.seed, 1, 0, 2 ** 32 - 1), outDir: flags.out ? resolveFrom(ctx.io, flags.out) : p.dir,
      labels: flags.labels && flags.labels.length > 0 ? flags.labels : [p.labels],
      ...(flags.failures ? { failures: flags.failures } : {}), ...(flags.dryRun ? { dryRun: true } : {}), ...(flags.json ? { json: true } : {}),
    });
    return;
  }
  const n = parseIntOption("--items", flags.items, 300, 1);
  const perSession = parseIntOption("--per-session", flags.perSession, 3, 2);
  const failures = parseIntOption("--failure-items", flags.failureItems, 180, 0, n);
  const seed = parseIntOption("--seed", flags.seed, 1, 0, 2 ** 32 - 1);
  const holdoutShare = parseNumberOption("--holdout-share", flags.holdoutShare, 0.5, 0, 1);
  const salt = flags.splitSalt ?? DEFAULT_SPLIT_SALT;
  const mcReplicates = flags.monteCarlo === undefined ? 0 : parseIntOption("--monte-carlo", flags.monteCarlo, 0, 1);
  const outDir = flags.out ? resolveFrom(ctx.io, flags.out) : p.dir;
  const goldFile = `${outDir}/gold.jsonl`;
  const manifestFile = `${outDir}/gold.json`;
  if (!flags.dryRun && !flags.force && existsSync(goldFile)) {
    throw badInput("a gold set already exists (labels are keyed to it)", "--force to draw a new one, or --out DIR", describeFound(goldFile));
  }

  const { list, failureSources } = candidates(ctx, flags, exchangeFiles);
  if (failures > 0 && !list.some((c) => c.failure !== null)) {
    throw badInput("no composed verdicts for the exchanges", "--failures FILE (prediction/1) or stored v4 answers, or --failure-items 0", "every exchange unscored");
  }
  const g = pure(() => sampleGold(list, { seed, n, perSession, failures }));
  let mc: GoldManifest["monte_carlo_check"] = null;
  if (mcReplicates > 0) {
    // Every eligible item of the corpus, not only the drawn ones: an item the design can never
    // draw is never drawn, so a check over drawn items could not see it.
    const plan = planSample(list, g.options);
    // The sampler is called once per replicate: ticking there draws the bar without touching eval/.
    const bar = progress(ctx.io, "eval sample --monte-carlo", mcReplicates);
    const est = inclusionMonteCarlo(list.map((c) => c.id), (s) => (bar.tick(), drawWithPlan(plan, mulberry32(s)).map((d) => d.id)), { replicates: mcReplicates, seed });
    bar.done();
    const exact = inclusionProbabilities(plan);
    let maxZ = 0;
    let maxSe = 0;
    let zero = 0;
    for (const c of list) {
      const e = est.estimates.get(c.id);
      const pi = exact.get(c.id) ?? 0;
      const se = Math.sqrt((pi * (1 - pi)) / mcReplicates);
      maxSe = Math.max(maxSe, e?.standardError ?? 0);
      if (pi === 0) zero++;
      if (e && se > 0) maxZ = Math.max(maxZ, Math.abs(e.estimate - pi) / se);
      // A probability of 0 or 1 has no spread: any disagreement is a broken design.
      else if (e && e.estimate !== pi) maxZ = Number.MAX_SAFE_INTEGER;
    }
    mc = { replicates: mcReplicates, seed, max_abs_z: maxZ, max_se: maxSe, items: list.length, zero_probability: zero };
  }
  const rows: GoldItem[] = g.items.map((i) =>
    GoldItemSchema.parse({
      schema: "gold-item/1",
      exchange_id: i.id,
      session_id: i.session,
      stratum: i.stratum,
      inclusion_probability: i.inclusionProbability,
      inclusion_method: "exact",
      inclusion_se: 0,
      design_weight: i.designWeight,
      weight: i.weight,
      split: splitOfSession(i.session, { holdoutShare, salt }),
    }),
  );
  const sessionsOf = (side: string) => new Set(rows.filter((r) => r.split === side).map((r) => r.session_id)).size;
  const manifest: GoldManifest = GoldManifestSchema.parse({
    schema: "gold-manifest/1",
    created: new Date(ctx.io.now()).toISOString(),
    seed,
    n,
    per_session: perSession,
    failures,
    holdout_share: holdoutShare,
    split_salt: salt,
    method: "two-stage: per-session capped SRS within strata, then stratified SRS; exact inclusion probabilities",
    corpus: g.corpus,
    pool: g.pool,
    drawn: g.drawn,
    shortfall: g.shortfall,
    split: { fit: rows.filter((r) => r.split === "fit").length, holdout: rows.filter((r) => r.split === "holdout").length, fit_sessions: sessionsOf("fit"), holdout_sessions: sessionsOf("holdout") },
    sources: { exchanges: exchangeFiles.map((f) => basename(f)), failures: failureSources.map((f) => basename(f)), failure_detector: flags.failures ? flags.failureDetector : null },
    monte_carlo_check: mc,
  });
  if (!flags.dryRun) {
    writeAtomic(goldFile, toJsonl(rows));
    writeAtomic(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  if (flags.json) {
    printJson(ctx.io, { written: !flags.dryRun, gold: goldFile, manifest: manifestFile, ...manifest });
    return;
  }
  const c = g.corpus;
  println(ctx.io, `${flags.dryRun ? "would draw" : "drew"} ${rows.length} items (${g.drawn.failure} failures, ${g.drawn.other} other, ${g.drawn.unscored} unscored) from ${c.items} exchanges in ${c.sessions} sessions (${c.failure} composed failures)`);
  println(ctx.io, `design: at most ${perSession} per session, seed ${seed}; inclusion probabilities exact (min ${Math.min(...rows.map((r) => r.inclusion_probability)).toFixed(4)}, max ${Math.max(...rows.map((r) => r.inclusion_probability)).toFixed(4)})`);
  if (g.shortfall.failure > 0 || g.shortfall.total > 0) println(ctx.io, `shortfall: ${g.shortfall.failure} failures and ${g.shortfall.total} items fewer than asked (the capped corpus has too few)`);
  println(ctx.io, `split by session (holdout share ${holdoutShare}): fit ${manifest.split.fit} items / ${manifest.split.fit_sessions} sessions, holdout ${manifest.split.holdout} / ${manifest.split.holdout_sessions}`);
  if (mc) println(ctx.io, `Monte Carlo check (${mc.replicates} runs over all ${mc.items ?? list.length} eligible items, ${mc.zero_probability ?? 0} with probability 0): max |z| ${mc.max_abs_z.toFixed(2)}, max standard error ${mc.max_se.toFixed(4)}`);
  println(ctx.io, flags.dryRun ? "dry run: nothing written" : `wrote ${goldFile} and ${manifestFile}`);
}
