import { modeById, type ClassId, type ModeId } from "../../../questions/index.js";
import type { Label } from "../../../schemas/label.js";

/**
 * UKP's corpus-native labels (Petrak et al., EMNLP 2023) as labels on bank and v3 questions,
 * per the evidence the taxonomy cites (`questions/taxonomy.ts`). Each rater's (annotation
 * slot's) code becomes that rater's yes/no answers:
 *
 * | UKP error type | mode | v3 class |
 * |---|---|---|
 * | E1 ignore question | unanswered_question | ignored_instruction |
 * | E2 ignore request | ignored_request | ignored_instruction |
 * | E3 ignore expectation | misread_intent ("missed an obvious expectation") | misunderstood_intent |
 * | E4 attribute error, E5 factually incorrect | invented_fact | fabrication |
 * | E6 topic transition error | off_topic | off_topic |
 * | E7 conversationality (repetition) | repeated_mistake | repeated_failure |
 * | E8 unclear intention | misread_intent | misunderstood_intent |
 * | E9 lack of sociality | bad_style_or_tone | style_or_tone |
 * | E10 lack of common sense | wrong_answer | incorrect_output |
 *
 * An error type is one choice among E1-E10, so a rater who chose E6 said no to the other
 * covered modes and classes; the modes UKP's codebook has no type for (broke_standing_rule,
 * claimed_false_success, stopped_short, risky_action_unasked, wrong_language,
 * offloaded_to_owner, unrequested_change) and their classes get no label: the rater was never
 * asked about them.
 *
 * User response types: UR4 (make aware with correction) → detect.correction, UR2 (repeat or
 * rephrase) → detect.repeat, UR5 (ask for clarification) → detect.confused; a rater's one
 * type is yes for its question and no for the other two (UR1 ignore and continue and UR3 make
 * aware without correction are no for all three).
 *
 * Not mapped: detect.unhappy, blame and cost. Every UKP exchange is a flagged feedback turn,
 * so those would be yes on every row: positives with no negatives from the same population
 * teach a model the corpus, not the construct.
 *
 * Example: `ukpBankLabels([{…, labeler: "ukp:a1", question: "ukp.error_type", value: "E6"}])`
 * → mode.off_topic true, the 7 other covered modes false, class.off_topic true, the 6 other
 * covered classes false, each by "ukp:a1" with origin "map:ukp-taxonomy/1".
 */
export const UKP_MAP_ID = "ukp-taxonomy/1";

export const UKP_ERROR_MODE: Readonly<Record<string, ModeId>> = {
  E1: "unanswered_question",
  E2: "ignored_request",
  E3: "misread_intent",
  E4: "invented_fact",
  E5: "invented_fact",
  E6: "off_topic",
  E7: "repeated_mistake",
  E8: "misread_intent",
  E9: "bad_style_or_tone",
  E10: "wrong_answer",
};

export const UKP_RESPONSE_QUESTION: Readonly<Record<string, string>> = { UR4: "detect.correction", UR2: "detect.repeat", UR5: "detect.confused" };

const classOf = (m: ModeId): ClassId => (modeById.get(m) as { class_id: ClassId }).class_id;
/** Modes and classes UKP's error types cover, in a fixed order. */
export const UKP_MODES: readonly ModeId[] = [...new Set(Object.values(UKP_ERROR_MODE))].sort();
export const UKP_CLASSES: readonly ClassId[] = [...new Set(UKP_MODES.map(classOf))].sort();
const RESPONSE_QUESTIONS = [...new Set(Object.values(UKP_RESPONSE_QUESTION))].sort();

/** The bank and class labels UKP's native labels imply (the native rows are not repeated). */
export function ukpBankLabels(labels: readonly Label[]): Label[] {
  const out: Label[] = [];
  const add = (l: Label, question: string, value: boolean): void => {
    out.push({ schema: "label/1", exchange_id: l.exchange_id, labeler: l.labeler, question, value, origin: `map:${UKP_MAP_ID}` });
  };
  for (const l of labels) {
    if (typeof l.value !== "string") continue;
    if (l.question === "ukp.error_type") {
      const mode = UKP_ERROR_MODE[l.value];
      if (mode === undefined) continue;
      for (const m of UKP_MODES) add(l, `mode.${m}`, m === mode);
      for (const c of UKP_CLASSES) add(l, `class.${c}`, c === classOf(mode));
    } else if (l.question === "ukp.user_response_type" && /^UR[1-5]$/.test(l.value)) {
      const yes = UKP_RESPONSE_QUESTION[l.value];
      for (const q of RESPONSE_QUESTIONS) add(l, q, q === yes);
    }
  }
  return out;
}

/** Whether a label set carries UKP's native labels (and so gets the mapping). */
export function hasUkpLabels(labels: readonly Label[]): boolean {
  return labels.some((l) => l.question === "ukp.error_type" || l.question === "ukp.user_response_type");
}
