import type { Question } from "../schemas/question.js";
import { hashBank } from "./hash.js";
import { classes, modes } from "./taxonomy.js";

/**
 * The v3 single-choice judge, asked through the yes/no engine: one question per v3 class
 * ("class.<class id>"), and the choice is the argmax of P(yes) over the 14 (see
 * composers/v3-choice.ts). Yes/no rather than one multiple-choice prompt so that every lane
 * (the embedded one included) can answer it and P(yes) stays comparable across classes.
 * These are not in the noul bank (the bank holds only detect, blame, mode and cost); they
 * carry group "mode" because that is the nearest of the four shared groups, and
 * `maps_to_class` names their class. Their own hash is `v3Hash`.
 *
 * Example: `v3ClassQuestions[0].id` → `"class.ignored_instruction"`.
 */
export const v3ClassQuestions: readonly Question[] = classes.map((c) => {
  // Every class has at least one mode (tested), whose example and counterexample are the second pair.
  const mode = modes.find((m) => m.class_id === c.id);
  return {
    id: `class.${c.id}`,
    version: 1,
    group: "mode" as const,
    text: `Assuming the assistant failed the person here, is this the best description of the failure: ${c.name.toLowerCase()} (${c.definition})`,
    guidance: `${c.definition} Only one class is chosen per failure: the one that fits best.`,
    positive: [c.example, mode?.example ?? c.example],
    negative: [c.counterexample, mode?.counterexample ?? c.counterexample],
    maps_to_class: c.id,
  };
});

export const v3Hash: string = hashBank(v3ClassQuestions);
