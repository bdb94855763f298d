/**
 * Retrieval over the rule index: BM25 (see bm25.ts) over each unit's words, its section's
 * heading words and, for a table row, its header row's words.
 *
 * `searchRules` answers a person's query (`errata rules search`); `candidateRules` picks the
 * rules that might cover a failure, weighing the complaint and its failure class over the
 * reply's topic: each complaint word weighs 1, each word of the class's name and definition
 * 0.5, each word of the reply's end and of the tool-call summaries 0.4 (the reply says what
 * the assistant was doing, which narrows the topic but is not what the person objected to).
 * Terms are stemmed (see `terms`). The weights were chosen on one synthetic seed and are
 * reported on another (docs/rules.md).
 *
 * Example: `searchRules(index, "use bun not npm", 2)` -> `[{unit: {id: "claude.tools.4e1a2b", …}, score: 5.1}, …]`.
 */
import { isAbsolute, relative } from "node:path";
import type { RuleIndex, RuleUnit } from "../../schemas/rules.js";
import { addTerms, Bm25, termCounts } from "./bm25.js";
import { terms } from "./tokenize.js";

export const COMPLAINT_WEIGHT = 1;
export const CLASS_WEIGHT = 0.5;
export const REPLY_WEIGHT = 0.4;

export interface RuleHit {
  unit: RuleUnit;
  score: number;
}

/** The words a unit is found by. */
export function unitTerms(u: RuleUnit): string[] {
  return [...terms(u.text), ...terms(u.heading_path.join(" ")), ...(u.context === null ? [] : terms(u.context))];
}

export class RuleRetriever {
  private readonly bm25: Bm25;

  constructor(private readonly units: readonly RuleUnit[]) {
    this.bm25 = new Bm25(units.map(unitTerms));
  }

  /**
   * A retriever over the rules in view for a session working in `cwd`: the units of the
   * user's and managed files and of the projects whose folder holds `cwd`. With no `cwd`
   * (a session whose folder is unknown, a test), every unit.
   */
  static of(index: RuleIndex, cwd: string | null = null): RuleRetriever {
    if (cwd === null) return new RuleRetriever(index.units);
    const project = new Map(index.sources.map((s) => [s.source, s.project]));
    return new RuleRetriever(index.units.filter((u) => appliesTo(project.get(u.source) ?? null, cwd)));
  }

  search(query: ReadonlyMap<string, number>, limit: number): RuleHit[] {
    return this.bm25.search(query, limit).flatMap((h) => {
      const unit = this.units[h.doc];
      return unit === undefined ? [] : [{ unit, score: h.score }];
    });
  }
}

/** True when a source of project `project` (null: every project) applies to a session in `cwd`. */
export function appliesTo(project: string | null, cwd: string): boolean {
  if (project === null) return true;
  const rel = relative(project, cwd);
  return rel === "" || (!rel.startsWith("..") && !isAbsolute(rel));
}

export function searchRules(index: RuleIndex, text: string, limit: number): RuleHit[] {
  return RuleRetriever.of(index).search(termCounts(terms(text)), limit);
}

export interface FailureQuery {
  complaint: string;
  /** The failure class's name and description, e.g. "wrong tool: used a tool the person ruled out". */
  failureClass: string | null;
  reply: string | null;
  /** Summaries of the tool calls before the prompt (commands, file paths). */
  tools: readonly string[];
}

export function failureQuery(f: FailureQuery): Map<string, number> {
  const q = termCounts(terms(f.complaint), COMPLAINT_WEIGHT);
  if (f.failureClass !== null) addTerms(q, termCounts(terms(f.failureClass), CLASS_WEIGHT));
  if (f.reply !== null) addTerms(q, termCounts(terms(f.reply), REPLY_WEIGHT));
  for (const t of f.tools) addTerms(q, termCounts(terms(t), REPLY_WEIGHT));
  return q;
}

/** The four rules most likely to cover a failure (fewer when fewer share a word with it). */
export function candidateRules(retriever: RuleRetriever, f: FailureQuery, k = 4): RuleHit[] {
  return retriever.search(failureQuery(f), k);
}
