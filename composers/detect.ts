import { BLAME_IDS, DETECT_IDS } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import type { Cuts } from "./cuts.js";
import { and, tri } from "./tri.js";

export type BlameKind = "assistant" | "world" | "change_of_mind" | "host";
export type ReactionKind = "correction" | "repeat" | "confused";

/**
 * Detect and blame composed, field by field, each null when an answer it needs is missing
 * (three-valued, see tri.ts; never a guess):
 * - `is_failure`: `detect.unhappy` is yes: the owner is reacting to something that went
 *   wrong. This is the question corpus dissatisfaction labels map onto, so the rule can be
 *   measured on real data; the whole verdict is null when it is missing.
 * - `reaction`: how the owner reacts (UKP user-response types): the other detect questions
 *   answered yes. Descriptive; learned heads (combiner/) may use them for detection.
 * - `defect`: a failure the assistant caused: is_failure and `blame.assistant` (false for a
 *   non-failure; null for a failure whose blame.assistant answer is missing).
 * - `blame`: every cause answered yes (the outside world, a change of mind and the host's
 *   machinery are failures the assistant did not cause).
 */
export interface DetectVerdict {
  is_failure: boolean;
  defect: boolean | null;
  reaction: ReactionKind[];
  blame: BlameKind[];
  /** Detect and blame questions whose answers are missing or unscored. */
  unanswered: string[];
}

/** Every answer `composeDetect` reads; only `detect.unhappy` is needed for a verdict. */
export const DETECT_NEEDS: readonly string[] = [...DETECT_IDS, ...BLAME_IDS];

/**
 * Example: `composeDetect(new Map([["detect.unhappy", 0.9], ["detect.correction", 0.7],
 * ["blame.assistant", 0.8]]), {})` → `{is_failure: true, defect: true, reaction:
 * ["correction"], blame: ["assistant"], unanswered: ["detect.repeat", "detect.confused",
 * "blame.world", "blame.change_of_mind", "blame.host"]}`; without "blame.assistant" the same
 * with `defect: null`; without "detect.unhappy" → null.
 */
export function composeDetect(table: AnswerTable, cuts: Cuts): DetectVerdict | null {
  const unhappy = tri(table, "detect.unhappy", cuts);
  if (unhappy === null) return null;
  const defect = and([unhappy, tri(table, "blame.assistant", cuts)]);
  const yes = (id: string): boolean => tri(table, id, cuts) === true;
  return {
    is_failure: unhappy,
    defect,
    reaction: DETECT_IDS.filter((id) => id !== "detect.unhappy" && yes(id)).map((id) => id.slice("detect.".length) as ReactionKind),
    blame: BLAME_IDS.filter(yes).map((id) => id.slice("blame.".length) as BlameKind),
    unanswered: DETECT_NEEDS.filter((id) => tri(table, id, cuts) === null),
  };
}
