import { hashBank } from "../questions/index.js";
import { classes, type ClassId } from "../questions/index.js";
import type { Question } from "../schemas/question.js";

/**
 * The ClassTier prompt: the model judge is asked, for each v3 class, whether the assistant
 * failed the person in that way. Unlike v3's class questions (which assume a failure and pick
 * the best description), these do not presume a failure, so the same answers serve the second
 * look: an exchange the detector passed is flagged when the judge names any class. Yes/no
 * through the engine, so every lane can answer and P(yes) is comparable across classes.
 *
 * The prompt hash is the hash of these questions (ids, versions, texts); the runtime uses
 * the model judge only while the recorded hash equals `classTierPromptHash`.
 *
 * Example: classTierQuestions[0].id → "classtier.ignored_instruction".
 */
export const CLASSTIER_PREFIX = "classtier.";

export function classTierQuestionsFrom(list: readonly { id: ClassId | string; name: string; definition: string }[]): Question[] {
  return list.map((c) => {
    const source = classes.find((k) => k.id === c.id);
    return {
      id: `${CLASSTIER_PREFIX}${c.id}`,
      version: 1,
      group: "mode" as const,
      text: `Did the assistant fail the person here in this way: ${c.name.toLowerCase()}? (${c.definition}) Answer no if the assistant did not fail the person, or failed in another way.`,
      guidance: `${c.definition} Several classes may be yes; none is yes when the reply did not fail the person.`,
      positive: source ? [source.example, source.example] : [{ reply_end: null, prompt: "(none)" }, { reply_end: null, prompt: "(none)" }],
      negative: source ? [source.counterexample, source.counterexample] : [{ reply_end: null, prompt: "(none)" }, { reply_end: null, prompt: "(none)" }],
      maps_to_class: String(c.id),
    };
  });
}

export const classTierQuestions: readonly Question[] = classTierQuestionsFrom(classes);

export function promptHashOf(questions: readonly Question[]): string {
  return hashBank(questions);
}

export const classTierPromptHash: string = promptHashOf(classTierQuestions);
