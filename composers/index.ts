import type { ClassId, ModeId } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import { composeClasses } from "./classes.js";
import type { Cuts } from "./cuts.js";
import { type BlameKind, composeDetect } from "./detect.js";
import { composeSeverity, type Severity } from "./severity.js";

/**
 * The whole composition for one exchange: is_failure, defect, blame, the primary class among
 * the 14 and secondary classes, the modes that fired, severity 0-3. Null when an answer it
 * needs is missing or unscored: detect and blame always; mode and cost only for a failure.
 * Never a guess. A non-failure needs no diagnosis: class null, severity 0.
 *
 * Example: a defect with modes {stopped_short} and cost {lost_time} yes →
 * `{is_failure: true, defect: true, blame: ["assistant"], primary_class: "incomplete_work",
 * secondary_classes: [], modes: ["stopped_short"], class_basis: "cut", severity: 2}`.
 */
export interface Composition {
  is_failure: boolean;
  defect: boolean;
  blame: BlameKind[];
  primary_class: ClassId | null;
  secondary_classes: ClassId[];
  modes: ModeId[];
  class_basis: "cut" | "argmax" | null;
  severity: Severity;
}

export function compose(table: AnswerTable, cuts: Cuts): Composition | null {
  const d = composeDetect(table, cuts);
  if (d === null) return null;
  if (!d.is_failure)
    return { is_failure: false, defect: false, blame: d.blame, primary_class: null, secondary_classes: [], modes: [], class_basis: null, severity: 0 };
  const c = composeClasses(table, cuts);
  const severity = composeSeverity(table, cuts);
  if (c === null || severity === null) return null;
  return {
    is_failure: true,
    defect: d.defect,
    blame: d.blame,
    primary_class: c.primary_class,
    secondary_classes: c.secondary_classes,
    modes: c.modes,
    class_basis: c.basis,
    severity,
  };
}

export { answerTable, type AnswerTable } from "./answer-table.js";
export { composeClasses, MODE_NEEDS, type ClassVerdict } from "./classes.js";
export { cutFor, DEFAULT_CUT, isYes, parseCuts, type Cuts, type ParsedCuts } from "./cuts.js";
export { composeDetect, DETECT_NEEDS, type BlameKind, type DetectVerdict } from "./detect.js";
export { composeSeverity, type Severity } from "./severity.js";
export { and, not, or, tri, type Tri } from "./tri.js";
export { v3Choice } from "./v3-choice.js";
