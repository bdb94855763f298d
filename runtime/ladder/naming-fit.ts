/**
 * Fits the naming model (naming-model.ts) on every batch of datasets/ladder-naming's items.jsonl
 * (splits `dev`, `heldout` and `fresh`: 169 items, 16 projects; the first fresh batch was read
 * once it had reported, so it joined the fit) and chooses its two cuts there by leave one
 * project out; the fresh2 batch (`fresh2.jsonl`, seven other projects) is never read here. The
 * file it writes, `datasets/weights/ladder-naming.json`, is what the ladder ships;
 * `namingWeightsText()` gives the same bytes every time (test/ladder/naming-weights.test.ts).
 *
 * Rows: each correction's four retrieval candidates (rules of its own project), the target
 * rule's row labelled 1, the others 0; a correction no rule covers gives four 0 rows.
 * L2 1.0 (no search: the set is small; other L2s moved out-of-fold recall@1 by an item or two).
 *
 * Both cuts are read on OUT-OF-FOLD probabilities (each project scored by a model fitted
 * without it), over 0.05, 0.10, ..., 0.90:
 * - the naming cut (a rule is named, so an incident can be counted against it): the one at
 *   which naming is right on the most items (averaged with the two neighbouring cuts), a named rule being right when it is the target
 *   and naming nothing being right when the best candidate is not the target (a correction no
 *   rule covers, or a best candidate that is another rule); the higher on a tie. Precision
 *   first: a named wrong rule is a false incident, while a covered correction left unnamed
 *   costs recall only, since whether a rule covers it is decided apart:
 * - the cover cut (enforce_rule vs add_rule): the one at which the covered-or-not decision
 *   (the best candidate's P at or over it) is right on the most items (averaged the same way); the higher on a tie.
 * Until 2026-12-06 both were one cut (named-or-not decided the fix type too), which made a
 * wrong named rule and an abstention cost the same; out of fold the split decided the fix type
 * right on more items (docs/ladder.md).
 *
 * Regenerate: `npm run build && node -e 'import("./dist/runtime/ladder/naming-fit.js").then((m) => process.stdout.write(m.namingWeightsText()))' > datasets/weights/ladder-naming.json`
 */
import { fitLogistic } from "../../learn/index.js";
import { shippedRuleNouls, RuleNamer } from "./naming.js";
import { NAMING_FEATURES, namingProbability, type NamingWeights } from "./naming-model.js";
import { itemTurn, ledgerRules, namingItems, targetRule } from "./naming-set.js";

export const NAMING_L2 = 1;
const CUTS = Array.from({ length: 18 }, (_, i) => Math.round((0.05 + 0.05 * i) * 100) / 100);

export interface DevItem {
  id: string;
  project: string;
  target: string | null;
  rows: Array<{ rule: string; x: number[] }>;
}

/** The items the model is fitted on: every split of items.jsonl (see the header); fresh2.jsonl is never read here. */
export const FIT_SPLITS: ReadonlySet<string> = new Set(["dev", "heldout", "fresh"]);

