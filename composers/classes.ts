import { type ClassId, MODE_IDS, type ModeId, modeById } from "../questions/index.js";
import type { AnswerTable } from "./answer-table.js";
import { cutFor, type Cuts } from "./cuts.js";

/**
 * The class of a diagnosed failure from the mode answers. Each mode's margin is P(yes) minus
 * its cut. The primary class is the class of the mode with the largest margin (ties go to
 * the earlier mode in MODE_IDS), so a diagnosed failure always gets one of the 14 classes,
 * comparable with v3's single choice; `basis` says whether that mode passed its cut
 * ("cut") or only led the others ("argmax"). Secondary classes are the other classes with
 * a mode at or above its cut, by falling margin. Null when any mode answer is missing.
 *
 * Example: margins {stopped_short: +0.4, claimed_false_success: +0.1, rest < 0} →
 * `{primary_class: "incomplete_work", secondary_classes: ["false_success"], modes:
 * ["stopped_short", "claimed_false_success"], basis: "cut"}`.
 */
export interface ClassVerdict {
  primary_class: ClassId;
  secondary_classes: ClassId[];
  /** Modes at or above their cut, by falling margin. */
  modes: ModeId[];
  basis: "cut" | "argmax";
}

export const MODE_NEEDS: readonly string[] = MODE_IDS.map((m) => `mode.${m}`);

export function composeClasses(table: AnswerTable, cuts: Cuts): ClassVerdict | null {
  const scored: { mode: ModeId; margin: number; order: number }[] = [];
  for (const [order, mode] of MODE_IDS.entries()) {
    const id = `mode.${mode}`;
    const p = table.get(id);
    if (p === undefined || p === null || !Number.isFinite(p)) return null;
    scored.push({ mode, margin: p - cutFor(id, cuts), order });
  }
  scored.sort((a, b) => b.margin - a.margin || a.order - b.order);
  const top = scored[0];
  if (top === undefined) return null;
  const classOf = (m: ModeId): ClassId => (modeById.get(m) as { class_id: ClassId }).class_id;
  const passing = scored.filter((s) => s.margin >= 0).map((s) => s.mode);
  const primary = classOf(top.mode);
  const secondary: ClassId[] = [];
  for (const m of passing) {
    const c = classOf(m);
    if (c !== primary && !secondary.includes(c)) secondary.push(c);
  }
  return { primary_class: primary, secondary_classes: secondary, modes: passing, basis: top.margin >= 0 ? "cut" : "argmax" };
}
