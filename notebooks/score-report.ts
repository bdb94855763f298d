import { badInput } from "../core/errors.js";
import type { ScoreReport } from "../eval/index.js";
import { jsonValue, type InputSpec, type ReadInput } from "./inputs.js";

/**
 * The score report both the detectors and the corpus-rate notebooks read: what `errata eval
 * score --json` prints (a ScoreReport and the check, if any). Bundled: the AB-ReDial holdout
 * of the research loop (`npm run research`; notebooks/data/README.md says how it was made).
 */
export type ScoreReply = Omit<ScoreReport, "figures"> & { gold?: string; check?: { pass: boolean; bars: { id: string; pass: boolean }[] } | null };

export const scoreInput = (notebook: string): InputSpec => ({
  notebook,
  key: "score",
  what: "score report (JSON)",
  bundled: "notebooks/data/score-ab-redial.json",
  make: "errata eval score --predictions <predictions.jsonl ...> --json > score.json (npm run research writes one per track)",
});

export function readScore(input: ReadInput): ScoreReply {
  const v = jsonValue(input) as Partial<ScoreReply>;
  if (!Array.isArray(v.detectors) || typeof v.scored !== "number" || v.bootstrap === undefined) {
    throw badInput(`${input.shown} is not a score report`, "the JSON errata eval score --json prints (detectors, scored, bootstrap)", `keys ${Object.keys(v).slice(0, 6).join(", ")}`);
  }
  return v as ScoreReply;
}
