#!/usr/bin/env node
// The whole research loop on the bundled labelled data, offline, through the compiled CLI:
// corpus -> exchanges -> engine -> v4 detect/diagnose (shadow) -> eval sample -> eval brief
// -> three blind sheets, filled from the importers' rater labels, imported -> agreement ->
// calibrate cuts -> combiner fit -> classtier eval --write -> eval score --check (holdout)
// -> promote, once per corpus (AB-ReDial's human raters; the synthetic sessions' plan), each
// in its own ledger folder. Writes docs/research-loop.md (the comparison, the bars, what
// promote said) and <folder>/summary.json (every figure, as the CLI printed it).
//
// Usage (after `npx tsc -p tsconfig.json`):
//   node scripts/research.js [--dir DIR] [--seed 1] [--corpora ab-redial,synthetic]
//     [--synthetic-sessions 300] [--sessions N] [--items 300] [--failure-items 180]
//     [--per-session 3] [--resamples 2000] [--engine train|shipped] [--engine-share 0.5] [--doc FILE | --no-doc]
//     [--summary FILE] [--render SUMMARY]
// Exit 0 when the loop ran (whether or not the bars held: a refused promotion is an honest
// outcome and is printed); 2 when a step failed unexpectedly or the input is bad.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { runLoop } from "./research/loop.js";
import { renderDoc } from "./research/report.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const DEFAULTS = {
  seed: 1,
  corpora: ["ab-redial", "synthetic"],
  syntheticSeed: 7,
  syntheticSessions: 300,
  sessions: 0,
  items: 300,
  failureItems: 180,
  perSession: 3,
  holdoutShare: 0.5,
  resamples: 2000,
  monteCarlo: 500,
  engine: "train",
  engineShare: 0.5,
};

function usage(msg) {
  process.stderr.write(`research: ${msg}\nusage: node scripts/research.js [--dir DIR] [--seed N] [--corpora a,b] [--synthetic-sessions N] [--sessions N] [--items N] [--failure-items N] [--per-session K] [--resamples N] [--engine train|shipped] [--engine-share X] [--doc FILE | --no-doc] [--summary FILE]\n`);
  process.exit(2);
}

export function parseArgs(argv) {
  const o = { ...DEFAULTS, doc: join(repoRoot, "docs", "research-loop.md"), dir: null, summary: null };
  const int = (name, v, min) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) usage(`${name} must be a whole number >= ${min}, found ${JSON.stringify(v)}`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === "--dir") o.dir = resolve(next());
    else if (a === "--seed") o.seed = int(a, next(), 0);
    else if (a === "--corpora") o.corpora = next().split(",").filter(Boolean);
    else if (a === "--synthetic-sessions") o.syntheticSessions = int(a, next(), 1);
    else if (a === "--synthetic-seed") o.syntheticSeed = int(a, next(), 0);
    else if (a === "--sessions") o.sessions = int(a, next(), 1);
    else if (a === "--items") o.items = int(a, next(), 1);
    else if (a === "--failure-items") o.failureItems = int(a, next(), 0);
    else if (a === "--per-session") o.perSession = int(a, next(), 2);
    else if (a === "--resamples") o.resamples = int(a, next(), 2000);
    else if (a === "--monte-carlo") o.monteCarlo = int(a, next(), 1);
    else if (a === "--engine") o.engine = ["train", "shipped"].includes((o.engine = next())) ? o.engine : usage(`--engine is train or shipped, found ${o.engine}`);
    else if (a === "--engine-share") {
      o.engineShare = Number(next());
      if (!(o.engineShare > 0 && o.engineShare < 1)) usage("--engine-share must be between 0 and 1");
    }
    else if (a === "--doc") o.doc = resolve(next());
    else if (a === "--no-doc") o.doc = null;
    else if (a === "--summary") o.summary = resolve(next());
    else if (a === "--render") o.render = resolve(next());
    else if (a === "--help" || a === "-h") {
      process.stdout.write(readHelp());
      process.exit(0);
    } else usage(`unknown option ${a}`);
  }
  return o;
}

