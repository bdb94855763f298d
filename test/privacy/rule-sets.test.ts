/**
 * The rule sets compared on the corpus (docs/privacy.md prints the table this test logs):
 * the kept combination misses no secret and hurts no look-alike, on both splits.
 */
import { describe, expect, it } from "vitest";
import { loadCorpus } from "./corpus.js";
import { REDACTORS, score } from "./rule-sets.js";

const corpus = loadCorpus();

describe("rule sets on the corpus", () => {
  it("prints the comparison; the kept combination misses nothing and keeps every look-alike", async () => {
    const rows: string[] = [];
    const kept: { split: string; missed: string[]; hurt: string[] }[] = [];
    for (const split of ["dev", "held-out"] as const) {
      const secrets = corpus.secrets.filter((s) => s.split === split);
      const looks = corpus.lookAlikes.filter((l) => l.split === split);
      for (const [name, redact] of Object.entries(REDACTORS)) {
        const s = await score(redact, secrets, looks);
        rows.push(`| ${split} | ${name} | ${secrets.length - s.missed.length}/${secrets.length} | ${looks.length - s.hurt.length}/${looks.length} | ${s.missed.join(", ")} | ${s.hurt.join(", ")} |`);
        if (name.startsWith("kept")) kept.push({ split, ...s });
      }
    }
    process.stdout.write(`| split | rule set | secrets caught | look-alikes kept | missed | hurt |\n|---|---|---|---|---|---|\n${rows.join("\n")}\n`);
    expect(kept).toEqual([
      { split: "dev", missed: [], hurt: [] },
      { split: "held-out", missed: [], hurt: [] },
    ]);
  });
});
