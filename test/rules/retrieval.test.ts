// Retrieval quality on the synthetic plan (always synthetic): the covering rule among the
// four candidates, per language of the rule. The weights were chosen on seed 11; seed 12 is
// the report.
import { describe, expect, it } from "vitest";
import { generateRuleScenarios, planLabels } from "../../runtime/corpora/synthetic/rules.js";
import { buildIndex } from "../../runtime/rules/build.js";
import { retrievalRecall } from "../../runtime/rules/evaluate.js";
import { sourcesFromTexts } from "../../runtime/rules/sources.js";

function recall(seed: number) {
  const projects = generateRuleScenarios({ seed, projects: 24, failuresPerProject: 14 });
  return retrievalRecall(
    projects.map((p) => ({
      index: buildIndex(sourcesFromTexts(p.files), null, { today: "2026-12-01", projects: [] }).index,
      failures: p.failures.map((f) => ({ ...f, coveringText: f.covering === null ? null : (p.rules.find((r) => r.key === f.covering)?.text ?? null) })),
    })),
  );
}

describe("rule retrieval on the synthetic plan (synthetic)", () => {
  it("the generator is seeded: the same seed gives the same projects", () => {
    expect(generateRuleScenarios({ seed: 12, projects: 3, failuresPerProject: 5 })).toEqual(generateRuleScenarios({ seed: 12, projects: 3, failuresPerProject: 5 }));
    expect(generateRuleScenarios({ seed: 13, projects: 3, failuresPerProject: 5 })).not.toEqual(generateRuleScenarios({ seed: 12, projects: 3, failuresPerProject: 5 }));
  });

  it("the plan labels rule_covers for every (failure, rule) pair: one yes per covered failure, none for a gap", () => {
    const [p] = generateRuleScenarios({ seed: 12, projects: 1, failuresPerProject: 14 });
    if (p === undefined) throw new Error("no project");
    const labels = planLabels(p);
    const rules = new Set(labels.rule_covers.map((l) => l.rule_text));
    // Every rule of the files, as the index reads them (bullets, numbered items, table rows).
    const units = buildIndex(sourcesFromTexts(p.files), null, { today: "2026-12-01", projects: [] }).index.units.filter((u) => u.kind !== "paragraph");
    expect(rules.size).toBe(units.length);
    expect(labels.rule_covers).toHaveLength(p.failures.length * rules.size);
    for (const f of p.failures) {
      const yes = labels.rule_covers.filter((l) => l.failure_id === f.id && l.covers);
      expect(yes, f.id).toHaveLength(f.covering === null ? 0 : 1);
    }
    expect(labels.root_cause.map((r) => r.cause)).toEqual(p.failures.map((f) => f.root_cause));
  });

  it("held-out seed 12: recall@4 and recall@1 per language of the rule", () => {
    const r = recall(12);
    const round = (x: number | undefined) => Math.round((x ?? NaN) * 1000) / 1000;
    const table = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, { n: v.n, at4: round(v.at4), at1: round(v.at1) }]));
    console.log(`rule retrieval, synthetic seed 12 (held out): ${JSON.stringify(table)}`);
    // English meets the 0.9 goal; Chinese does not (docs/rules.md says why).
    expect(table).toEqual({
      en: { n: 199, at4: 0.905, at1: 0.668 },
      zh: { n: 38, at4: 0.842, at1: 0.342 },
      de: { n: 12, at4: 1, at1: 0.667 },
    });
    expect(r["en"]?.at4).toBeGreaterThanOrEqual(0.9);
  });
});
