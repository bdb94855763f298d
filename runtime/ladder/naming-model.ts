/**
 * The naming model: which of the rules wing's four candidates a correction names, as one
 * logistic model over a few features of each candidate. `rules.rule_covers` alone (the offline
 * rules model, fitted on synthetic scenarios) leans on the rule's words in the reply and reads
 * no other language; this model weighs it beside the retrieval score, the rank and its gap to
 * the next, and the words the correction and the rule share once the multilingual lexicon
 * (lexicon.ts) has put both in English.
 *
 * Each candidate also carries its margins over the other candidates (withMargins).
 *
 * Fitted (naming-fit.ts) on every batch of datasets/ladder-naming (items.jsonl and fresh2.jsonl:
 * 23 projects), its two cuts chosen by leave-one-project-out, and shipped as data
 * (`datasets/weights/ladder-naming.json`); docs/ladder.md has its figures by nested
 * leave-one-project-out. `test/ladder/naming-weights.test.ts` refits and checks the file byte for byte.
 *
 * Example: namingFeatures({text: "Niemals geheime Werte ausgeben", ...}, candidate "Never echo,
 * print, or log secret values", p_covers 0.15) -> [-1.73, 1, 2.1, 1, 0.6, 0.67, ...].
 */
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { terms } from "../rules/index.js";
import { contentTerms } from "./gaps.js";
import { lexiconWords } from "./lexicon.js";

export const NAMING_FEATURES = [
  "covers_logit",
  "score_ratio",
  "log_score",
  "rank1",
  "gap_ratio",
  "said_share",
  "rule_share",
  "said_hits",
  "reply_share",
  "foreign",
  "unique_hits",
  "witness",
  "directive",
  // Margins: the candidate's own value less the best of the other candidates' (withMargins).
  "covers_margin",
  "said_share_margin",
  "rule_share_margin",
  "unique_margin",
  "witness_margin",
] as const;

/** The per-candidate features (namingFeatures) that withMargins compares across the candidates, by index. */
export const MARGIN_OF = [0, 5, 6, 10, 11] as const;

/**
 * Each candidate's features with its margins over the other candidates appended: for the
 * rule_covers logit, the two word shares, the words only it shares and the witness, its value
 * less the highest of the other candidates' (0 with no other candidate). Between two close
 * rules of one file what tells them apart is how far one leads, not how high both score; a
 * candidate far ahead of the rest is named with more confidence than one of two level ones.
 *
 * Example: withMargins([[a0..a12], [b0..b12]]) -> [[a0..a12, a0-b0, a5-b5, a6-b6, a10-b10, a11-b11], [...]].
 */
export function withMargins(rows: ReadonlyArray<readonly number[]>): number[][] {
  return rows.map((x, i) => [
    ...x,
    ...MARGIN_OF.map((k) => {
      let best = -Infinity;
      for (let j = 0; j < rows.length; j++) if (j !== i) best = Math.max(best, rows[j]![k] ?? 0);
      return best === -Infinity ? 0 : (x[k] ?? 0) - best;
    }),
  ]);
}

/**
 * Whether a rule's text directs (a modal, a prohibition, an imperative opening) rather than
 * describes ("`/api`: proto definitions", "Build system uses esbuild"): what an owner corrects
 * is nearly always a directive; a file's descriptive lines share its words without being
 * rules anyone can break. General to instruction files, written from their shapes (README of
 * datasets/claude-md), not from the labelled corrections.
 */
const DIRECTIVE = /\b(never|always|must|mustn'?t|should|shouldn'?t|do not|don'?t|avoid|prefer|only|required?|forbidden|mandatory|ensure|make sure|no)\b|^\W*(\d+\.\s*)?(\*\*[^*]+\*\*:?\s*)?(use|run|keep|add|write|follow|put|place|check|verify|handle|include|leave|test|delete|remove|document|read|create|mimic|implement|prefer|update|regenerate|start|commit|call|go|let|be|do|validate|assert|own|compare|explain|state|reason|break|consider|list|provide|discuss)\b|必须|不要|禁止|应该|应当|请|务必|不得|不能|严禁|❌|✅/iu;

export function isDirective(ruleText: string): boolean {
  return DIRECTIVE.test(ruleText);
}

export const NamingWeightsSchema = z
  .object({
    schema: z.literal("ladder-naming/3"),
    features: z.array(z.string()),
    coef: z.array(z.number()),
    intercept: z.number(),
    l2: z.number(),
    cut: z.number(),
    cut_origin: z.string(),
    /**
     * The covered-or-not decision (enforce_rule vs add_rule), apart from naming: some candidate's
     * P at or over it says a rule of the project covers the correction even when none is named
     * (the best under the naming cut): not a rule gap, the rule undecided.
     */
    cover_cut: z.number(),
    cover_cut_origin: z.string(),
    trained_on: z.object({ set: z.string(), split: z.string(), projects: z.array(z.string()), items: z.number(), rows: z.number(), positives: z.number() }),
  })
  .strict();
export type NamingWeights = z.infer<typeof NamingWeightsSchema>;

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]/;

