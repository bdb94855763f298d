/**
 * Which rule a correction names, through the rules wing only: BM25 retrieval (runtime/rules
 * search.ts) over the rules of the session's own project and the user's own files (the
 * project from the transcript's `cwd`), then the `rules.rule_covers` noul for each of the four
 * candidates (the offline rules model, datasets/weights/rules-nouls.json), and a cut on its
 * P(yes) whose origin is recorded with every incident. A shared word never names a rule.
 *
 * A rule of the ledger belongs to a project (`project`: its folder; null: the user's or managed
 * files, in every project). A rule the ledger knows without a project (written before rules
 * carried one, or by hand) is in every session's scope; the auditor fills the project in from
 * the rule index where it can.
 *
 * Example: nameRules(turn "you force-pushed again!" in /src/app, rules of /src/app and /src/b)
 * -> [{rule_id: "app-claude.git.1a2b3c", p: 0.83, rank: 1}] (never a rule of /src/b).
 */
import { existsSync, readFileSync } from "node:fs";
import type { CaptureVerdict } from "../classifier/index.js";
import { classify } from "../classifier/index.js";
import { appliesTo, COMPLAINT_WEIGHT, failureQuery, noulProbability, ruleCoversFeatures, RuleRetriever, terms, type RuleNoulWeights } from "../rules/index.js";
import { lexiconWords } from "./lexicon.js";
import { witnessOf } from "./derive.js";
import { keyTerms, namingFeatures, namingProbability, namingTurnTerms, shippedNamingModel, withMargins, type NamingWeights } from "./naming-model.js";
import { RuleNoulWeightsSchema, type RuleUnit } from "../../schemas/rules.js";
import type { LedgerRule } from "./ledger.js";
import type { OwnerTurn, ToolUseLite } from "./signals.js";

/** The cut on rule_covers' P(yes) and where it came from (printed with every incident). */
export interface NamingCut {
  value: number;
  origin: string;
}

/**
 * The cut and its origin: the shipped naming model's (datasets/weights/ladder-naming.json,
 * chosen with it by leave-one-project-out on every project of datasets/ladder-naming), else
 * rule_covers' own 0.45 (chosen earlier on its dev projects). Figures in docs/ladder.md.
 */
const SHIPPED_MODEL = shippedNamingModel();
export const DEFAULT_NAMING_CUT: NamingCut =
  SHIPPED_MODEL !== null
    ? { value: SHIPPED_MODEL.cut, origin: SHIPPED_MODEL.cut_origin }
    : { value: 0.45, origin: "rules.rule_covers alone, calibrated on datasets/ladder-naming dev projects (constructed corrections; lowest cut with incident precision >= 0.9 there; docs/ladder.md)" };
/**
 * The covered-or-not cut (enforce_rule vs add_rule) and its origin: the shipped model's, else
 * the naming cut itself (covered exactly when a rule is named, as before the split).
 */
export const DEFAULT_COVER_CUT: NamingCut = SHIPPED_MODEL !== null ? { value: SHIPPED_MODEL.cover_cut, origin: SHIPPED_MODEL.cover_cut_origin } : DEFAULT_NAMING_CUT;
export const NAMING_CANDIDATES = 4;

export interface NamedRule {
  rule: LedgerRule;
  /** P(this rule is the one named): the naming model's, or rule_covers' when there is none. */
  p: number;
  rank: number;
  /** rules.rule_covers' P(yes) and the retrieval score (what the naming model reads). */
  covers: number;
  score: number;
}

export interface Naming {
  /** The candidates retrieval found, best first, with their P(yes). */
  candidates: NamedRule[];
  /** The rule the correction names (the best candidate at or over the cut), or none. */
  named: NamedRule | null;
  /**
   * Some rule of the project covers the correction (the best candidate at or over the cover
   * cut): enforce_rule, not add_rule. Covered with nothing named: which rule is undecided, and
   * the correction is no rule gap (no new rule is drafted from it).
   */
  covered: boolean;
  /** false: the rules model has no weights, nothing can be named (every candidate unscored). */
  scored: boolean;
}

let cachedWeights: RuleNoulWeights | null | undefined;
/** The shipped rules model (the same file `errata rules cover` reads offline); null when a build has none. */
export function shippedRuleNouls(): RuleNoulWeights | null {
  if (cachedWeights !== undefined) return cachedWeights;
  for (const up of ["../../", "../../../"]) {
    const u = new URL(`${up}datasets/weights/rules-nouls.json`, import.meta.url);
    if (existsSync(u)) return (cachedWeights = RuleNoulWeightsSchema.parse(JSON.parse(readFileSync(u, "utf8"))));
  }
  return (cachedWeights = null);
}

/** The lexicon's English terms for a text that the text does not already have (another language's words). */
export function crossTerms(text: string): string[] {
  const own = new Set(terms(text));
  return [...new Set(terms(lexiconWords(text).join(" ")))].filter((t) => !own.has(t));
}

/** A ledger rule as a unit of the rule index (what retrieval and the noul's features read); a rule in another language also carries the lexicon's English words. */
function asUnit(r: LedgerRule): RuleUnit {
  const cross = lexiconWords(r.text).filter((w) => !terms(r.text).includes(terms(w)[0] ?? w));
  const context = [...r.keywords, ...cross];
  const section = r.location.kind === "text" && r.location.section !== null ? r.location.section.split(" > ") : [];
  return {
    id: r.rule_id,
    source: "ledger",
    kind: "bullet",
    heading_path: section,
    text: r.text,
    context: context.length > 0 ? context.join(" ") : null,
    hash: "",
    line_start: 0,
    line_end: 0,
    position: 0,
    file_lines: 0,
    first_seen: "",
    last_changed: "",
    dates_from: "index",
    first_seen_known: false,
    scope: null,
  } as RuleUnit;
}

