// One track of the research loop: one corpus in its own ledger folder, from the v4 pass to
// promote. Each track draws its own gold set, so the cuts are calibrated on its own fit
// side and a judge is promoted (or not) on the evidence of one population: mixing an easy
// synthetic set with human-labelled dialogues would let the synthetic figures carry the bars.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cliRunner, StepError } from "./cli.js";
import { readJson, readJsonl, writeJson, writeJsonl } from "./jsonl.js";
import { classTierPredictions } from "./predictions.js";
import { scoreStep } from "./score.js";
import { fillSheet, raterIndex, sheetQuestions } from "./sheets.js";
import { summariseReport, summariseSample, verdictOverlap } from "./summaries.js";

export const LABELERS = ["rater1", "rater2", "rater3"];

export async function runTrack({ name, exchanges, labels, engine, dist, opts, repoRoot, root, log, step, commands }) {
  const dir = join(root, name);
  const ledgerDir = join(dir, "ledger");
  const work = join(dir, "work");
  const evalDir = join(ledgerDir, "eval");
  const v4Dir = join(ledgerDir, "v4");
  const cli = await cliRunner({ repoRoot, dir: root, cwd: dir, ledgerDir, log, commands });
  if (engine.mode === "train") writeJson(join(ledgerDir, "errata-engine.json"), engine.config);
  const T = { corpus: name };
  const exchangesFile = writeJsonl(join(work, "exchanges.jsonl"), exchanges);
  const labelsFile0 = writeJsonl(join(work, "importer-labels.jsonl"), labels);
  const corpusOf = new Map(exchanges.map((e) => [e.id, e.corpus]));
  const goldFile = join(evalDir, "gold.jsonl");
  const labelsFile = join(evalDir, "labels.jsonl");
  const answersFile = join(v4Dir, "answers.jsonl");
  const predDir = join(work, "predictions");
  // Before any blind label: compose with the cuts the engine learnt in training.
  const engineCuts = writeJson(join(work, "engine-cuts.json"), { cuts: engine.cuts });

  const pass = await step(`${name}: v4 pass (shadow): detect, diagnose, v3, report`, async () => {
    const out = {};
    log(`  composing with the engine's trained cuts (${Object.entries(engine.cuts).filter(([k]) => k.startsWith("detect.")).map(([k, v]) => `${k} ${fmt(v)}`).join(", ") || "none"}) until the calibrated ones exist`);
    for (const stage of ["detect", "diagnose", "v3"]) {
      const r = await cli.json(["v4", stage, "--exchanges", exchangesFile, "--cuts", engineCuts, "--json"]);
      out[stage] = { eligible: r.value.eligible, asked: r.value.asked, scored: r.value.scored, unscored: r.value.unscored, judge: r.value.judge };
      log(`    ${stage}: ${r.value.eligible} eligible exchanges, asked ${r.value.asked}, scored ${r.value.scored}, unscored ${r.value.unscored} (${r.value.judge.lane}/${r.value.judge.model})`);
    }
    const again = await cli.json(["v4", "detect", "--exchanges", exchangesFile, "--json"], { quiet: true });
    if (again.value.asked !== 0) throw new Error(`a second v4 detect asked ${again.value.asked} questions: it must ask nothing new`);
    log(`    a second v4 detect asked nothing new (${again.value.alreadyAnswered} already answered)`);
    const rep = await cli.json(["v4", "report", "--exchanges", exchangesFile, "--labels", labelsFile0, "--cuts", engineCuts, "--json"]);
    return { ...out, report: summariseReport(rep.value, log) };
  });
  T.v4pass = pass;
  const judge = pass.detect.judge;

  const regexFile = join(predDir, "regex.jsonl");
  const v3File = join(predDir, "v3.jsonl");
  const v4File = join(predDir, "v4.jsonl");
  // Whose stored answers v3 and v4 compose: the judge the v4 pass ran (explicit, not "most answers").
  const judgeArgs = ["--lane", judge.lane, "--model", judge.model];
  const regex = await step(`${name}: capture classifier (regex) over every exchange; v3 class questions of what it caught`, async () => {
    const r = await cli.json(["eval", "predictions", "--exchanges", exchangesFile, "--detectors", "regex", "--out", regexFile, "--json"]);
    const counts = r.value.counts.regex;
    log(`  regex flagged ${counts.flagged} of ${exchanges.length} exchanges (${counts.skip} skipped as not typed)`);
    const a = await cli.json(["v4", "v3", "--exchanges", exchangesFile, "--cuts", engineCuts, "--regex-caught", "--json"]);
    log(`  v4 v3 --regex-caught: ${a.value.eligible} eligible (composed failures and what the regex caught), asked ${a.value.asked} new, ${a.value.unscored} unscored`);
    return { counts };
  });
  T.regex = regex.counts;

  const sample = await step(`${name}: eval sample: the gold set`, async () =>
    (await cli.json(["eval", "sample", "--exchanges", exchangesFile, "--cuts", engineCuts, "--items", String(opts.items), "--failure-items", String(opts.failureItems), "--per-session", String(opts.perSession), "--seed", String(opts.seed), "--holdout-share", String(opts.holdoutShare), "--monte-carlo", String(opts.monteCarlo), "--json"])).value,
  );
  const gold = readJsonl(goldFile);
  T.sample = summariseSample(sample, gold, log);

  await step(`${name}: eval brief: the labellers' brief`, async () => {
    const r = await cli.json(["eval", "brief", "--out", join(work, "brief.md"), "--json"]);
    log(`  ${r.value.bytes} bytes written to ${cli.shown(r.value.out)}`);
  });

  const bankIds = dist.questions.bank.map((q) => q.id);
  const questions = sheetQuestions(bankIds).join(",");
  T.labels = await step(`${name}: eval label export / import: ${LABELERS.join(", ")} (sheets filled from the importers' rater labels)`, async () => {
    const index = raterIndex(labels);
    const classOfMode = new Map(dist.questions.modes.map((m) => [m.id, m.class_id]));
    const out = {};
    mkdirSync(join(work, "returned"), { recursive: true });
    for (const [k, l] of LABELERS.entries()) {
      const sheet = join(evalDir, "sheets", `${l}.csv`);
      await cli.json(["eval", "label", "export", "--labeler", l, "--exchanges", exchangesFile, "--questions", questions, "--out", sheet, "--json"]);
      const filled = fillSheet(readFileSync(sheet, "utf8"), k, { index, corpusOf, bankIds, classOfMode });
      const back = join(work, "returned", `${l}.csv`);
      writeFileSync(back, filled.csv);
      const r = await cli.json(["eval", "label", "import", back, "--labeler", l, "--questions", questions, "--json"]);
      if (r.value.imported !== filled.answers) throw new Error(`${l}: imported ${r.value.imported} labels, the sheet holds ${filled.answers} answers`);
      out[l] = { rows: filled.rows, answers: filled.answers, imported: r.value.imported, blankRows: filled.blankRows };
      log(`    ${l}: ${filled.rows} rows, ${r.value.imported} answers imported (= the answers written into the sheet), ${filled.blankRows} rows left empty with a note`);
    }
    return out;
  });

  T.agreement = await step(`${name}: eval agreement`, async () => {
    const qs = name === "ab-redial" ? "detect.unhappy,satisfaction" : "detect.unhappy,class";
    const r = await cli.json(["eval", "agreement", "--labels", labelsFile, "--gold", goldFile, "--questions", qs, "--seed", String(opts.seed), "--resamples", String(opts.resamples), "--json"]);
    for (const q of r.value.questions) log(`  ${q.question}: Fleiss ${fmt(q.fleissFixed?.value)} [${fmt(q.fleissFixed?.lower)}, ${fmt(q.fleissFixed?.upper)}] over ${q.items} items; majority ${q.majority?.majority}, ties ${q.majority?.tie}`);
    if (name === "synthetic") log("  (synthetic: the three sheets carry the generator's plan, one source: they agree by construction)");
    return r.value;
  });

  const cuts = await step(`${name}: calibrate cuts (fit side), diagnose under them, calibrate again`, async () => {
    // Two passes: the mode cuts can only be learnt once diagnose has asked the modes of the
    // exchanges the calibrated detect cut makes failures; detect's answers do not change, so
    // the second pass keeps its cut and adds the modes'.
    let candidate = null;
    let file = null;
    for (const pass of [1, 2]) {
      file = join(work, "candidates", pass === 1 ? "cuts-pass1.json" : "cuts.json");
      candidate = (await cli.json(["calibrate", "cuts", "--answers", answersFile, "--labels", labelsFile, "--gold", goldFile, "--out", file, "--json"])).value.candidate;
      const chosen = candidate.questions.filter((x) => x.kappa_cut);
      log(`  pass ${pass}: ${Object.keys(candidate.cuts).length} cuts (rule ${candidate.rule}): ${chosen.filter((q) => q.question.startsWith("detect.")).map((q) => `${q.question} ${fmt(q.kappa_cut.cut)} (fit kappa ${fmt(q.kappa_cut.kappa)})`).join(", ")}${chosen.some((q) => q.question.startsWith("mode.")) ? `; ${chosen.filter((q) => q.question.startsWith("mode.")).length} mode cuts` : ""}`);
      for (const stage of ["diagnose", "v3"]) {
        const a = await cli.json(["v4", stage, "--exchanges", exchangesFile, "--cuts", file, "--json"]);
        log(`    ${stage} under these cuts: ${a.value.eligible} eligible, asked ${a.value.asked} new`);
      }
    }
    return { file, candidate };
  });
  T.cuts = cuts.candidate;
  // v3 and v4 under the calibrated cuts, through `errata eval predictions` (runtime/jobs/v4/predictions.ts).
  const composed = {};
  for (const [d, file] of [["v3", v3File], ["v4", v4File]]) {
    const r = await cli.json(["eval", "predictions", "--exchanges", exchangesFile, "--cuts", cuts.file, "--detectors", d, ...judgeArgs, "--out", file, "--json"]);
    composed[d] = r.value.counts[d];
  }
  T.composed = composed;
  log(`  v4 under the cuts: ${composed.v4.detected} failures (${composed.v4.classNamed} with a class), ${composed.v4.unscored} unscored; v3: ${composed.v3.detected} caught, ${composed.v3.classNamed} with a class`);

  const combiner = await step(`${name}: combiner fit (fit side) and eval (holdout)`, async () => {
    const file = join(work, "candidates", "combiner.json");
    const common = ["--answers", answersFile, "--labels", labelsFile, "--gold", goldFile];
    const fit = await cli.call(["combiner", "fit", ...common, "--seed", String(opts.seed), "--out", file, "--json"], { allowed: [0, 2] });
    if (fit.code === 2) {
      // The one refusal that is about the data, not a fault: too little to fit either head on.
      if (!fit.err.includes("nothing to fit")) throw new StepError(`combiner fit exited 2`, { out: fit.out, err: fit.err });
      const reason = fit.err.replace(/^errata: /, "").trim();
      log(`  the Combiner cannot be fitted on this gold set: ${reason}`);
      log("  (it is left out of the score and of promote; ClassTier's second look reads v4's verdicts instead)");
      return { skipped: reason };
    }
    const predFile = join(predDir, "combiner.jsonl");
    const ev = await cli.json(["combiner", "eval", ...common, "--model", file, "--predictions", predFile, "--json"]);
    const c = JSON.parse(fit.out).combiner;
    log(`  detect head: ${c.detect ? `L2 ${c.detect.l2}, cut ${fmt(c.detect.cut)}` : "not fitted"}; class head: ${c.class ? `${c.class.classes.length} classes, L2 ${c.class.l2}` : "not fitted"}${c.notes?.length ? ` (${c.notes.join("; ")})` : ""}`);
    log(`  holdout: ${ev.value.items} items; detect log loss ${fmt(ev.value.detect?.log_loss)}, Brier ${fmt(ev.value.detect?.brier)}, ECE ${fmt(ev.value.detect?.ece)}${ev.value.class ? `; class accuracy given a gold failure ${fmt(ev.value.class.accuracy_given_gold_failure)} (${ev.value.class.n})` : ""}`);
    return { file, predFile, fit: c, eval: ev.value };
  });
  T.combiner = combiner.skipped ? { skipped: combiner.skipped } : { fit: combiner.fit, eval: combiner.eval };
  // What ClassTier's second look and the classtier detector read as "the detector".
  const detector = combiner.skipped ? { name: "v4", file: v4File } : { name: "combiner", file: combiner.predFile };

  const ct = await step(`${name}: classtier ask + eval --write (fit side)`, async () => {
    const goldIds = new Set(gold.map((g) => g.exchange_id));
    const goldExFile = writeJsonl(join(work, "classtier", "gold-exchanges.jsonl"), exchanges.filter((e) => goldIds.has(e.id)));
    const ask = await cli.json(["classtier", "ask", "--exchanges", goldExFile, "--json"]);
    log(`  classtier ask: ${JSON.stringify(ask.value.verdicts)} over ${ask.value.exchanges} gold exchanges on the ${ask.value.lane} lane (${ask.value.model}), cached in ${cli.shown(ask.value.cache)}`);
    const ev = await cli.json(["classtier", "eval", "--labels", labelsFile, "--gold", goldFile, "--answers", answersFile, ...(combiner.skipped ? [] : ["--combiner", combiner.file]), "--predictions", detector.file, "--detector", detector.name, "--write", "--json"]);
    const rec = ev.value.record;
    log(`  level ${rec.level}, second look ${rec.second_look ? "on" : "off"}: ${rec.reasons.join("; ")}`);
    return { ask: ask.value, record: rec };
  });
  T.classtier = ct;
  const levelFile = join(v4Dir, "classtier-level.json");
  const cache = readJsonl(join(v4Dir, "classtier.jsonl")).map((r) => ({ prompt_hash: r.prompt_hash, answer: r.answer }));
  const verdicts = dist.classtier.verdictsFromCache(cache, { questions: dist.classtier.classTierQuestions, promptHash: dist.classtier.classTierPromptHash });
  const goldIds = new Set(gold.map((g) => g.exchange_id));
  const ctPred = classTierPredictions({ detectorRows: readJsonl(detector.file).filter((p) => goldIds.has(p.exchange_id)), verdicts, level: readJson(levelFile) });
  const ctFile = writeJsonl(join(predDir, "classtier.jsonl"), ctPred.rows);
  T.classtierPredictions = ctPred.counts;

  const predictionFiles = combiner.skipped ? [regexFile, v3File, v4File, ctFile] : [regexFile, v3File, v4File, combiner.predFile, ctFile];
  T.detectors = predictionFiles.map((f) => readJsonl(f)[0]?.detector ?? "?");
  T.sameVerdicts = verdictOverlap(predictionFiles.map((f) => readJsonl(f)), gold);
  T.score = await step(`${name}: eval score --check on the holdout`, () => scoreStep({ cli, opts, goldFile, labelsFile, predictionFiles, detectors: T.detectors, log }));
  T.promote = await step(`${name}: promote`, async () => {
    const args = ["promote", "--predictions", ...predictionFiles, "--cuts", cuts.file, ...(combiner.skipped ? [] : ["--combiner", combiner.file]), "--classtier-level", levelFile, "--seed", String(opts.seed), "--resamples", String(opts.resamples)];
    const r = await cli.json([...args, "--json"], { allowed: [0, 1] });
    const text = await cli.call([...args, "--dry-run"], { allowed: [0, 1], quiet: true });
    const out = { exitCode: r.code, matchesCheck: r.code === T.score.exitCode, value: r.value, text: (text.out + text.err).trim() };
    log(`  promote exited ${r.code} (${r.code === 0 ? "promoted: wrote promoted.json" : "refused: wrote nothing"}); eval score --check exited ${T.score.exitCode}: ${out.matchesCheck ? "they agree" : "THEY DISAGREE"}`);
    for (const line of out.text.split("\n").slice(0, 12)) log(`    ${line}`);
    if (!out.matchesCheck) throw new Error("promote's exit code differs from eval score --check's on the same holdout");
    return out;
  });
  T.files = { ledger: ledgerDir, exchanges: exchangesFile, gold: goldFile, labels: labelsFile, predictions: predictionFiles, cuts: cuts.file, combiner: combiner.skipped ? null : combiner.file, classtierLevel: levelFile, brief: join(work, "brief.md"), promoted: join(ledgerDir, "promoted.json"), returned: join(work, "returned") };
  return T;
}

function fmt(x) {
  return x === null || x === undefined ? "—" : Number(x).toFixed(3);
}
