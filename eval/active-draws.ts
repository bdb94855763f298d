import { activeEstimate, type ActiveEstimate, type ActiveRound } from "./active.js";

/**
 * The corpus failure rate from recorded active-labelling rounds (`active-draw/1` rows, written
 * by `eval sample --next K`) and the labels so far: each round's difference estimate with its
 * recorded inclusion probabilities and predictions, combined by each round's planned size
 * (`active.ts`). Every item a round drew must have a label, or there is no estimate (leaving a
 * drawn item out would bias it); the reply says how many are missing.
 *
 * Example: one round over ["a", "b"], pi [1, 0.5], f [0.2, 0.4], both drawn, labels a: 1, b: 0
 * → estimate (1 + 0.4 + (0 - 0.4) / 0.5) / 2 = 0.3.
 */
export interface ActiveDraw {
  round: number;
  exchange_id: string;
  f: number;
  pi: number;
  drawn: boolean;
  labelled?: boolean;
}

export const ACTIVE_METHOD = "active labelling: difference estimator with the recorded inclusion probabilities (Horvitz-Thompson variance), rounds combined by their planned size";

export type ActiveDrawsResult =
  | ({ ok: true; method: string; items: number } & ActiveEstimate)
  | { ok: false; reason: string; missing: number; drawn: number };

export function activeEstimateFromDraws(rows: readonly ActiveDraw[], label: ReadonlyMap<string, number>, alpha = 0.1): ActiveDrawsResult {
  const ids = [...new Set(rows.map((r) => r.exchange_id))].sort();
  const index = new Map(ids.map((id, i) => [id, i]));
  const byRound = new Map<number, ActiveDraw[]>();
  for (const r of rows) byRound.set(r.round, [...(byRound.get(r.round) ?? []), r]);
  const drawnIds = new Set(rows.filter((r) => r.drawn).map((r) => r.exchange_id));
  const missing = [...drawnIds].filter((id) => !label.has(id)).length;
  if (missing > 0) return { ok: false, reason: `${missing} of the ${drawnIds.size} drawn items have no majority label yet`, missing, drawn: drawnIds.size };
  const rounds: ActiveRound[] = [];
  for (const t of [...byRound.keys()].sort((a, b) => a - b)) {
    const rs = byRound.get(t)!;
    if (rs.length !== ids.length || new Set(rs.map((r) => r.exchange_id)).size !== ids.length) {
      return { ok: false, reason: `round ${t} covers ${rs.length} items, the rounds together ${ids.length}: the rounds were drawn over different corpora`, missing: 0, drawn: drawnIds.size };
    }
    const f = new Float64Array(ids.length);
    const pi = new Float64Array(ids.length);
    const drawn: number[] = [];
    let budget = 0;
    for (const r of rs) {
      const i = index.get(r.exchange_id)!;
      f[i] = r.f;
      pi[i] = r.pi;
      if (r.drawn) drawn.push(i);
      // The round's planned size: the expected new labels (rows of older files carry no `labelled`).
      if (!(r.labelled ?? r.pi >= 1)) budget += r.pi;
    }
    rounds.push({ f, pi, drawn, budget });
  }
  const e = activeEstimate(rounds, (i) => label.get(ids[i]!)!, ids.length, alpha);
  return { ok: true, method: ACTIVE_METHOD, items: ids.length, ...e };
}
