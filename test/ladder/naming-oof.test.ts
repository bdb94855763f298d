/**
 * The naming model out of fold on its fit set (datasets/ladder-naming's items.jsonl and
 * fresh2.jsonl: 272 CONSTRUCTED corrections, 23 projects), by nested leave one project out
 * (naming-fit.ts nestedFigures): each project's corrections named by a model fitted without it,
 * at cuts chosen without it (on the other projects' own out-of-fold curve), and the whole
 * incident reading (turnLines) run on them. This is the figure docs/ladder.md reports, per
 * batch and per language. Prints the figures; asserts floors under them, so a regression fails.
 */
import { describe, expect, it } from "vitest";
import { nestedFigures } from "../../runtime/ladder/naming-fit.js";
import { fresh2Items, namingItems } from "./naming-set.js";

const pct = (a: number, b: number): string => (b === 0 ? "n/a" : `${a}/${b} = ${(a / b).toFixed(3)}`);

describe("the naming model by nested leave-one-project-out on its fit set", () => {
  it("reports incident precision/recall, recall@1/@4 and the fix type per batch and per language", () => {
    const items = new Map([...namingItems(), ...fresh2Items()].map((i) => [i.id, i]));
    const out = nestedFigures();
    expect(out.length).toBe(272);
    expect(new Set(out.map((o) => o.id)).size).toBe(272);
    type Tally = { n: number; cov: number; r1: number; r4: number; tp: number; fp: number; inc: number; fix: number; fixNoWrong: number; undecided: number };
    const zero = (): Tally => ({ n: 0, cov: 0, r1: 0, r4: 0, tp: 0, fp: 0, inc: 0, fix: 0, fixNoWrong: 0, undecided: 0 });
    const by = new Map<string, Tally>();
    for (const o of out) {
      const it = items.get(o.id)!;
      // Every choice for a project was made without it (nestedFigures); its naming cut is a point of the grid, and a rule is named only at or over it.
      expect(o.cut).toBeGreaterThanOrEqual(0.05);
      expect(o.cut).toBeLessThanOrEqual(0.9);
      expect(o.named === null || o.best?.rule === o.named).toBe(true);
      expect(o.named === null ? o.best === null || o.best.p < o.cut : o.best!.p >= o.cut).toBe(true);
      expect(o.covered).toBe(o.best !== null && o.best.p >= o.coverCut);
      const target = o.targetPlace;
      const covers = it.fix === "enforce_rule";
      const wrongNamed = o.named !== null && target !== 1;
      for (const key of [it.split === "fresh2" ? "fresh2" : "items.jsonl", `lang ${it.lang}`, "all"]) {
        const t = by.get(key) ?? zero();
        by.set(key, t);
        t.n++;
        if (it.rule_starts !== null) {
          t.cov++;
          if (target === 1) t.r1++;
          if (target !== null && target <= 4) t.r4++;
        }
        if (it.label === "incident") t.inc++;
        if (o.right) t.tp++;
        t.fp += o.falseIncidents;
        if (o.covered === covers) t.fix++;
        if (o.covered === covers && !wrongNamed) t.fixNoWrong++;
        if (o.covered && o.named === null) t.undecided++;
      }
    }
    const lines = [...by].map(
      ([k, t]) =>
        `${k} (${t.n}): incident precision ${pct(t.tp, t.tp + t.fp)}, recall ${pct(t.tp, t.inc)}; recall@1 ${pct(t.r1, t.cov)}, recall@4 ${pct(t.r4, t.cov)}; fix type ${pct(t.fix, t.n)} (no wrong rule named ${pct(t.fixNoWrong, t.n)}); covered, rule undecided ${t.undecided}`,
    );
    const cuts = [...new Map(out.map((o) => [o.project, `${o.cut}/${o.coverCut}`]))].map(([p, c]) => `${p} ${c}`);
    console.log(`naming, nested leave-one-project-out (272 items, 23 projects):\n${lines.join("\n")}\ncuts per held-out project (naming/cover): ${cuts.join(", ")}`);
    const all = by.get("all")!;
    expect(all.n).toBe(272);
    expect(all.inc).toBe(203);
    // Floors under the measured figures (docs/ladder.md): a regression fails here.
    expect(all.tp / (all.tp + all.fp)).toBeGreaterThanOrEqual(0.84);
    expect(all.tp / all.inc).toBeGreaterThanOrEqual(0.64);
    expect(all.r1 / all.cov).toBeGreaterThanOrEqual(0.82);
    expect(all.r4 / all.cov).toBeGreaterThanOrEqual(0.95);
    expect(all.fix / all.n).toBeGreaterThanOrEqual(0.84);
  });
});
