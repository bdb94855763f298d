// Retrieval on real rule text: the constructed (complaint, covering rule) pairs over the
// bundled instruction files (datasets/claude-md-pairs; constructed, not observed).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildIndex } from "../../runtime/rules/build.js";
import { classText } from "../../runtime/rules/evaluate.js";
import { candidateRules, RuleRetriever } from "../../runtime/rules/search.js";
import { discoverSources } from "../../runtime/rules/sources.js";
import { claudeMdDir, repoRoot } from "./helpers.js";

interface Pair {
  repo: string;
  rule_starts: string;
  complaint: string;
  reply: string;
  tools: string[];
  cls: string;
}

const pairs = readFileSync(join(repoRoot, "datasets", "claude-md-pairs", "pairs.jsonl"), "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l) as Pair);

describe("retrieval on real rules, constructed complaints (constructed)", () => {
  it("the covering rule is among the four candidates; the ranks are printed", () => {
    const ranks: number[] = [];
    for (const p of pairs) {
      const index = buildIndex(discoverSources({ root: join(claudeMdDir, p.repo), home: null, managed: [], extra: [] }), null, { today: "2026-12-01", projects: [] }).index;
      const target = index.units.find((u) => u.text.startsWith(p.rule_starts));
      expect(target, `${p.repo}: ${p.rule_starts}`).toBeDefined();
      const hits = candidateRules(RuleRetriever.of(index), { complaint: p.complaint, failureClass: classText(p.cls), reply: p.reply, tools: p.tools });
      ranks.push(hits.findIndex((h) => h.unit.id === target?.id) + 1);
    }
    const at4 = ranks.filter((r) => r > 0).length;
    const at1 = ranks.filter((r) => r === 1).length;
    console.log(`constructed pairs on real rules: ${pairs.length} pairs, recall@4 ${at4}/${pairs.length}, recall@1 ${at1}/${pairs.length}; ranks ${JSON.stringify(ranks)} (0 = not among the four)`);
    expect(pairs).toHaveLength(16);
    // Written by someone who had read the rules, so optimistic: a floor, not an estimate.
    expect([at4, at1]).toEqual([16, 10]);
  });
});