/** The fit items (splits in FIT_SPLITS) with their candidates' features, as the fit and its cross-validation read them. */
export function devItems(): { items: DevItem[]; projects: string[] } {
  const all = namingItems();
  const dev = all.filter((i) => FIT_SPLITS.has(i.split));
  const rules = ledgerRules([...new Set(dev.map((i) => i.repo))]);
  const raw = new RuleNamer(rules, shippedRuleNouls(), { value: 1, origin: "fit" }, null);
  const items = dev.map((it, k): DevItem => {
    const { rows } = raw.features(itemTurn(it, k));
    return { id: it.id, project: it.repo, target: targetRule(rules, it)?.rule_id ?? null, rows: rows.map((r) => ({ rule: r.rule.rule_id, x: r.x })) };
  });
  return { items, projects: [...new Set(dev.map((i) => i.repo))].sort() };
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

/** The model fitted on some items (coefficients rounded as shipped). */
export function fitOn(items: readonly DevItem[]): { coef: number[]; intercept: number } {
  const X = items.flatMap((i) => i.rows.map((r) => r.x));
  const y = items.flatMap((i) => i.rows.map((r) => (r.rule === i.target ? 1 : 0)));
  const m = fitLogistic(X, y, { l2: NAMING_L2 });
  return { coef: Array.from(m.coef, round), intercept: round(m.intercept) };
}

/** One point of the cut curve on out-of-fold probabilities. */
export interface CutPoint {
  cut: number;
  /** Items a rule is named for at this cut, and those named right (the target). */
  named: number;
  namedRight: number;
  /** Naming right: the target named, or nothing named when the best candidate is not the target. */
  right: number;
  /** The covered-or-not decision (best P at or over the cut) right: covered exactly when a rule covers the correction. */
  coverRight: number;
  items: number;
}

/** Each fit project's models fitted without it (leave one project out), by project. */
export function foldModels(): { items: DevItem[]; projects: string[]; folds: Map<string, { coef: number[]; intercept: number }> } {
  const { items, projects } = devItems();
  return { items, projects, folds: new Map(projects.map((p) => [p, fitOn(items.filter((i) => i.project !== p))])) };
}

export function fitNamingModel(): NamingWeights {
  return namingFit().weights;
}

/**
 * The cut whose count, averaged with its two neighbours on the grid (one at an end), is the
 * highest; the higher cut on a tie. Out of fold the curves are flat within a few items from
 * 0.2 to 0.7, and a one-step bump is one or two items: the average keeps a cut from being
 * chosen on them.
 */
export function bestCut(curve: readonly CutPoint[], key: "right" | "coverRight"): CutPoint {
  const smooth = curve.map((c, i) => {
    const near = curve.slice(Math.max(0, i - 1), i + 2);
    return { c, v: near.reduce((s, n) => s + n[key], 0) / near.length };
  });
  return [...smooth].sort((a, b) => b.v - a.v || b.c.cut - a.c.cut)[0]!.c;
}

export function namingFit(): { weights: NamingWeights; curve: CutPoint[] } {
  const { items, projects, folds } = foldModels();
  const w = fitOn(items);
  // The cuts from out-of-fold probabilities: each project's items scored by a model fitted on
  // the other projects, so the cuts are chosen on what the model did not see, as it will meet
  // a new project's rules.
  const oof = items.map((i) => ({ target: i.target, best: bestOf(folds.get(i.project)!, i) }));
  const curve = CUTS.map((cut): CutPoint => {
    let named = 0, namedRight = 0, right = 0, coverRight = 0;
    for (const i of oof) {
      const over = i.best !== null && i.best.p >= cut;
      if (over) {
        named++;
        if (i.best!.rule === i.target) namedRight++;
      }
      if (over ? i.best!.rule === i.target : i.best?.rule !== i.target) right++;
      if (over === (i.target !== null)) coverRight++;
    }
    return { cut, named, namedRight, right, coverRight, items: oof.length };
  });
  const cut = bestCut(curve, "right");
  const cover = bestCut(curve, "coverRight");
  const rows = items.reduce((n, i) => n + i.rows.length, 0);
  const positives = items.filter((i) => i.rows.some((r) => r.rule === i.target)).length;
  const covered = items.filter((i) => i.target !== null).length;
  const weights: NamingWeights = {
    schema: "ladder-naming/2",
    features: [...NAMING_FEATURES],
    coef: w.coef,
    intercept: w.intercept,
    l2: NAMING_L2,
    cut: cut.cut,
    cut_origin: `naming model cut, chosen on datasets/ladder-naming's 16 fit projects by leave-one-project-out (constructed corrections; naming right on most out-of-fold items, averaged with the neighbouring cuts: ${cut.right}/${cut.items} at it, a rule named for ${cut.named}, the target ${cut.namedRight} of them, of ${covered} covered; docs/ladder.md)`,
    cover_cut: cover.cut,
    cover_cut_origin: `covered-or-not cut (enforce_rule vs add_rule), chosen on the same projects by leave-one-project-out: right on most out-of-fold items, averaged with the neighbouring cuts: ${cover.coverRight}/${cover.items} at it; docs/ladder.md`,
    trained_on: { set: "datasets/ladder-naming (CONSTRUCTED)", split: "dev+heldout+fresh (items.jsonl; fresh2.jsonl is never read)", projects, items: items.length, rows, positives },
  };
  return { weights, curve };
}

export function namingWeightsText(): string {
  return `${JSON.stringify(fitNamingModel(), null, 2)}\n`;
}
