import type { Answer } from "../../../schemas/answer.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Prediction } from "../../../schemas/prediction.js";
import { classify, unhappyWithReply } from "../../classifier/index.js";
import type { JudgeId } from "./ask.js";
import type { Composed, Judgments } from "../../judgments/index.js";

/**
 * The detectors `errata eval score` compares, as `prediction/1` rows (`errata eval predictions`):
 *
 * - regex: the capture classifier (the hook's `classify`), read as "the person is unhappy with
 *   the previous reply" by its own `unhappyWithReply` (docs/capture.md); it names no class and
 *   is never unscored.
 * - v3: the seed's single choice. v3 "only sees what the regex capture already caught", so it
 *   detects exactly what the regex caught and names the argmax of the 14 `class.*` answers
 *   (`v3Choice`, stored by `errata v4 v3`, `--regex-caught` for the caught exchanges); the class
 *   is null with a reason when any of the 14 is missing or unscored.
 * - v4: the composition of the stored answers under the cuts: detected = is_failure, class =
 *   primary_class, p_failure = P(yes) of detect.unhappy. No composition (detect.unhappy
 *   unanswered or unscored) gives `detected: null`, never "no".
 *
 * Example: `regexPredictions([{id: "ex-1", prompt: "No, that's wrong.", reply_end: "Done."}]).rows`
 * -> `[{schema: "prediction/1", exchange_id: "ex-1", detector: "regex", detected: true, class: null, p_failure: 1}]`
 */
export const PREDICTION_DETECTORS = ["regex", "v3", "v4"] as const;
export type PredictionDetector = (typeof PREDICTION_DETECTORS)[number];

type Row = Prediction;
const row = (exchange_id: string, detector: PredictionDetector, detected: boolean | null, cls: string | null, extra: Partial<Row> = {}): Row => ({ schema: "prediction/1", exchange_id, detector, detected, class: cls, ...extra });

/** Whether the capture classifier reads this prompt as unhappiness with the reply before it (and whether it skipped it as not typed). */
export function regexVerdict(e: Pick<Exchange, "prompt" | "reply_end">): { hit: boolean; skip: boolean } {
  const v = classify(e.prompt, { previousReply: e.reply_end });
  return { hit: unhappyWithReply(v), skip: v.kind === "skip" };
}

export interface RegexCounts {
  flagged: number;
  skip: number;
}

/** The regex detector's rows, one per exchange, in input order. */
export function regexPredictions(exchanges: readonly Pick<Exchange, "id" | "prompt" | "reply_end">[]): { rows: Row[]; counts: RegexCounts } {
  const counts: RegexCounts = { flagged: 0, skip: 0 };
  const rows = exchanges.map((e) => {
    const v = regexVerdict(e);
    if (v.skip) counts.skip++;
    if (v.hit) counts.flagged++;
    return row(e.id, "regex", v.hit, null, { p_failure: v.hit ? 1 : 0 });
  });
  return { rows, counts };
}

export interface ComposedCounts {
  v4: { detected: number; unscored: number; classNamed: number; classMissing: number };
  v3: { detected: number; classNamed: number; classMissing: number };
}

/** v4 and v3 rows from the judge's composed exchanges (runtime/judgments); v3's detection is the regex rows'. */
export function composedPredictions(opts: { composed: readonly Composed[]; answers: readonly Answer[]; judge: JudgeId; regexRows: readonly Row[] }): { v4: Row[]; v3: Row[]; counts: ComposedCounts } {
  const { judge, composed } = opts;
  const regexHit = new Map(opts.regexRows.map((r) => [r.exchange_id, r.detected]));
  const pUnhappy = new Map<string, number>();
  for (const a of opts.answers) {
    if (a.question_id === "detect.unhappy" && a.status === "scored" && a.lane === judge.lane && a.model === judge.model) pUnhappy.set(a.exchange_id, a.p_yes);
  }
  const v4: Row[] = [];
  const v3: Row[] = [];
  const counts: ComposedCounts = { v4: { detected: 0, unscored: 0, classNamed: 0, classMissing: 0 }, v3: { detected: 0, classNamed: 0, classMissing: 0 } };
  for (const c of composed) {
    const id = c.exchange.id;
    if (c.composition === null) {
      counts.v4.unscored++;
      v4.push(row(id, "v4", null, null, { reason: "detect.unhappy unanswered or unscored" }));
    } else {
      const det = c.composition.is_failure;
      const cls = det ? c.composition.primary_class : null;
      if (det) {
        counts.v4.detected++;
        if (cls) counts.v4.classNamed++;
        else counts.v4.classMissing++;
      }
      v4.push(row(id, "v4", det, cls, { p_failure: pUnhappy.get(id) ?? (det ? 1 : 0), ...(det && !cls ? { reason: "class: a mode answer is missing or unscored" } : {}) }));
    }
    const hit = regexHit.get(id) ?? null;
    const cls3 = hit ? (c.v3?.class_id ?? null) : null;
    if (hit) {
      counts.v3.detected++;
      if (cls3) counts.v3.classNamed++;
      else counts.v3.classMissing++;
    }
    v3.push(row(id, "v3", hit, cls3, hit && !cls3 ? { reason: "class: a class.* answer is missing or unscored" } : {}));
  }
  return { v4, v3, counts };
}

export interface PredictionsResult {
  /** Rows grouped by detector (in the order asked), each group in exchange order. */
  rows: Row[];
  counts: { exchanges: number; regex?: RegexCounts; v3?: ComposedCounts["v3"]; v4?: ComposedCounts["v4"] };
}

/**
 * Prediction rows for the chosen detectors, from the judgments of the v4 folder: their judge's
 * composed exchanges (no judge: every v4 row is unscored and every v3 class is null).
 *
 * Example: 597 AB-ReDial exchanges, detectors [regex, v4] -> 1194 rows, regex's first.
 */
export function buildPredictions(opts: { judgments: Pick<Judgments, "exchanges" | "answers" | "judge" | "composed">; detectors: readonly PredictionDetector[] }): PredictionsResult {
  const j = opts.judgments;
  const regex = regexPredictions(j.exchanges);
  const wantComposed = opts.detectors.includes("v3") || opts.detectors.includes("v4");
  const composed = wantComposed ? composedPredictions({ composed: j.composed(), answers: j.judge ? j.answers : [], judge: j.judge ?? { lane: "-", model: "-" }, regexRows: regex.rows }) : null;
  const rows: Row[] = [];
  const counts: PredictionsResult["counts"] = { exchanges: j.exchanges.length };
  for (const d of opts.detectors) {
    if (d === "regex") {
      rows.push(...regex.rows);
      counts.regex = regex.counts;
    } else if (composed && d === "v3") {
      rows.push(...composed.v3);
      counts.v3 = composed.counts.v3;
    } else if (composed) {
      rows.push(...composed.v4);
      counts.v4 = composed.counts.v4;
    }
  }
  return { rows, counts };
}

/** Parses `--detectors regex,v3,v4`: known names, no repeats, at least one; null when bad. */
export function parseDetectors(list: string): PredictionDetector[] | null {
  const names = list.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (names.length === 0 || new Set(names).size !== names.length) return null;
  for (const n of names) if (!(PREDICTION_DETECTORS as readonly string[]).includes(n)) return null;
  return names as PredictionDetector[];
}
