/**
 * Fits the naming model (naming-model.ts) on the first two batches of datasets/ladder-naming
 * (splits `dev` and `heldout`: the old held-out projects were read while the lexicon was
 * tuned, so they joined the fit) and chooses its cut there; the fresh batch (split `fresh`,
 * five other projects, written before this fit) is never read. The file it writes,
 * `datasets/weights/ladder-naming.json`, is what the ladder ships; `namingWeightsText()` gives
 * the same bytes every time (test/ladder/naming-weights.test.ts checks them).
 *
 * Rows: each correction's four retrieval candidates (rules of its own project), the target
 * rule's row labelled 1, the others 0; a correction no rule covers gives four 0 rows.
 * L2 1.0 (no search: the set is small, and a search on it would fit the choice to it too).
 * The cut: of 0.30, 0.35, ..., 0.90, the one at which the named-or-not decision is right on
 * the most items (the best candidate over the cut is the target, or nothing over the cut for
 * a correction no rule covers: the fix-type figure), the higher on a tie, read on OUT-OF-FOLD
 * probabilities (each project scored by a model fitted without it, leave one project out).
 * Not "the lowest cut with precision >= 0.9" any more: out of fold, precision sits at
 * 0.86-0.90 from 0.35 to 0.70, so that rule picked its cut on one or two items.
 *
 * Regenerate: `npm run build && node -e 'import("./dist/runtime/ladder/naming-fit.js").then((m) => process.stdout.write(m.namingWeightsText()))' > datasets/weights/ladder-naming.json`
 */
import { fitLogistic } from "../../learn/index.js";
import { shippedRuleNouls, RuleNamer } from "./naming.js";
import { NAMING_FEATURES, namingProbability, type NamingWeights } from "./naming-model.js";
import { itemTurn, ledgerRules, namingItems, targetRule } from "./naming-set.js";

export const NAMING_L2 = 1;
const CUTS = Array.from({ length: 13 }, (_, i) => Math.round((0.3 + 0.05 * i) * 100) / 100);

export interface DevItem {
  project: string;
  target: string | null;
  rows: Array<{ rule: string; x: number[] }>;
}

/** The items the model is fitted on: every split but the fresh one (see the header). */
export const FIT_SPLITS: ReadonlySet<string> = new Set(["dev", "heldout"]);

/** The fit items (splits in FIT_SPLITS) with their candidates' features, as the fit and its cross-validation read them. */
export function devItems(): { items: DevItem[]; projects: string[] } {
  const all = namingItems();
  const dev = all.filter((i) => FIT_SPLITS.has(i.split));
  const rules = ledgerRules([...new Set(dev.map((i) => i.repo))]);
  const raw = new RuleNamer(rules, shippedRuleNouls(), { value: 1, origin: "fit" }, null);
  const items = dev.map((it, k): DevItem => {
    const { rows } = raw.features(itemTurn(it, k));
    return { project: it.repo, target: targetRule(rules, it)?.rule_id ?? null, rows: rows.map((r) => ({ rule: r.rule.rule_id, x: r.x })) };
  });
  return { items, projects: [...new Set(dev.map((i) => i.repo))].sort() };
}

/** Naming precision and recall of scored items at a cut (each item's best candidate by `p`). */
function figuresAt(scored: ReadonlyArray<{ target: string | null; best: { rule: string; p: number } | null }>, cut: number): { precision: number; recall: number } {
  let tp = 0;
  let fp = 0;
  let covered = 0;
  for (const it of scored) {
    if (it.target !== null) covered++;
    if (it.best === null || it.best.p < cut) continue;
    if (it.best.rule === it.target) tp++;
    else fp++;
  }
  return { precision: tp + fp === 0 ? 0 : tp / (tp + fp), recall: covered === 0 ? 0 : tp / covered };
}

function bestOf(w: Pick<NamingWeights, "coef" | "intercept">, it: DevItem): { rule: string; p: number } | null {
  let best: { rule: string; p: number } | null = null;
  for (const r of it.rows) {
    const p = namingProbability(w, r.x);
    if (best === null || p > best.p) best = { rule: r.rule, p };
  }
  return best;
}

const round = (v: number): number => Math.round(v * 1e6) / 1e6;

function fitOn(items: readonly DevItem[]): { coef: number[]; intercept: number } {
  const X = items.flatMap((i) => i.rows.map((r) => r.x));
  const y = items.flatMap((i) => i.rows.map((r) => (r.rule === i.target ? 1 : 0)));
  const m = fitLogistic(X, y, { l2: NAMING_L2 });
  return { coef: Array.from(m.coef, round), intercept: round(m.intercept) };
}

/** The cut curve on out-of-fold probabilities (precision, recall, and how many items the named-or-not decision gets right). */
export interface CutPoint {
  cut: number;
  precision: number;
  recall: number;
  right: number;
  items: number;
}

export function fitNamingModel(): NamingWeights {
  return namingFit().weights;
}

export function namingFit(): { weights: NamingWeights; curve: CutPoint[] } {
  const { items, projects } = devItems();
  const w = fitOn(items);
  // The cut from out-of-fold probabilities: each project's items scored by a model fitted on
  // the other projects (leave one project out), so the cut is chosen on what the model did not
  // see, as it will meet a new project's rules.
  const oof = projects.flatMap((p) => {
    const fold = fitOn(items.filter((i) => i.project !== p));
    return items.filter((i) => i.project === p).map((i) => ({ target: i.target, best: bestOf(fold, i) }));
  });
  const scored = CUTS.map((cut): CutPoint => ({ cut, ...figuresAt(oof, cut), right: oof.filter((i) => (i.best !== null && i.best.p >= cut ? i.best.rule === i.target : i.target === null)).length, items: oof.length }));
  // The cut that decides named-or-not right on the most out-of-fold items (a named rule must be
  // the target; an uncovered correction must name none), the higher cut on a tie.
  const cut = [...scored].sort((a, b) => b.right - a.right || b.cut - a.cut)[0]!;
  const rows = items.reduce((n, i) => n + i.rows.length, 0);
  const positives = items.filter((i) => i.rows.some((r) => r.rule === i.target)).length;
  const weights: NamingWeights = {
    schema: "ladder-naming/1",
    features: [...NAMING_FEATURES],
    coef: w.coef,
    intercept: w.intercept,
    l2: NAMING_L2,
    cut: cut.cut,
    cut_origin: `naming model cut, chosen on datasets/ladder-naming's fit projects by leave-one-project-out (constructed corrections; the cut deciding named-or-not right on most out-of-fold items: ${cut.right}/${cut.items}, naming precision ${cut.precision.toFixed(3)}, recall ${cut.recall.toFixed(3)}; docs/ladder.md)`,
    trained_on: { set: "datasets/ladder-naming (CONSTRUCTED)", split: "dev+heldout (the first two batches; the fresh batch is never read)", projects, items: items.length, rows, positives },
  };
  return { weights, curve: scored };
}

export function namingWeightsText(): string {
  return `${JSON.stringify(fitNamingModel(), null, 2)}\n`;
}
