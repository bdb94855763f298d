// `errata eval score --check` on a track's holdout: once with --json for the figures and once
// as text for the docs (the two must exit alike). Exit 1 (a bar failed) is an outcome, not
// an error; any other code stops the loop.
import { type CliRunner, StepError } from "./cli.js";
import type { ScoreReply } from "./replies.js";
import type { ResearchOptions, ScoreStep } from "./summary.js";

export const DETECTORS = ["regex", "v3", "v4", "combiner", "classtier"] as const;

export async function scoreStep({ cli, opts, goldFile, labelsFile, predictionFiles, detectors = DETECTORS, log }: {
  cli: CliRunner;
  opts: Pick<ResearchOptions, "seed" | "resamples">;
  goldFile: string;
  labelsFile: string;
  predictionFiles: readonly string[];
  detectors?: readonly string[];
  log: (line: string) => void;
}): Promise<ScoreStep> {
  const args = ["eval", "score", "--predictions", ...predictionFiles, "--gold", goldFile, "--labels", labelsFile, "--detectors", detectors.join(","), "--labelers", "rater1,rater2,rater3", "--seed", String(opts.seed), "--resamples", String(opts.resamples), "--check"];
  const r = await cli.json<ScoreReply>([...args, "--json"], { allowed: [0, 1] });
  const text = await cli.call(args, { allowed: [0, 1], quiet: true });
  if (text.code !== r.code) throw new StepError("INCONSISTENT", `eval score --check exited ${r.code} with --json and ${text.code} without`);
  const check = r.value.check;
  if (check === null) throw new StepError("INCONSISTENT", "eval score --check printed no check (expected the bars it judged, found check: null)");
  log(`  eval score --check exited ${r.code} (${r.code === 0 ? "every bar holds" : "a bar failed"}):`);
  for (const line of text.out.trim().split("\n")) log(`    ${line}`);
  return { exitCode: r.code, value: { ...r.value, check }, text: text.out.trim() };
}
