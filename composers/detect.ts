import { BLAME_IDS, DETECT_IDS } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import type { Cuts } from "./cuts.js";
import { and, not, or, tri } from "./tri.js";

export type BlameKind = "assistant" | "world" | "change_of_mind" | "host";

/**
 * Detect and blame composed. The owner is reacting when any detect question is yes. It is a
 * failure unless the only cause named is the owner's own change of mind (change_of_mind yes,
 * assistant, world and host all no). It is a defect of the assistant when blame.assistant
 * is yes as well. Three-valued (see tri.ts): null when a missing answer could change
 * is_failure or defect.
 */
export interface DetectVerdict {
  /** Any detect question yes; null when unknown (possible only for a verdict of no failure). */
  reacting: boolean | null;
  is_failure: boolean;
  defect: boolean;
  /** Causes answered yes, in bank order (a cause whose answer is missing is not listed). */
  blame: BlameKind[];
  /** Detect and blame questions whose answers were missing but not needed for this verdict. */
  unanswered: string[];
}

/** Every answer `composeDetect` may need. */
export const DETECT_NEEDS: readonly string[] = [...DETECT_IDS, ...BLAME_IDS];

/**
 * Example: `composeDetect(new Map([["detect.unhappy", 0.9], ["detect.correction", 0.7],
 * ["detect.repeat", 0.1], ["detect.confused", 0.1], ["blame.assistant", 0.8],
 * ["blame.world", 0.1], ["blame.change_of_mind", 0.2], ["blame.host", 0.0]]), {})` →
 * `{reacting: true, is_failure: true, defect: true, blame: ["assistant"], unanswered: []}`.
 * With only `detect.unhappy` (0.9) and `blame.assistant` (0.8) answered: the same verdict
 * (neither missing answer can change it). With `blame.assistant` missing too → null.
 */
export function composeDetect(table: AnswerTable, cuts: Cuts): DetectVerdict | null {
  const reacting = or(DETECT_IDS.map((id) => tri(table, id, cuts)));
  const [assistant, world, changeOfMind, host] = BLAME_IDS.map((id) => tri(table, id, cuts)) as [
    boolean | null,
    boolean | null,
    boolean | null,
    boolean | null,
  ];
  const onlyChangeOfMind = and([changeOfMind, not(or([assistant, world, host]))]);
  const isFailure = and([reacting, not(onlyChangeOfMind)]);
  const defect = and([isFailure, assistant]);
  if (isFailure === null || defect === null) return null;
  const blame = BLAME_IDS.filter((id) => tri(table, id, cuts) === true).map((id) => id.slice("blame.".length) as BlameKind);
  const unanswered = DETECT_NEEDS.filter((id) => tri(table, id, cuts) === null);
  return { reacting, is_failure: isFailure, defect, blame, unanswered };
}
