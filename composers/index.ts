import type { ClassId, ModeId } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import { composeClasses } from "./classes.js";
import type { Cuts } from "./cuts.js";
import { type BlameKind, composeDetect, type ReactionKind } from "./detect.js";
import { composeSeverity, type Severity } from "./severity.js";

/**
 * The whole composition for one exchange: is_failure, defect, blame, the primary class among
 * the 14 and secondary classes, the modes that fired, severity 0-3. Null when the answer
 * is_failure needs (`detect.unhappy`) is missing or unscored; otherwise each field that an
 * answer it needs is missing for is null on its own (defect without blame.assistant; the
 * classes without all 15 mode answers; severity when the missing cost answers could change
 * it). Never a guess. A non-failure needs no diagnosis: no class, no modes, severity 0.
 *
 * Example: a defect with modes {stopped_short} and cost {lost_time} yes →
 * `{is_failure: true, defect: true, reaction: [], blame: ["assistant"], primary_class:
 * "incomplete_work", secondary_classes: [], modes: ["stopped_short"], class_basis: "cut",
 * severity: 2}`.
 */
export interface Composition {
  is_failure: boolean;
  defect: boolean | null;
  reaction: ReactionKind[];
  blame: BlameKind[];
  primary_class: ClassId | null;
  secondary_classes: ClassId[] | null;
  modes: ModeId[] | null;
  class_basis: "cut" | "argmax" | null;
  severity: Severity | null;
}

export function compose(table: AnswerTable, cuts: Cuts): Composition | null {
  const d = composeDetect(table, cuts);
  if (d === null) return null;
  const base = { is_failure: d.is_failure, defect: d.defect, reaction: d.reaction, blame: d.blame };
  if (!d.is_failure) return { ...base, primary_class: null, secondary_classes: [], modes: [], class_basis: null, severity: 0 };
  const c = composeClasses(table, cuts);
  return {
    ...base,
    primary_class: c?.primary_class ?? null,
    secondary_classes: c?.secondary_classes ?? null,
    modes: c?.modes ?? null,
    class_basis: c?.basis ?? null,
    severity: composeSeverity(table, cuts),
  };
}

export { answerTable, type AnswerTable } from "./answer-table.js";
export { composeClasses, MODE_NEEDS, type ClassVerdict } from "./classes.js";
export { cutFor, DEFAULT_CUT, isYes, parseCuts, type Cuts, type ParsedCuts } from "./cuts.js";
export { composeDetect, DETECT_NEEDS, type BlameKind, type DetectVerdict, type ReactionKind } from "./detect.js";
export { composeSeverity, type Severity } from "./severity.js";
export { and, not, or, tri, type Tri } from "./tri.js";
export { v3Choice } from "./v3-choice.js";
