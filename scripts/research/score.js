// `errata eval score --check` on a track's holdout: once with --json for the figures and once
// as text for the docs (the two must exit alike). Exit 1 (a bar failed) is an outcome, not
// an error; any other code stops the loop.
export const DETECTORS = ["regex", "v3", "v4", "combiner", "classtier"];

export async function scoreStep({ cli, opts, goldFile, labelsFile, predictionFiles, detectors = DETECTORS, log }) {
  const args = ["eval", "score", "--predictions", ...predictionFiles, "--gold", goldFile, "--labels", labelsFile, "--detectors", detectors.join(","), "--labelers", "rater1,rater2,rater3", "--seed", String(opts.seed), "--resamples", String(opts.resamples), "--check"];
  const r = await cli.json([...args, "--json"], { allowed: [0, 1] });
  const text = await cli.call(args, { allowed: [0, 1], quiet: true });
  if (text.code !== r.code) throw new Error(`eval score --check exited ${r.code} with --json and ${text.code} without`);
  log(`  eval score --check exited ${r.code} (${r.code === 0 ? "every bar holds" : "a bar failed"}):`);
  for (const line of text.out.trim().split("\n")) log(`    ${line}`);
  return { exitCode: r.code, value: r.value, text: text.out.trim() };
}
