// The per-track "what each step did" list of docs/research-loop.md.
import { lambdaText } from "../../eval/ppi-design.js";
import { ci, f3, kci } from "./fmt.js";
import { hasKappaCut } from "./summaries.js";
import type { Track } from "./summary.js";


export function trackDetails(name: string, T: Track): string[] {
  const out = ["What each step did:", ""];
  const p = T.v4pass;
  const r = p.report;
  out.push(`- **v4 pass (shadow)**: detect asked ${p.detect.asked} questions of ${p.detect.eligible} exchanges (${p.detect.scored} scored, ${p.detect.unscored} unscored${p.detect.unscored ? ": no weights" : ""}); diagnose and v3 asked of ${p.diagnose.eligible} composed failures; a second detect asked nothing. Report at the engine's trained cuts (every exchange of the track): ${r.exchanges} real exchanges, ${r.failures} failures${r.synthetic ? `; SYNTHETIC ${r.synthetic.found} of ${r.synthetic.planted} planted failures found` : ""}.`);
  out.push(`- **regex** (\`eval predictions --detectors regex\`): flagged ${T.regex.flagged} of ${p.detect.eligible} exchanges; \`v4 v3 --regex-caught\` asked v3's 14 class questions of those.`);
  const s = T.sample;
  const man = s.manifest;
  out.push(`- **eval sample**: ${s.items} items (${Object.entries(man.drawn).map(([k, v]) => `${v} ${k}`).join(", ")}) from ${man.corpus.items} exchanges in ${man.corpus.sessions} sessions, at most ${man.per_session} per session, ${man.failures} composed failures asked for${man.shortfall.failure ? ` (${man.shortfall.failure} short: the pool held fewer)` : ""}; exact inclusion probabilities ${f3(s.minPi)}–${f3(s.maxPi)}${man.monte_carlo_check ? ` (Monte Carlo check, ${man.monte_carlo_check.replicates} runs: max |z| ${f3(man.monte_carlo_check.max_abs_z)})` : ""}. Split by session: fit ${s.fitItems} items in ${s.fitSessions} sessions, holdout ${s.holdoutItems} items in ${s.holdoutSessions} sessions, **${s.overlap} sessions in both**.`);
  out.push(`- **eval label export / import**: ${Object.entries(T.labels).map(([l, v]) => `${l} ${v.imported} answers from ${v.rows} rows${v.blankRows ? ` (${v.blankRows} rows empty with a note)` : ""}`).join("; ")}; each count equals the answers written into that sheet.`);
  for (const q of T.agreement.questions) {
    const a = q.alpha;
    const alpha = a.interval ? `alpha (interval) ${kci(a.interval)}` : `alpha (nominal) ${kci(a.nominal)}`;
    out.push(`- **eval agreement**, ${q.question} (${q.kind}, ${q.items} gold items): Fleiss ${kci(q.fleiss_fixed)}, ${alpha}, raw pairwise ${f3(q.raw.pairwise)}; Cohen ${q.cohen.map((c) => `${c.a}/${c.b} ${kci(c)}`).join(", ")}; majority on ${q.majority.majority} items, ${q.majority.tie} ties${name === "synthetic" ? " (by construction)" : ""}.`);
  }
  const cq = T.cuts.questions.filter(hasKappaCut);
  const det = cq.find((q) => q.question === "detect.unhappy");
  const modes = cq.filter((q) => q.question.startsWith("mode."));
  out.push(`- **calibrate cuts** (fit side, rule ${T.cuts.rule}): ${det ? `detect.unhappy kappa cut ${f3(det.kappa_cut.cut)} (fit: kappa ${f3(det.kappa_cut.kappa)}, precision ${f3(det.kappa_cut.precision)}, recall ${f3(det.kappa_cut.recall)}; precision-${det.precision_target} cut ${det.precision_cut ? f3(det.precision_cut.cut) : "none"})` : "no cut for detect.unhappy"}; ${modes.length} mode cuts${modes.length ? ` (${f3(Math.min(...modes.map((q) => q.kappa_cut.cut)))}–${f3(Math.max(...modes.map((q) => q.kappa_cut.cut)))})` : " (no mode labels on the fit side)"}. Under these cuts v4 flags ${T.composed.v4.detected} exchanges (${T.composed.v4.class_named} with a class).`);
  const c = T.combiner;
  if ("skipped" in c) out.push(`- **combiner fit**: could not run on this gold set: ${c.skipped}. The Combiner is left out of the score and of promote; ClassTier's second look reads v4's verdicts.`);
  else out.push(`- **combiner fit / eval**: detect head ${c.fit.detect ? `L2 ${c.fit.detect.l2}, cut ${f3(c.fit.detect.cut)}; holdout log loss ${f3(c.eval.detect?.log_loss)}, Brier ${f3(c.eval.detect?.brier)}, ECE ${f3(c.eval.detect?.ece)}` : "not fitted"}; class head ${c.fit.class ? `over ${c.fit.class.classes.length} classes (L2 ${c.fit.class.l2})${c.eval.class ? `, holdout accuracy given a gold failure ${f3(c.eval.class.accuracy_given_gold_failure)} (${c.eval.class.n})` : ""}` : "not fitted"}${c.fit.notes.length ? ` (${c.fit.notes.join("; ")})` : ""}.`);
  const rec = T.classtier.record;
  out.push(`- **classtier ask / eval --write**: judge verdicts on the gold items${T.classtier.ask.lane ? ` (asked through the engine config's lane: ${T.classtier.ask.lane}, ${T.classtier.ask.model})` : ""} ${JSON.stringify(T.classtier.ask.verdicts)}; recorded level **${rec.level}**, second look **${rec.second_look ? "on" : "off"}**; fit-side class accuracy: model judge ${f3(rec.class_accuracy.model_judge)}, class head ${f3(rec.class_accuracy.class_head)} (${rec.class_accuracy.items} items): ${rec.reasons.join("; ")}.`);
  const pp = T.score.value.ppi;
  if (pp) out.push(`- **eval score**: PPI++ (${pp.method}, lambda ${lambdaText(pp.lambda)}) as above; detectors' pairwise differences: ${T.score.value.differences.filter((d) => d.metric === "f1" && (d.a === "v4" || d.b === "v4")).map((d) => `${d.a} − ${d.b} F1 ${ci(d)}`).join("; ")}.`);
  return out;
}
