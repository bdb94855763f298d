/**
 * The naming model out of fold on its own fit set (datasets/ladder-naming's items.jsonl, 169
 * CONSTRUCTED corrections, 16 projects): each project's corrections named by a model fitted
 * without it (naming-fit.ts foldModels), at the shipped cuts, and the whole incident reading
 * (turnLines) run on them. This is the figure docs/ladder.md reports for the fit set; the cuts
 * themselves were chosen on these out-of-fold probabilities, so it is a little kind to them.
 * Prints the figures; asserts floors under them, so a regression fails.
 */
import { describe, expect, it } from "vitest";
import { causeModel, RuleNamer, shippedRuleNouls, turnLines } from "../../runtime/ladder/index.js";
import { foldModels } from "../../runtime/ladder/naming-fit.js";
import { shippedNamingModel } from "../../runtime/ladder/naming-model.js";
import { DEFAULT_COVER_CUT, DEFAULT_NAMING_CUT } from "../../runtime/ladder/naming.js";
import { itemTurn, ledgerRules, namingItems, targetRule } from "./naming-set.js";

const pct = (a: number, b: number): string => (b === 0 ? "n/a" : `${a}/${b} = ${(a / b).toFixed(3)}`);

describe("the naming model out of fold (leave one project out) on its fit set", () => {
  it("reports incident precision/recall, recall@1/@4 and the fix type per batch and overall", () => {
    const items = namingItems();
    const rules = ledgerRules([...new Set(items.map((i) => i.repo))]);
    const { folds } = foldModels();
    const shipped = shippedNamingModel()!;
    const namers = new Map([...folds].map(([p, w]) => [p, new RuleNamer(rules, shippedRuleNouls(), DEFAULT_NAMING_CUT, { ...shipped, ...w }, DEFAULT_COVER_CUT)]));
    const model = causeModel();
    type Tally = { n: number; cov: number; r1: number; r4: number; tp: number; fp: number; fn: number; fixNamed: number; fixCovered: number; fixDecision: number; undecided: number };
    const zero = (): Tally => ({ n: 0, cov: 0, r1: 0, r4: 0, tp: 0, fp: 0, fn: 0, fixNamed: 0, fixCovered: 0, fixDecision: 0, undecided: 0 });
    const by = new Map<string, Tally>();
    for (const [k, it] of items.entries()) {
      const namer = namers.get(it.repo)!;
      const target = targetRule(rules, it);
      const turn = itemTurn(it, k);
      const naming = namer.name(turn);
      for (const key of [it.split, "all"]) {
        const t = by.get(key) ?? zero();
        by.set(key, t);
        t.n++;
        if (target !== null) {
          t.cov++;
          if (naming.candidates[0]?.rule.rule_id === target.rule_id) t.r1++;
          if (naming.candidates.some((c) => c.rule.rule_id === target.rule_id)) t.r4++;
        }
        // The fix type three ways: from "named a rule or not" (before the split; the named rule must be the target),
        // from the covered-or-not decision with no wrong rule named, and the covered-or-not decision alone.
        const covers = it.fix === "enforce_rule";
        const wrongNamed = naming.named !== null && naming.named.rule.rule_id !== target?.rule_id;
        if ((naming.named !== null) === covers && !wrongNamed) t.fixNamed++;
        if (naming.covered === covers && !wrongNamed) t.fixCovered++;
        if (naming.covered === covers) t.fixDecision++;
        if (naming.covered && naming.named === null) t.undecided++;
      }
      const out = turnLines(turn, rules, [], (x) => model.sort(x.text, x.reply_before), { namer });
      const counted = out.lines.filter((l) => l.kind === "incident").map((l) => l.rule_id);
      const right = it.label === "incident" && target !== null && counted.length === 1 && counted[0] === target.rule_id;
      for (const key of [it.split, "all"]) {
        const t = by.get(key)!;
        if (right) t.tp++;
        else {
          t.fp += counted.length;
          if (it.label === "incident") t.fn++;
        }
      }
    }
    const lines = [...by].map(
      ([k, t]) =>
        `${k} (${t.n}): incident precision ${pct(t.tp, t.tp + t.fp)}, recall ${pct(t.tp, t.tp + t.fn)}; recall@1 ${pct(t.r1, t.cov)}, recall@4 ${pct(t.r4, t.cov)}; fix type: covered decision, no wrong rule named ${pct(t.fixCovered, t.n)} (decision alone ${pct(t.fixDecision, t.n)}; from named-or-not ${pct(t.fixNamed, t.n)}); covered, rule undecided ${t.undecided}`,
    );
    console.log(`naming out of fold, cuts ${DEFAULT_NAMING_CUT.value} / cover ${DEFAULT_COVER_CUT.value}:\n${lines.join("\n")}`);
    const all = by.get("all")!;
    expect(all.n).toBe(169);
    // Floors under the measured out-of-fold figures (docs/ladder.md).
    expect(all.tp / (all.tp + all.fp)).toBeGreaterThanOrEqual(0.85);
    expect(all.tp / (all.tp + all.fn)).toBeGreaterThanOrEqual(0.6);
    expect(all.r1 / all.cov).toBeGreaterThanOrEqual(0.8);
    expect(all.fixCovered / all.n).toBeGreaterThanOrEqual(0.8);
    // The covered decision never does worse than named-or-not on the same items.
    expect(all.fixCovered).toBeGreaterThanOrEqual(all.fixNamed);
  });
});
