import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { classify } from "../../runtime/classifier/classify.js";
import { languages } from "../../runtime/classifier/lang-data.js";

const LANGUAGES = languages();

interface LabelledPrompt {
  text: string;
  reply: string | null;
  kind: string;
  rating?: number;
}

/** One labelled test set per language: realistic prompts with the reply they answer. */
function load(code: string): LabelledPrompt[] {
  const file = new URL(`./lang/${code}.jsonl`, import.meta.url);
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as LabelledPrompt);
}

describe.each(LANGUAGES.map((l) => l.code))("language %s", (code) => {
  const items = load(code);

  it("has a set of at least 30 items with positives of every kind and negatives", () => {
    expect(items.length).toBeGreaterThanOrEqual(30);
    for (const kind of ["rating", "correction", "directive", "praise", "none"]) {
      expect(items.filter((i) => i.kind === kind).length, kind).toBeGreaterThanOrEqual(3);
    }
  });

  it.each(items.map((i) => [i.text, i] as const))("%j", (_text, item) => {
    const r = classify(item.text, { previousReply: item.reply });
    expect(r.kind).toBe(item.kind);
    if (item.rating !== undefined) expect(r.rating).toBe(item.rating);
    // The language's own rules decided (Spanish shares "no" with English).
    if (r.kind !== "none" && r.kind !== "rating") {
      const own = code === "es" ? [".es.", ".en."] : [`.${code}.`];
      expect(r.signals.some((s) => own.some((o) => s.includes(o)))).toBe(true);
    }
  });
});
