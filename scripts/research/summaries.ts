// What the loop keeps of each command's JSON, and the few counts it adds (read from files,
// no statistics): the gold set per split, detectors whose verdicts coincide on the holdout.
import type { QuestionCutsRecord } from "../../schemas/calibration.js";
import type { GoldItem } from "../../schemas/gold.js";
import type { Prediction } from "../../schemas/prediction.js";
import { StepError } from "./cli.js";
import type { SampleReply, SnakeKeys, V4ReportReply } from "./replies.js";
import type { ReportSummary, SampleSummary, VerdictOverlap } from "./summary.js";

/** The v4 report's counts: real exchanges, failures and classes; synthetic plants found. */
export function summariseReport(r: V4ReportReply, log: (line: string) => void): ReportSummary {
  const out: ReportSummary = {
    exchanges: r.exchanges,
    sessions: r.sessions,
    composed: r.composed,
    failures: r.failures,
    classes: r.classes.slice(0, 5),
    unscoredAnswers: r.unscored.answers,
    unscoredReasons: r.unscored.reasons.map((x) => `${x.code} ${x.count}`),
    synthetic: r.synthetic ? { exchanges: r.synthetic.exchanges, planted: r.synthetic.planted, found: r.synthetic.found, missed: r.synthetic.missed, unplanted_flagged: r.synthetic.unplanted_flagged } : null,
  };
  log(`  v4 report (the engine's trained cuts, every exchange of the track): ${out.exchanges} real exchanges, ${out.failures} failures${out.classes.length ? ` (top classes ${out.classes.map((c) => `${c.class_id} ${c.count}`).join(", ")})` : ""}${out.synthetic ? `; SYNTHETIC: ${out.synthetic.found} of ${out.synthetic.planted} planted failures found, ${out.synthetic.missed} missed, ${out.synthetic.unplanted_flagged} unplanted flagged` : ""}; ${out.unscoredAnswers} answers unscored${out.unscoredReasons.length ? ` (by reason: ${out.unscoredReasons.join(", ")})` : ""}`);
  return out;
}

export function summariseSample(m: SampleReply, gold: readonly GoldItem[], log: (line: string) => void): SampleSummary {
  const probs = gold.map((g) => g.inclusion_probability);
  const fit = gold.filter((g) => g.split === "fit");
  const holdout = gold.filter((g) => g.split === "holdout");
  const fitS = new Set(fit.map((g) => g.session_id));
  const holdS = new Set(holdout.map((g) => g.session_id));
  const overlap = [...fitS].filter((s) => holdS.has(s)).length;
  const out: SampleSummary = { manifest: m, items: gold.length, fitItems: fit.length, holdoutItems: holdout.length, minPi: Math.min(...probs), maxPi: Math.max(...probs), fitSessions: fitS.size, holdoutSessions: holdS.size, overlap };
  const mc = m.monte_carlo_check;
  log(`  drew ${gold.length} items (${Object.entries(m.drawn).map(([k, v]) => `${v} ${k}`).join(", ")}) from ${m.corpus.items} exchanges in ${m.corpus.sessions} sessions; at most ${m.per_session} per session; ${m.failures} failures asked for${m.shortfall.failure ? `, ${m.shortfall.failure} short` : ""}`);
  log(`  exact inclusion probabilities ${out.minPi.toFixed(4)}..${out.maxPi.toFixed(4)}${mc ? `; Monte Carlo check over ${mc.replicates} runs: max |z| ${Number(mc.max_abs_z).toFixed(2)}` : ""}`);
  log(`  split by session: fit ${fit.length} items / ${fitS.size} sessions, holdout ${holdout.length} items / ${holdS.size} sessions, ${overlap} sessions in both`);
  if (overlap !== 0) throw new StepError("INCONSISTENT", `${overlap} sessions are on both sides of the split (expected none)`);
  return out;
}

/** For each pair of detectors: on how many holdout gold items their detection verdicts differ. */
export function verdictOverlap(predictionSets: readonly (readonly Prediction[])[], gold: readonly GoldItem[]): VerdictOverlap[] {
  const holdout = new Set(gold.filter((g) => g.split === "holdout").map((g) => g.exchange_id));
  const by = predictionSets.map((rows) => ({ name: rows[0]?.detector ?? "?", v: new Map(rows.filter((r) => holdout.has(r.exchange_id)).map((r) => [r.exchange_id, r.detected])) }));
  const out: VerdictOverlap[] = [];
  by.forEach((x, i) => {
    for (const y of by.slice(i + 1)) {
      let differ = 0;
      let both = 0;
      for (const id of holdout) {
        const a = x.v.get(id);
        const b = y.v.get(id);
        if (a === undefined || b === undefined || a === null || b === null) continue;
        both++;
        if (a !== b) differ++;
      }
      out.push({ a: x.name, b: y.name, items: both, differ });
    }
  });
  return out;
}

/** A question's cuts record in which calibrate chose a kappa cut. */
export const hasKappaCut = (q: SnakeKeys<QuestionCutsRecord>): q is SnakeKeys<QuestionCutsRecord> & { kappa_cut: NonNullable<SnakeKeys<QuestionCutsRecord>["kappa_cut"]> } => q.kappa_cut !== null;
