import type { Engine } from "../../engine/index.js";
import type { ScoredAnswer } from "../../../schemas/answer.js";
import type { Erratum } from "../../../schemas/erratum.js";
import type { Exchange } from "../../../schemas/exchange.js";
import { answerTable, v3Choice } from "../../../composers/index.js";
import { classOfQuestion, questionById, questionsInGroup, v3ClassQuestions } from "../../../questions/index.js";
import { classify } from "../../classifier/index.js";
import { erratumToExchange } from "./erratum-exchange.js";
import { calibratedCutsFor } from "../../engine/index.js";

/**
 * What the embedded engine can fill offline: how_upset (from the capture's frustration and
 * rating and the engine's P(detect.unhappy)) and the class (from a class judge: the
 * promoted class head or v3 judge when wired, else the most probable mode question's class).
 * Prose fields are left to the OpenAI lane.
 *
 * Example: frustration 2, P(unhappy) 0.93, best mode `mode.claimed_false_success` at 0.71 ->
 * `{how_upset: 2, class: "false_success", confidence: 0.71, sources: {how_upset:
 * "rule:frustration+engine", class: "engine-modes:embedded/…", confidence: "engine-modes:…"}}`.
 */
export interface EmbeddedFill {
  how_upset: number;
  class: string | null;
  confidence: number;
  sources: Record<string, string>;
}

export interface ClassVerdict {
  class: string | null;
  confidence: number | null;
  /** Who named it, e.g. "engine-modes:embedded/hashed-logreg-1". */
  labeler: string;
}

/** Names a v3 class for each exchange (same order); class null when it cannot. */
export type ClassJudge = (exchanges: readonly Exchange[]) => Promise<ClassVerdict[]>;

export interface EmbeddedEnricher {
  readonly model: string;
  fill(errata: readonly Erratum[]): Promise<Map<string, EmbeddedFill>>;
}

const COMPLAINT_KINDS = new Set(["complaint", "bug", "correction", "directive", "incident"]);

/**
 * how_upset 0-3 from what was counted at capture and the engine's P(unhappy); a documented
 * rule, not a model. `cut`: where P(unhappy) starts to count, the cut recorded with the
 * engine's weights for detect.unhappy when there is one (see `engineEnricher`), else 0.5.
 */
export function howUpsetRule(e: Pick<Erratum, "frustration" | "rating" | "kind">, pUnhappy: number | null, cut = 0.5): number {
  let v = e.frustration ?? 0;
  if (e.rating !== null) v = Math.max(v, e.rating <= 2 ? 3 : e.rating <= 4 ? 2 : e.rating <= 6 ? 1 : 0);
  if (COMPLAINT_KINDS.has(e.kind)) v = Math.max(v, 1);
  if (pUnhappy !== null) v = Math.max(v, pUnhappy >= Math.max(0.9, cut) ? 2 : pUnhappy >= cut ? 1 : 0);
  return Math.min(3, Math.max(0, Math.round(v)));
}

/** The default class judge: the class of the most probable mode question, when it reaches that mode's cut (recorded with the weights; else 0.5). */
export function modeArgmaxJudge(engine: Engine, caller: string): ClassJudge {
  const modes = questionsInGroup("mode");
  const cuts = calibratedCutsFor({ lane: engine.lane, model: engine.model })?.cuts ?? {};
  return async (exchanges) => {
    const pairs = exchanges.flatMap((exchange) => modes.map((question) => ({ exchange, question })));
    const answers = pairs.length > 0 ? await engine.ask(pairs, { caller }) : [];
    const labeler = `engine-modes:${engine.lane}/${engine.model}`;
    return exchanges.map((_, i) => {
      let best: ScoredAnswer | null = null;
      for (let j = 0; j < modes.length; j++) {
        const a = answers[i * modes.length + j];
        if (!a || a.status !== "scored") continue;
        if (best === null || best.p_yes < a.p_yes) best = a;
      }
      if (best === null) return { class: null, confidence: null, labeler };
      const p = best.p_yes;
      return { class: p >= (cuts[best.question_id] ?? 0.5) ? classOfQuestion(best.question_id) : null, confidence: p, labeler };
    });
  };
}

/**
 * The v3 single-choice judge (helper G's 14 `class.<id>` yes/no questions, argmax by
 * `v3Choice`): null when any of the 14 answers is missing or unscored, never a guess.
 */
export function v3Judge(engine: Engine, caller: string): ClassJudge {
  return async (exchanges) => {
    const pairs = exchanges.flatMap((exchange) => v3ClassQuestions.map((question) => ({ exchange, question })));
    const answers = pairs.length > 0 ? await engine.ask(pairs, { caller }) : [];
    const labeler = `v3:${engine.lane}/${engine.model}`;
    const n = v3ClassQuestions.length;
    return exchanges.map((_, i) => {
      const choice = v3Choice(answerTable(answers.slice(i * n, (i + 1) * n), v3ClassQuestions));
      return choice === null ? { class: null, confidence: null, labeler } : { class: choice.class_id, confidence: choice.p_yes, labeler };
    });
  };
}

export function engineEnricher(engine: Engine, opts: { caller: string; classJudge?: ClassJudge }): EmbeddedEnricher {
  const unhappy = questionById.get("detect.unhappy");
  const unhappyCut = calibratedCutsFor({ lane: engine.lane, model: engine.model })?.cuts["detect.unhappy"] ?? 0.5;
  const judge = opts.classJudge ?? modeArgmaxJudge(engine, opts.caller);
  const engineName = `${engine.lane}/${engine.model}`;
  return {
    model: engineName,
    async fill(errata) {
      const exchanges = errata.map(erratumToExchange);
      const pAnswers = unhappy && exchanges.length > 0 ? await engine.ask(exchanges.map((exchange) => ({ exchange, question: unhappy })), { caller: opts.caller }) : [];
      const classes = await judge(exchanges);
      const out = new Map<string, EmbeddedFill>();
      errata.forEach((e, i) => {
        const a = pAnswers[i];
        const p = a && a.status === "scored" ? a.p_yes : null;
        const c = classes[i] ?? { class: null, confidence: null, labeler: "none" };
        // A door that did not count frustration (a typed /er, an import): count it now, the same way the hook does.
        const counted = e.frustration ?? classify(e.complaint).frustration;
        out.set(e.id, {
          how_upset: howUpsetRule({ ...e, frustration: counted }, p, unhappyCut),
          class: c.class,
          confidence: c.confidence ?? 0,
          sources: {
            how_upset: p === null ? "rule:capture" : `rule:capture+${engineName}`,
            class: c.class === null ? "none" : c.labeler,
            confidence: c.confidence === null ? "none" : c.labeler,
          },
        });
      });
      return out;
    },
  };
}
