#!/usr/bin/env node
// The whole research loop on the bundled labelled data, offline, through the CLI in process:
// corpus -> exchanges -> engine -> v4 detect/diagnose (shadow) -> eval sample -> eval brief
// -> three blind sheets, filled from the importers' rater labels, imported -> agreement ->
// calibrate cuts -> combiner fit -> classtier eval --write -> eval score --check (holdout)
// -> promote, once per corpus (AB-ReDial's human raters; the synthetic sessions' plan), each
// in its own ledger folder. Writes research-loop.md (the comparison, the bars, what promote
// said) and summary.json (every figure, as the CLI printed it) into an output folder, and
// over the tracked docs/research-loop.md only with --write-docs.
//
// Compiled with the rest (tsconfig.json) to dist/scripts/research.js:
//   npm run research -- [flags]            (builds first)
//   node dist/scripts/research.js --help   (every flag, with examples)
// Exit 0 when the loop ran (whether or not the bars held: a refused promotion is an honest
// outcome and is printed); 2 when a step failed unexpectedly or the input is bad.
import { runResearch } from "./research/run.js";

process.exitCode = await runResearch(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
  now: () => Date.now(),
});
