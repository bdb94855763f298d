import type { Cuts } from "../../../composers/index.js";
import { calibratedCutsFor, DEFAULT_CUTS_ORIGIN, type CutsWithOrigin } from "../../engine/index.js";
import type { JudgeId } from "./ask.js";

/**
 * Which cuts compose a judge's answers, and where they came from: a cuts file, else the
 * promoted configuration's cuts, else the cuts recorded with the judge's weights (the
 * embedded lane's calibrated kappa cuts, only for answers of that very model), else the
 * composers' default 0.5. Every report prints `origin`.
 *
 * Example: `resolveCuts({judge: {lane: "embedded", model: shippedId}})` -> `{cuts: {"detect.unhappy":
 * 0.27, …}, origin: "calibrated with the weights hashed-logreg/… (training-side kappa cut per question)"}`.
 */
export function resolveCuts(opts: { file?: CutsWithOrigin | null | undefined; promoted?: Cuts | null | undefined; judge: JudgeId | null }): CutsWithOrigin {
  if (opts.file) return opts.file;
  if (opts.promoted && Object.keys(opts.promoted).length > 0) return { cuts: opts.promoted, origin: "the promoted configuration's cuts (promoted.json)" };
  return calibratedCutsFor(opts.judge) ?? { cuts: {}, origin: DEFAULT_CUTS_ORIGIN };
}
