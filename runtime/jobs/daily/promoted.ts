import { answerTable } from "../../../composers/index.js";
import { classDistribution } from "../../../combiner/index.js";
import type { Engine } from "../../engine/index.js";
import { bank, questionById, v3ClassQuestions } from "../../../questions/index.js";
import type { Promoted } from "../../../schemas/promoted.js";
import type { Question } from "../../../schemas/question.js";
import type { ClassJudge } from "./enrich-embedded.js";

/**
 * The class judge the promoted configuration names: the Combiner's class head over the
 * engine's probabilities when `class_level` is `class_head`; otherwise (composer, or the
 * model judge, which needs the OpenAI lane and a matching prompt hash) the v3 single choice
 * stands in. Returns the judge and who it is.
 */
export function classHeadJudge(engine: Engine, caller: string, head: Pick<NonNullable<Promoted["heads"]["class"]>, "questions" | "classes" | "standardiser" | "W" | "b">): ClassJudge {
  const questions = head.questions.map((id) => questionById.get(id) ?? v3ClassQuestions.find((q) => q.id === id)).filter((q): q is Question => q !== undefined);
  const labeler = `class-head:${engine.lane}/${engine.model}`;
  return async (exchanges) => {
    const pairs = exchanges.flatMap((exchange) => questions.map((question) => ({ exchange, question })));
    const answers = pairs.length > 0 ? await engine.ask(pairs, { caller }) : [];
    const n = questions.length;
    return exchanges.map((_, i) => {
      const slice = answers.slice(i * n, (i + 1) * n);
      if (slice.some((a) => a.status !== "scored")) return { class: null, confidence: null, labeler };
      const top = classDistribution(head, answerTable(slice, [...bank, ...v3ClassQuestions]))[0];
      return top ? { class: top.cls, confidence: top.p, labeler } : { class: null, confidence: null, labeler };
    });
  };
}