function readHelp() {
  return [
    "node scripts/research.js: the whole research loop on the bundled labelled data, offline (docs/research-loop.md)",
    "  --dir DIR               an empty folder for the ledgers and files (default: a new temporary folder, kept)",
    "  --seed N                gold draw, bootstrap and Combiner folds (default 1)",
    "  --corpora a,b           ab-redial and/or synthetic (default both; each is its own track)",
    "  --synthetic-sessions N  sessions the seed-7 generator writes (default 300; 60 = the bundled datasets/synthetic)",
    "  --sessions N            keep only the first N sessions of each corpus (a quick run)",
    "  --items N --failure-items M --per-session K   the gold draw (default 300, 180, 3)",
    "  --resamples N           bootstrap resamples, at least 2000 (default 2000)",
    "  --engine train|shipped  train the embedded lane on its own part of the sessions (default) or use the shipped weights",
    "  --engine-share X        share of sessions the engine trains on; the loop runs on the rest (default 0.5)",
    "  --doc FILE | --no-doc   where to write the page (default docs/research-loop.md)",
    "  --summary FILE          where to write summary.json (default <dir>/summary.json)",
    "  --render SUMMARY        only re-render the page from a summary.json an earlier run wrote (no loop)",
    "Exit 0: the loop ran (a refused promotion is an outcome); 2: a step failed or bad input.",
    "",
  ].join("\n");
}

async function main() {
  const argv = process.argv.slice(2);
  const opts = parseArgs(argv);
  if (opts.render) {
    const doc = renderDoc(JSON.parse(readFileSync(opts.render, "utf8")));
    if (opts.doc) writeFileSync(opts.doc, doc.markdown);
    process.stdout.write(`${doc.summaryText}\n${opts.doc ? `wrote ${opts.doc}\n` : ""}`);
    return;
  }
  if (opts.dir) {
    mkdirSync(opts.dir, { recursive: true });
    if (readdirSync(opts.dir).length > 0) usage(`--dir ${opts.dir} is not empty: the loop needs a fresh folder`);
  } else opts.dir = mkdtempSync(join(tmpdir(), "errata-research-"));
  opts.sharedDatasets = process.env.ERRATA_SHARED_DATASETS ?? resolve(repoRoot, "../shared/datasets");
  const started = new Date();
  const command = `node scripts/research.js${argv.length ? ` ${argv.join(" ")}` : ""}`;
  const log = (line) => process.stdout.write(`${line}\n`);
  log(`research loop: ${command}`);
  log(`folder ${opts.dir} (one ledger per corpus: <folder>/<corpus>/ledger); seed ${opts.seed}; engine ${opts.engine}; ${started.toISOString()}`);
  let summary;
  try {
    summary = await runLoop(opts, { repoRoot, log });
  } catch (err) {
    process.stderr.write(`\nresearch: the loop stopped: ${err?.message ?? err}\n`);
    if (err?.detail) process.stderr.write(`--- stdout ---\n${err.detail.out}\n--- stderr ---\n${err.detail.err}\n`);
    else if (err?.stack) process.stderr.write(`${err.stack}\n`);
    process.exitCode = 2;
    return;
  }
  summary.meta = { command, seed: opts.seed, date: started.toISOString(), seconds: Math.round((Date.now() - started.getTime()) / 1000), node: process.version, options: { ...opts, sharedDatasets: undefined } };
  const summaryFile = opts.summary ?? join(opts.dir, "summary.json");
  writeFileSync(summaryFile, JSON.stringify(summary, null, 2) + "\n");
  const doc = renderDoc(summary);
  log(`\n${doc.summaryText}`);
  if (opts.doc) {
    writeFileSync(opts.doc, doc.markdown);
    log(`wrote ${opts.doc}`);
  }
  log(`summary: ${summaryFile}`);
}

await main();
