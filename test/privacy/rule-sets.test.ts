/**
 * The rule sets compared on the corpus (docs/privacy.md prints the table this test logs):
 * the kept combination misses no secret and hurts no look-alike, on both splits.
 */
import { describe, expect, it } from "vitest";
import { loadCorpus } from "./corpus.js";
import fc from "fast-check";
import { redactSecrets, redactSecretsUnfiltered } from "../../runtime/privacy/redact.js";
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

describe("the redactor on the corpus: properties", () => {
  const texts = [...corpus.secrets.map((s) => s.text), ...corpus.lookAlikes.map((l) => l.text)];
  it("is idempotent: a redacted text redacts to itself, with no kinds", () => {
    for (const t of texts) {
      const once = redactSecrets(t).text;
      expect(redactSecrets(once), t).toEqual({ text: once, kinds: [] });
    }
  });
  it("texts spliced from the corpus: the own rules' pre-checks skip no match, and a secret's marker never leaves its text unchanged", () => {
    const piece = fc.tuple(fc.constantFrom(...texts), fc.nat(), fc.nat()).map(([t, a, b]) => {
      const from = a % (t.length + 1);
      return t.slice(from, from + 1 + (b % (t.length + 1)));
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(piece, fc.constantFrom(" ", "\n", "=", ": ", "…", "://", '"', "'", "key", "_TOKEN", "-e ")), { maxLength: 10 }), (parts) => {
        const text = parts.join("");
        const r = redactSecrets(text);
        expect(r).toEqual(redactSecretsUnfiltered(text));
        expect(r.kinds.length === 0).toBe(r.text === text);
      }),
      { numRuns: 1500, seed: 20261201 },
    );
  });
});