/**
 * The key terms of the texts met lately (see keyTerms). Naming reads the same rule texts for
 * every correction of a project, and a text's words come from Intl.Segmenter, most of the
 * namer's cost: each text is segmented once. Bounded: short texts only, emptied when full.
 */
const KEY_TERMS = new Map<string, ReadonlySet<string>>();
const KEY_TERMS_MAX = 4096;
const KEY_TERMS_TEXT_MAX = 4000;

/** A text's subject words, in English where the lexicon knows them (Chinese, Japanese and Korean words of two characters kept). Shared between calls: read-only. */
export function keyTerms(text: string): ReadonlySet<string> {
  let out = KEY_TERMS.get(text);
  if (out !== undefined) return out;
  const made = new Set(contentTerms(text));
  for (const t of terms(text)) if (CJK.test(t) && t.length >= 2) made.add(t);
  for (const t of terms(lexiconWords(text).join(" "))) made.add(t);
  out = made;
  if (text.length <= KEY_TERMS_TEXT_MAX) {
    if (KEY_TERMS.size >= KEY_TERMS_MAX) KEY_TERMS.clear();
    KEY_TERMS.set(text, out);
  }
  return out;
}

export interface NamingCandidate {
  /** The rule's text (and its keywords). */
  ruleText: string;
  score: number;
  rank: number;
  top: number;
  next: number;
  /** rules.rule_covers' P(yes) for this candidate. */
  covers: number;
  /** The key terms of the other candidates' rules (what this rule shares with them tells nothing apart). */
  others?: ReadonlySet<string>;
  /** The rule's witness on the reply and tool calls before: 1 broken, -1 kept, 0 nothing read (derive.ts witnessOf). */
  witness?: number;
}


export interface NamingTurn {
  text: string;
  reply: string | null;
  tools: readonly string[];
}

const share = (of: ReadonlySet<string>, within: ReadonlySet<string>): number => {
  if (of.size === 0) return 0;
  let n = 0;
  for (const t of of) if (within.has(t)) n++;
  return n / of.size;
};

/** What namingFeatures reads of the turn alone, the same for each of its candidates (work it out once per turn). */
export interface NamingTurnTerms {
  /** The key terms of the reply and tool calls before. */
  replySide: ReadonlySet<string>;
  /** 1 when the lexicon reads a term in the correction that its own words lack (another language). */
  foreign: number;
}

export function namingTurnTerms(turn: NamingTurn): NamingTurnTerms {
  const ownTerms = new Set(terms(turn.text));
  return {
    replySide: keyTerms([turn.reply ?? "", ...turn.tools].join(" ")),
    foreign: [...terms(lexiconWords(turn.text).join(" "))].some((t) => !ownTerms.has(t)) ? 1 : 0,
  };
}

export function namingFeatures(turn: NamingTurn, c: NamingCandidate, said: ReadonlySet<string> = keyTerms(turn.text), side: NamingTurnTerms = namingTurnTerms(turn)): number[] {
  const rule = keyTerms(c.ruleText);
  const { replySide, foreign } = side;
  const p = Math.min(1 - 1e-6, Math.max(1e-6, c.covers));
  let hits = 0;
  for (const t of said) if (rule.has(t)) hits++;
  // What only this candidate shares with the correction: between two close rules, the words
  // they both carry say nothing; the ones only one of them has do.
  let unique = 0;
  for (const t of said) if (rule.has(t) && !(c.others?.has(t) ?? false)) unique++;
  return [
    Math.log(p / (1 - p)),
    c.top > 0 ? c.score / c.top : 0,
    Math.log1p(c.score),
    c.rank === 1 ? 1 : 0,
    c.top > 0 ? (c.score - c.next) / c.top : 0,
    share(said, rule),
    share(rule, said),
    Math.min(hits, 4) / 4,
    share(rule, replySide),
    foreign,
    Math.min(unique, 3) / 3,
    c.witness ?? 0,
    isDirective(c.ruleText) ? 1 : 0,
  ];
}

export function namingProbability(w: Pick<NamingWeights, "coef" | "intercept">, x: readonly number[]): number {
  let z = w.intercept;
  for (let i = 0; i < x.length; i++) z += (w.coef[i] ?? 0) * (x[i] ?? 0);
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

let cached: NamingWeights | null | undefined;
/** The shipped naming model; null when a build has none (then rule_covers alone names, at 0.45). */
export function shippedNamingModel(): NamingWeights | null {
  if (cached !== undefined) return cached;
  for (const up of ["../../", "../../../"]) {
    const u = new URL(`${up}datasets/weights/ladder-naming.json`, import.meta.url);
    if (existsSync(u)) return (cached = NamingWeightsSchema.parse(JSON.parse(readFileSync(u, "utf8"))));
  }
  return (cached = null);
}
