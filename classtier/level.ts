import type { ClassTierVerdict } from "./verdict.js";

/**
 * Which class level ships, and whether the second look is on, from labelled fit-split items.
 * - Class accuracy given a gold failure with a gold class (weighted): the model judge counts
 *   right only when it names the gold class ("none" is wrong; unscored is left out and
 *   counted); the class head likewise. The model judge ships only when it is strictly more
 *   accurate than the class head (or there is no class head).
 * - Second look: among exchanges the detector passed, the judge's flags (it named a class);
 *   on when it catches at least one gold failure and its flags' precision reaches
 *   `secondLookPrecision` (default 0.5: a flag is at least as likely right as wrong).
 *
 * Example: judge right on 70 of 100 gold-class failures, head on 55 → level "model_judge";
 * 12 flags on passed exchanges, 8 gold failures → precision 0.667, second look on.
 */
export interface LevelItem {
  weight: number;
  goldFailure: boolean | null;
  goldClass: string | null;
  /** The detector's verdict (null when unscored). */
  detected: boolean | null;
  judge: ClassTierVerdict | null;
  head: string | null;
}

export interface LevelDecision {
  level: "class_head" | "model_judge";
  second_look: boolean;
  class_accuracy: { model_judge: number | null; class_head: number | null; items: number; judge_unscored: number };
  second_look_figures: { passed: number; flags: number; hits: number; precision: number | null; recall_gain: number | null; threshold: number };
  reasons: string[];
}

export function decideLevel(items: readonly LevelItem[], opts: { secondLookPrecision?: number; hasClassHead: boolean }): LevelDecision {
  const threshold = opts.secondLookPrecision ?? 0.5;
  let total = 0;
  let judgeRight = 0;
  let judgeTotal = 0;
  let headRight = 0;
  let judgeUnscored = 0;
  let n = 0;
  for (const it of items) {
    if (it.goldFailure !== true || it.goldClass === null) continue;
    n++;
    total += it.weight;
    if (it.head === it.goldClass) headRight += it.weight;
    if (it.judge === null || it.judge.status === "unscored") {
      judgeUnscored++;
      continue;
    }
    judgeTotal += it.weight;
    if (it.judge.status === "named" && it.judge.class === it.goldClass) judgeRight += it.weight;
  }
  const judgeAcc = judgeTotal > 0 ? judgeRight / judgeTotal : null;
  const headAcc = opts.hasClassHead && total > 0 ? headRight / total : null;
  const reasons: string[] = [];
  let level: LevelDecision["level"] = "class_head";
  if (judgeAcc === null) reasons.push("the model judge answered no gold failure with a gold class");
  else if (headAcc === null) {
    level = "model_judge";
    reasons.push("no class head to compare with: the model judge ships");
  } else if (judgeAcc > headAcc) {
    level = "model_judge";
    reasons.push(`model judge ${judgeAcc.toFixed(3)} > class head ${headAcc.toFixed(3)}`);
  } else reasons.push(`class head ${headAcc.toFixed(3)} >= model judge ${judgeAcc.toFixed(3)}`);

  let passed = 0;
  let flags = 0;
  let hits = 0;
  let goldFailures = 0;
  for (const it of items) {
    if (it.goldFailure === true) goldFailures += it.weight;
    if (it.detected !== false || it.goldFailure === null) continue;
    passed += it.weight;
    if (it.judge?.status === "named") {
      flags += it.weight;
      if (it.goldFailure) hits += it.weight;
    }
  }
  const precision = flags > 0 ? hits / flags : null;
  const second = precision !== null && hits > 0 && precision >= threshold;
  reasons.push(
    second
      ? `second look on: ${hits} of ${flags} flags are gold failures (precision ${precision!.toFixed(3)} >= ${threshold})`
      : `second look off: ${flags === 0 ? "it flags nothing the detector passed" : `precision ${precision!.toFixed(3)} with ${hits} hits (needs >= ${threshold} and a hit)`}`,
  );
  return {
    level,
    second_look: second,
    class_accuracy: { model_judge: judgeAcc, class_head: headAcc, items: n, judge_unscored: judgeUnscored },
    second_look_figures: { passed, flags, hits, precision, recall_gain: goldFailures > 0 ? hits / goldFailures : null, threshold },
    reasons,
  };
}
