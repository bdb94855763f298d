import type { Answer } from "../../schemas/answer.js";
import type { EvalRow } from "./embedded/evaluate.js";
import type { WeightsFile } from "./base/schemas.js";

/**
 * Plain-text and JSON summaries the engine's commands print. Pure.
 *
 * Example: `answersSummary(answers)` -> `{total: 52, scored: 2, unscored: 50, byQuestion:
 * {"detect.unhappy@1": {scored: 2, unscored: 0, meanPYes: 0.31}, …}, unscoredReasons: {…}}`.
 */
export interface AnswersSummary {
  total: number;
  scored: number;
  unscored: number;
  byQuestion: Record<string, { scored: number; unscored: number; meanPYes: number | null }>;
  /** Distinct reasons with counts (the most common ten). */
  unscoredReasons: Record<string, number>;
}

export function answersSummary(answers: readonly Answer[]): AnswersSummary {
  const byQ = new Map<string, { scored: number; unscored: number; sum: number }>();
  const reasons = new Map<string, number>();
  let scored = 0;
  for (const a of answers) {
    const k = `${a.question_id}@${a.question_version}`;
    const q = byQ.get(k) ?? { scored: 0, unscored: 0, sum: 0 };
    if (a.status === "scored") {
      scored++;
      q.scored++;
      q.sum += a.p_yes;
    } else {
      q.unscored++;
      const r = a.reason;
      reasons.set(r, (reasons.get(r) ?? 0) + 1);
    }
    byQ.set(k, q);
  }
  const byQuestion: AnswersSummary["byQuestion"] = {};
  for (const k of [...byQ.keys()].sort()) {
    const q = byQ.get(k) as { scored: number; unscored: number; sum: number };
    byQuestion[k] = { scored: q.scored, unscored: q.unscored, meanPYes: q.scored ? Number((q.sum / q.scored).toFixed(4)) : null };
  }
  const top = [...reasons.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 10);
  return { total: answers.length, scored, unscored: answers.length - scored, byQuestion, unscoredReasons: Object.fromEntries(top) };
}

const f = (x: number | null, d = 3): string => (x === null ? "—" : x.toFixed(d));

/** The eval table, one line per (set, question). */
export function evalTable(rows: readonly EvalRow[]): string[] {
  const iv = (x: number | null, i: { low: number | null; high: number | null } | null): string => (x === null ? "—" : i && i.low !== null && i.high !== null ? `${f(x, 2)} [${f(i.low, 2)}, ${f(i.high, 2)}]` : f(x));
  const head = ["set", "question", "items", "ties", "pos", "AUC [95%]", "Brier", "logloss", "kappa [95%]", "capture kappa", "raters' Fleiss"];
  const setName = (r: EvalRow): string => `${r.set}${r.split === "all" ? " (all items)" : ""}${r.synthetic ? " SYNTHETIC" : ""}`;
  const body = rows.map((r) => [setName(r), r.question, String(r.items), String(r.ties), String(r.positives), iv(r.auc, r.aucInterval), f(r.brier), f(r.logLoss), iv(r.kappa, r.kappaInterval), f(r.captureKappa), `${f(r.labellersFleiss)} (${r.fleissItems})`, r.note ?? ""]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i]!).length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i < head.length ? c.padEnd(widths[i]!) : c)).join("  ").trimEnd();
  return [line(head), ...body.map(line)];
}

/** "ukp 96 (12 yes) + synthetic-seed-101 SYNTHETIC 2,080 (140 yes)": what trained a question. */
export function trainedByText(q: WeightsFile["questions"][string]): string {
  if (!q.trainedBy) return "(not recorded)";
  return q.trainedBy.map((t) => `${t.set}${t.synthetic ? " SYNTHETIC" : ""} ${t.items} (${Number(t.positives.toFixed(1))} yes)`).join(" + ");
}

export function weightsSummary(w: WeightsFile): { questions: Record<string, { n: number; positives: number; nonZero: number; converged: boolean; l2: number; cut: number; trainedBy: string; synthetic: boolean }>; skipped: Record<string, string> } {
  const questions: Record<string, { n: number; positives: number; nonZero: number; converged: boolean; l2: number; cut: number; trainedBy: string; synthetic: boolean }> = {};
  for (const k of Object.keys(w.questions).sort()) {
    const q = w.questions[k]!;
    questions[k] = { n: q.n, positives: Number(q.positives.toFixed(2)), nonZero: q.idx.length, converged: q.converged, l2: q.l2, cut: Number(q.cut.toFixed(4)), trainedBy: trainedByText(q), synthetic: q.trainedBy?.some((t) => t.synthetic) ?? false };
  }
  return { questions, skipped: w.skipped };
}
