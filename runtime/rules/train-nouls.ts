/**
 * Trains the embedded answers to `rules.rule_covers` and `rules.same_root_cause` on the
 * synthetic rule scenarios (never on a set they are measured on) and measures them on a held
 * out seed: precision, recall and Cohen's kappa against the plan at the cut given. Everything
 * here is synthetic and is reported as such.
 *
 * Pairs: for rule_covers, every failure's four candidates (yes when the candidate is the
 * failure's covering rule); for same_root_cause, every failure and its three nearest
 * neighbours in its project by complaint and reply words (yes when the plan gives both the
 * same root cause). Fit: L2 logistic regression (learn/logistic.ts), l2 = 1.
 *
 * Example: `trainRuleNouls({seeds: [21, 22, 23], projects: 24, failuresPerProject: 14})` ->
 * `{rule_covers: {features, coef, intercept}, same_root_cause: {...}, record: {...}}`.
 */
import type { RuleNoulWeights } from "../../schemas/rules.js";
import { cohenKappa } from "../../eval/index.js";
import { fitLogistic } from "../../learn/index.js";
import { generateRuleScenarios, type RuleScenarioProject, type ScenarioFailure } from "../corpora/index.js";
import { buildIndex } from "./build.js";
import { classText } from "./evaluate.js";
import { wordOverlap } from "./ids.js";
import { noulProbability, RULE_COVERS_FEATURES, ruleCoversFeatures, SAME_ROOT_FEATURES, sameRootFeatures, type NoulModel, type RootCauseSide } from "./nouls.js";
import { candidateRules, RuleRetriever } from "./search.js";
import { sourcesFromTexts } from "./sources.js";

export const NOUL_L2 = 1;

export interface ScenarioSpec {
  seeds: readonly number[];
  projects: number;
  failuresPerProject: number;
}

export interface PairSet {
  x: number[][];
  y: number[];
}

function toNoul(f: ScenarioFailure) {
  return { complaint: f.prompt, reply: f.reply, tools: f.tools.map((t) => t.summary), cls: f.cls };
}

/** The labelled pairs of both nouls for some projects. */
export function noulPairs(projects: readonly RuleScenarioProject[]): { covers: PairSet; root: PairSet } {
  const covers: PairSet = { x: [], y: [] };
  const root: PairSet = { x: [], y: [] };
  for (const p of projects) {
    const index = buildIndex(sourcesFromTexts(p.files), null, { today: "2026-12-01", projects: [] }).index;
    const retriever = RuleRetriever.of(index);
    const sides: Array<RootCauseSide & { cause: string }> = [];
    for (const f of p.failures) {
      const nf = toNoul(f);
      const hits = candidateRules(retriever, { complaint: nf.complaint, failureClass: classText(nf.cls), reply: nf.reply, tools: nf.tools });
      const covering = f.covering === null ? null : (p.rules.find((r) => r.key === f.covering)?.text ?? null);
      hits.forEach((h, i) => {
        covers.x.push(ruleCoversFeatures(nf, { unit: h.unit, score: h.score, rank: i + 1, top: hits[0]?.score ?? 0, next: hits[i + 1]?.score ?? 0 }));
        covers.y.push(covering !== null && h.unit.text.includes(covering) ? 1 : 0);
      });
      sides.push({ ...nf, candidates: hits.map((h) => h.unit.id), cause: f.root_cause });
    }
    sides.forEach((a, i) => {
      const near = sides
        .map((b, j) => ({ j, sim: j === i ? -1 : wordOverlap(`${a.complaint} ${a.reply ?? ""}`, `${b.complaint} ${b.reply ?? ""}`) }))
        .filter((n) => n.j !== i)
        .sort((u, v) => v.sim - u.sim || u.j - v.j)
        .slice(0, 3);
      for (const n of near) {
        const b = sides[n.j];
        if (b === undefined) continue;
        root.x.push(sameRootFeatures(a, b));
        root.y.push(a.cause === b.cause ? 1 : 0);
      }
    });
  }
  return { covers, root };
}

function scenarios(spec: ScenarioSpec): RuleScenarioProject[] {
  return spec.seeds.flatMap((seed) => generateRuleScenarios({ seed, projects: spec.projects, failuresPerProject: spec.failuresPerProject }));
}

function fit(set: PairSet, features: readonly string[]): RuleNoulWeights["rule_covers"] {
  const m = fitLogistic(set.x, set.y, { l2: NOUL_L2, dim: features.length });
  return { features: [...features], coef: Array.from(m.coef, (v) => Math.round(v * 1e6) / 1e6), intercept: Math.round(m.intercept * 1e6) / 1e6 };
}

export type { RuleNoulWeights };

export function trainRuleNouls(spec: ScenarioSpec): RuleNoulWeights {
  const { covers, root } = noulPairs(scenarios(spec));
  return {
    schema: "errata-rule-nouls/1",
    rule_covers: fit(covers, RULE_COVERS_FEATURES),
    same_root_cause: fit(root, SAME_ROOT_FEATURES),
    record: {
      data: "synthetic rule scenarios (runtime/corpora/synthetic/rules.ts)",
      seeds: [...spec.seeds],
      projects: spec.projects,
      failures_per_project: spec.failuresPerProject,
      pairs: { rule_covers: covers.y.length, same_root_cause: root.y.length },
      positives: { rule_covers: covers.y.filter((v) => v === 1).length, same_root_cause: root.y.filter((v) => v === 1).length },
      l2: NOUL_L2,
    },
  };
}

export interface NoulQuality {
  pairs: number;
  positives: number;
  precision: number | null;
  recall: number | null;
  kappa: number | null;
  cut: number;
}

export function noulQuality(model: NoulModel, set: PairSet, cut: number): NoulQuality {
  const pred = set.x.map((x) => (noulProbability(model, x) >= cut ? 1 : 0));
  let tp = 0;
  let fp = 0;
  let fn = 0;
  pred.forEach((p, i) => {
    const y = set.y[i];
    if (p === 1 && y === 1) tp++;
    else if (p === 1) fp++;
    else if (y === 1) fn++;
  });
  const k = cohenKappa(pred, set.y);
  return {
    pairs: set.y.length,
    positives: set.y.filter((v) => v === 1).length,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
    kappa: k.kappa,
    cut,
  };
}

/** Both nouls measured on held-out scenarios. */
export function heldOutQuality(weights: Pick<RuleNoulWeights, "rule_covers" | "same_root_cause">, spec: ScenarioSpec, cut = 0.5): { rule_covers: NoulQuality; same_root_cause: NoulQuality } {
  const { covers, root } = noulPairs(scenarios(spec));
  return { rule_covers: noulQuality(weights.rule_covers, covers, cut), same_root_cause: noulQuality(weights.same_root_cause, root, cut) };
}
