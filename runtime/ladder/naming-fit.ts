/**
 * Fits the naming model (naming-model.ts) on the DEV projects of datasets/ladder-naming and
 * chooses its cut there; the held-out projects are never read. The file it writes,
 * `datasets/weights/ladder-naming.json`, is what the ladder ships; `namingWeightsText()` gives
 * the same bytes every time (test/ladder/naming-weights.test.ts checks them).
 *
 * Rows: each dev correction's four retrieval candidates (rules of its own project), the
 * target rule's row labelled 1, the others 0; a correction no rule covers gives four 0 rows.
 * L2 1.0 (no search: the set is small, and a search on it would fit the choice to it too).
 * The cut: the lowest of 0.30, 0.35, ..., 0.90 at which the dev naming precision (the best
 * candidate over the cut is the target) reaches 0.9; the highest-precision cut when none does.
 *
 * Regenerate: `npm run build && node -e 'import("./dist/runtime/ladder/naming-fit.js").then((m) => process.stdout.write(m.namingWeightsText()))' > datasets/weights/ladder-naming.json`
 */
import { fitLogistic } from "../../learn/index.js";
import { shippedRuleNouls, RuleNamer } from "./naming.js";
import { NAMING_FEATURES, namingFeatures, namingProbability, type NamingWeights } from "./naming-model.js";
import { itemTurn, ledgerRules, namingItems, targetRule } from "./naming-set.js";
import { toolSummary } from "./naming.js";

export const NAMING_L2 = 1;
const CUTS = Array.from({ length: 13 }, (_, i) => Math.round((0.3 + 0.05 * i) * 100) / 100);

interface DevItem {
  target: string | null;
  rows: Array<{ rule: string; x: number[] }>;
}

function devItems(): { items: DevItem[]; projects: string[] } {
  const all = namingItems();
  const dev = all.filter((i) => i.split === "dev");
  const rules = ledgerRules([...new Set(dev.map((i) => i.repo))]);
  const raw = new RuleNamer(rules, shippedRuleNouls(), { value: 1, origin: "fit" }, null);
  const items = dev.map((it, k): DevItem => {
    const turn = itemTurn(it, k);
    const naming = raw.name(turn);
    const tools = turn.tools_before.map(toolSummary);
    const top = naming.candidates[0]?.score ?? 0;
    const rows = naming.candidates.map((c, i) => ({
      rule: c.rule.rule_id,
      x: namingFeatures({ text: turn.text, reply: turn.reply_before, tools }, { ruleText: [c.rule.text, ...c.rule.keywords].join(" "), covers: c.covers, score: c.score, rank: c.rank, top, next: naming.candidates[i + 1]?.score ?? 0 }),
    }));
    return { target: targetRule(rules, it)?.rule_id ?? null, rows };
  });
  return { items, projects: [...new Set(dev.map((i) => i.repo))].sort() };
}

/** Dev naming precision and recall of a model at a cut. */
function devFigures(items: readonly DevItem[], w: Pick<NamingWeights, "coef" | "intercept">, cut: number): { precision: number; recall: number } {
  let tp = 0;
  let fp = 0;
  let covered = 0;
  for (const it of items) {
    if (it.target !== null) covered++;
    let best: { rule: string; p: number } | null = null;
    for (const r of it.rows) {
      const p = namingProbability(w, r.x);
      if (best === null || p > best.p) best = { rule: r.rule, p };
    }
    if (best === null || best.p < cut) continue;
    if (best.rule === it.target) tp++;
    else fp++;
  }
  return { precision: tp + fp === 0 ? 0 : tp / (tp + fp), recall: covered === 0 ? 0 : tp / covered };
}

const round = (v: number): number => Math.round(v * 1e6) / 1e6;

export function fitNamingModel(): NamingWeights {
  const { items, projects } = devItems();
  const X = items.flatMap((i) => i.rows.map((r) => r.x));
  const y = items.flatMap((i) => i.rows.map((r) => (r.rule === i.target ? 1 : 0)));
  const m = fitLogistic(X, y, { l2: NAMING_L2 });
  const w = { coef: Array.from(m.coef, round), intercept: round(m.intercept) };
  const scored = CUTS.map((cut) => ({ cut, ...devFigures(items, w, cut) }));
  const cut = scored.find((s) => s.precision >= 0.9) ?? [...scored].sort((a, b) => b.precision - a.precision || a.cut - b.cut)[0]!;
  return {
    schema: "ladder-naming/1",
    features: [...NAMING_FEATURES],
    coef: w.coef,
    intercept: w.intercept,
    l2: NAMING_L2,
    cut: cut.cut,
    cut_origin: `naming model cut, chosen on datasets/ladder-naming dev projects (constructed corrections; lowest cut with naming precision >= 0.9 there: ${cut.precision.toFixed(3)}, recall ${cut.recall.toFixed(3)}; docs/ladder.md)`,
    trained_on: { set: "datasets/ladder-naming (CONSTRUCTED)", split: "dev", projects, items: items.length, rows: X.length, positives: y.filter((v) => v === 1).length },
  };
}

export function namingWeightsText(): string {
  return `${JSON.stringify(fitNamingModel(), null, 2)}\n`;
}