/** What a tool call did, as a retrieval summary: the command that ran, the file written and its text. */
export function toolSummary(t: ToolUseLite): string {
  const parts = ["command", "file_path", "content", "new_string"].map((k) => t.input[k]).filter((v): v is string => typeof v === "string");
  return `${t.name} ${parts.join(" ")}`.slice(0, 400);
}

/** True when rule `r` is in scope for a session in `cwd` (null cwd: only rules of every project). */
export function inScope(r: LedgerRule, cwd: string | null): boolean {
  if (r.project === undefined || r.project === null) return true;
  return cwd !== null && appliesTo(r.project, cwd);
}

export class RuleNamer {
  private readonly retrievers = new Map<string, { rules: LedgerRule[]; retriever: RuleRetriever }>();

  constructor(
    private readonly rules: readonly LedgerRule[],
    private readonly weights: RuleNoulWeights | null = shippedRuleNouls(),
    readonly cut: NamingCut = DEFAULT_NAMING_CUT,
    /** The naming model over the candidates (null: rule_covers' P(yes) alone decides). */
    private readonly model: NamingWeights | null = SHIPPED_MODEL,
    /** The covered-or-not cut (default: the shipped model's; with a cut of its own and no model: that cut). */
    readonly coverCut: NamingCut = model === SHIPPED_MODEL && cut === DEFAULT_NAMING_CUT ? DEFAULT_COVER_CUT : cut,
  ) {}

  private scope(cwd: string | null): { rules: LedgerRule[]; retriever: RuleRetriever } {
    const key = cwd ?? "\u0000";
    let s = this.retrievers.get(key);
    if (s === undefined) {
      const rules = this.rules.filter((r) => inScope(r, cwd));
      this.retrievers.set(key, (s = { rules, retriever: new RuleRetriever(rules.map(asUnit)) }));
    }
    return s;
  }

  /**
   * Retrieval's candidates for a turn with rule_covers' P(yes) and the naming model's features
   * (what `name` scores and what naming-fit.ts fits on). Empty when the rules model has no weights.
   */
  features(turn: Pick<OwnerTurn, "text" | "reply_before" | "tools_before" | "cwd">, verdict: CaptureVerdict = classify(turn.text, { previousReply: turn.reply_before }), pool = NAMING_CANDIDATES): { scored: boolean; rows: Array<{ rule: LedgerRule; covers: number; score: number; rank: number; x: number[] }> } {
    const { rules, retriever } = this.scope(turn.cwd ?? null);
    const tools = turn.tools_before.map(toolSummary);
    const query = failureQuery({ complaint: turn.text, failureClass: null, reply: turn.reply_before, tools });
    // A correction in another language than the rules: the lexicon's English words join the query.
    for (const t of crossTerms(turn.text)) query.set(t, (query.get(t) ?? 0) + COMPLAINT_WEIGHT);
    const hits = retriever.search(query, pool);
    if (this.weights === null) return { scored: false, rows: [] };
    const byId = new Map(rules.map((r) => [r.rule_id, r]));
    const said = keyTerms(turn.text);
    const side = namingTurnTerms({ text: turn.text, reply: turn.reply_before, tools });
    const found = hits.flatMap((h, i) => {
      const rule = byId.get(h.unit.id);
      return rule === undefined ? [] : [{ h, i, rule, key: keyTerms([rule.text, ...rule.keywords].join(" ")) }];
    });
    const rows = found.map(({ h, i, rule }, j) => {
      const ctx = { score: h.score, rank: i + 1, top: hits[0]?.score ?? 0, next: hits[i + 1]?.score ?? 0 };
      const x = ruleCoversFeatures({ complaint: turn.text, reply: turn.reply_before, tools, cls: null }, { unit: h.unit, ...ctx }, verdict);
      const covers = noulProbability(this.weights!.rule_covers, x);
      const others = new Set(found.flatMap((f, k) => (k === j ? [] : [...f.key])));
      const w = witnessOf(rule, turn);
      const nx = namingFeatures({ text: turn.text, reply: turn.reply_before, tools }, { ruleText: [rule.text, ...rule.keywords].join(" "), covers, ...ctx, others, witness: w === true ? 1 : w === false ? -1 : 0 }, said, side);
      return { rule, covers, score: h.score, rank: i + 1, x: nx };
    });
    const margins = withMargins(rows.map((r) => r.x));
    return { scored: true, rows: rows.map((r, i) => ({ ...r, x: margins[i]! })) };
  }

  name(turn: Pick<OwnerTurn, "text" | "reply_before" | "tools_before" | "cwd">, verdict: CaptureVerdict = classify(turn.text, { previousReply: turn.reply_before })): Naming {
    const { scored, rows } = this.features(turn, verdict);
    if (!scored) return { candidates: [], named: null, covered: false, scored: false };
    const candidates = rows.map((r): NamedRule => ({ rule: r.rule, p: this.model === null ? r.covers : namingProbability(this.model, r.x), rank: r.rank, covers: r.covers, score: r.score }));
    // Best first by the naming model (retrieval's order kept in `rank`).
    if (this.model !== null) candidates.sort((a, b) => b.p - a.p || a.rank - b.rank);
    let named: NamedRule | null = null;
    for (const c of candidates) if (c.p >= this.cut.value && (named === null || c.p > named.p)) named = c;
    const covered = named !== null || candidates.some((c) => c.p >= this.coverCut.value);
    return { candidates, named, covered, scored: true };
  }
}
