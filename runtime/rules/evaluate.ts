/**
 * Retrieval quality on labelled failures: for every failure whose covering rule is known,
 * where that rule ranks among the retriever's candidates. Reported per language of the rule
 * as recall@4 (the covering rule among the four candidates coverage asks about) and recall@1.
 *
 * Example: on the synthetic plan (seed 12, 24 projects) -> `{en: {n: 199, at4: 0.905, at1: 0.668}, …}`.
 */
import { InvariantError } from "../../core/errors.js";
import { classes } from "../../questions/index.js";
import type { RuleIndex } from "../../schemas/rules.js";
import { candidateRules, RuleRetriever } from "./search.js";

export interface LabelledFailure {
  prompt: string;
  reply: string;
  tools: ReadonlyArray<{ summary: string }>;
  cls: string;
  lang: string;
  /** The covering rule's text as written in its file, or null when no rule covers it. */
  coveringText: string | null;
}

export interface RecallRow {
  n: number;
  at4: number;
  at1: number;
}

/** The failure class's words for retrieval: its name and definition. */
export function classText(cls: string | null): string | null {
  const c = classes.find((x) => x.id === cls);
  return c === undefined ? null : `${c.name}: ${c.definition}`;
}

export function retrievalRecall(projects: ReadonlyArray<{ index: RuleIndex; failures: readonly LabelledFailure[] }>): Record<string, RecallRow> {
  const counts: Record<string, { n: number; at4: number; at1: number }> = {};
  for (const p of projects) {
    const retriever = RuleRetriever.of(p.index);
    for (const f of p.failures) {
      if (f.coveringText === null) continue;
      const text = f.coveringText;
      const unit = p.index.units.find((u) => u.text.includes(text));
      if (unit === undefined) throw new InvariantError("NOT_INDEXED", "a covering rule of the plan is not in the index", { expected: "a unit holding the rule's text", found: text });
      const hits = candidateRules(retriever, { complaint: f.prompt, failureClass: classText(f.cls), reply: f.reply, tools: f.tools.map((t) => t.summary) });
      const rank = hits.findIndex((h) => h.unit.id === unit.id);
      const row = (counts[f.lang] ??= { n: 0, at4: 0, at1: 0 });
      row.n++;
      if (rank >= 0) row.at4++;
      if (rank === 0) row.at1++;
    }
  }
  const out: Record<string, RecallRow> = {};
  for (const [lang, c] of Object.entries(counts)) out[lang] = { n: c.n, at4: c.at4 / c.n, at1: c.at1 / c.n };
  return out;
}
