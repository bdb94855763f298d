import { BLAME_IDS, DETECT_IDS } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import { cutFor, type Cuts, isYes } from "./cuts.js";

export type BlameKind = "assistant" | "world" | "change_of_mind" | "host";

/**
 * Detect and blame composed: the owner reacts to something (any detect question yes); it is
 * a failure unless the only cause named is the owner's own change of mind; it is a defect of
 * the assistant when blame.assistant is yes as well.
 */
export interface DetectVerdict {
  reacting: boolean;
  is_failure: boolean;
  defect: boolean;
  /** Every cause answered yes, in bank order. */
  blame: BlameKind[];
}

/** The answers `composeDetect` needs; any of them missing or unscored gives null. */
export const DETECT_NEEDS: readonly string[] = [...DETECT_IDS, ...BLAME_IDS];

/**
 * Example: `composeDetect(new Map([["detect.unhappy", 0.9], ["detect.correction", 0.7],
 * ["detect.repeat", 0.1], ["detect.confused", 0.1], ["blame.assistant", 0.8],
 * ["blame.world", 0.1], ["blame.change_of_mind", 0.2], ["blame.host", 0.0]]), {})` →
 * `{reacting: true, is_failure: true, defect: true, blame: ["assistant"]}`; with
 * "blame.host" absent → null.
 */
export function composeDetect(table: AnswerTable, cuts: Cuts): DetectVerdict | null {
  const yes = yesMap(table, DETECT_NEEDS, cuts);
  if (yes === null) return null;
  const reacting = DETECT_IDS.some((id) => yes.get(id) === true);
  const blame = BLAME_IDS.filter((id) => yes.get(id) === true).map((id) => id.slice("blame.".length) as BlameKind);
  const onlyChangeOfMind = blame.length === 1 && blame[0] === "change_of_mind";
  const is_failure = reacting && !onlyChangeOfMind;
  return { reacting, is_failure, defect: is_failure && blame.includes("assistant"), blame };
}

/** yes/no per needed question under the cuts, or null when any needed answer is missing. */
export function yesMap(table: AnswerTable, needs: readonly string[], cuts: Cuts): Map<string, boolean> | null {
  const out = new Map<string, boolean>();
  for (const id of needs) {
    const p = table.get(id);
    if (p === undefined || p === null || !Number.isFinite(p)) return null;
    out.set(id, isYes(p, cutFor(id, cuts)));
  }
  return out;
}
