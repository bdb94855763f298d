import { BLAME_IDS, COST_IDS, DETECT_IDS, modeById, MODE_IDS, type ModeId } from "../../../questions/index.js";
import { CLASS_IDS } from "../../../questions/index.js";

/**
 * What the generator planted at one typed prompt, and the complete labels it implies: every
 * bank question (4 detect, 4 blame, 15 mode, 3 cost) gets a yes or a no on every exchange, and
 * the 14 v3 class questions get one on every planted failure of the assistant (true for the
 * planted mode's class, false for the other 13). The class questions presuppose a failure
 * ("Assuming the assistant failed the person here…"), so exchanges without one carry none.
 *
 * The values are the plan's, judged once per template (see `episodes.ts` for the reactions'
 * detect flags and `MODE_COST` below), not by people: they are SYNTHETIC labels.
 *
 * Example: `plannedLabels({kind: "failure", mode: "claimed_false_success", reaction: {correction: true, repeat: false, confused: false}})`
 * → detect.unhappy true, detect.correction true, blame.assistant true, mode.claimed_false_success
 * true and the 14 other modes false, cost.lost_time true, cost.blocked true, cost.risky false,
 * class.false_success true and the 13 other classes false.
 */

/** How the owner's prompt reacts to the reply before it (the detect questions other than unhappy). */
export interface ReactionFlags {
  correction: boolean;
  repeat: boolean;
  confused: boolean;
}

export type Scenario =
  /** Nothing went wrong in the reply before this prompt. */
  | { kind: "clean" }
  /** Nothing went wrong; the owner changes their own plan ("Actually, …"). */
  | { kind: "change_of_mind" }
  /** The reply failed in the planted mode; the prompt is the owner's reaction. */
  | { kind: "failure"; mode: ModeId; reaction: ReactionFlags }
  /** The trouble came from outside (a service down): not the assistant's doing, and not unhappy with it. */
  | { kind: "world"; reaction: ReactionFlags }
  /** The host's machinery got in the way (a hook, a rate limit): not the assistant's doing. */
  | { kind: "host"; reaction: ReactionFlags };

export interface Costs {
  lost_time: boolean;
  risky: boolean;
  blocked: boolean;
}

/**
 * What each planted failure costs the owner, as its templates show it: lost time where the
 * owner had to check by hand, re-explain a rule, revert or restore; risk only where data or a
 * shared branch was destroyed; blocked where the work they need is still not there.
 */
export const MODE_COST: Record<ModeId, Costs> = {
  ignored_request: { lost_time: false, risky: false, blocked: false },
  unanswered_question: { lost_time: false, risky: false, blocked: false },
  broke_standing_rule: { lost_time: true, risky: false, blocked: false },
  misread_intent: { lost_time: true, risky: false, blocked: false },
  claimed_false_success: { lost_time: true, risky: false, blocked: true },
  stopped_short: { lost_time: false, risky: false, blocked: true },
  risky_action_unasked: { lost_time: true, risky: true, blocked: true },
  invented_fact: { lost_time: true, risky: false, blocked: false },
  wrong_answer: { lost_time: false, risky: false, blocked: false },
  off_topic: { lost_time: false, risky: false, blocked: false },
  wrong_language: { lost_time: false, risky: false, blocked: false },
  offloaded_to_owner: { lost_time: false, risky: false, blocked: false },
  unrequested_change: { lost_time: true, risky: false, blocked: false },
  repeated_mistake: { lost_time: true, risky: false, blocked: false },
  bad_style_or_tone: { lost_time: false, risky: false, blocked: false },
};

/** Outside trouble stops the work until the service is back; nothing was lost or put at risk. */
const OUTSIDE_COST: Costs = { lost_time: false, risky: false, blocked: true };
const NO_COST: Costs = { lost_time: false, risky: false, blocked: false };
const NO_REACTION: ReactionFlags = { correction: false, repeat: false, confused: false };

/** The questions the plan labels on every exchange, in label order (the bank's order). */
export const PLANNED_QUESTIONS: readonly string[] = [...DETECT_IDS, ...BLAME_IDS, ...MODE_IDS.map((m) => `mode.${m}`), ...COST_IDS];
/** The v3 class questions, labelled on planted failures only. */
export const PLANNED_CLASS_QUESTIONS: readonly string[] = CLASS_IDS.map((c) => `class.${c}`);

/** Every label the plan gives one prompt: question id → value, in a fixed order. */
export function plannedLabels(s: Scenario): [string, boolean][] {
  const failure = s.kind === "failure";
  const reaction = s.kind === "clean" || s.kind === "change_of_mind" ? NO_REACTION : s.reaction;
  const cost = s.kind === "failure" ? MODE_COST[s.mode] : s.kind === "world" || s.kind === "host" ? OUTSIDE_COST : NO_COST;
  const values: Record<string, boolean> = {
    "detect.unhappy": failure,
    "detect.correction": reaction.correction,
    "detect.repeat": reaction.repeat,
    "detect.confused": reaction.confused,
    "blame.assistant": failure,
    "blame.world": s.kind === "world",
    "blame.change_of_mind": s.kind === "change_of_mind",
    "blame.host": s.kind === "host",
    "cost.lost_time": cost.lost_time,
    "cost.risky": cost.risky,
    "cost.blocked": cost.blocked,
  };
  for (const m of MODE_IDS) values[`mode.${m}`] = failure && s.mode === m;
  const out: [string, boolean][] = PLANNED_QUESTIONS.map((q) => [q, values[q] === true]);
  if (failure) {
    const cls = modeById.get(s.mode)?.class_id;
    for (const q of PLANNED_CLASS_QUESTIONS) out.push([q, q === `class.${cls}`]);
  }
  return out;
}
