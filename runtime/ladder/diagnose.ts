/**
 * Diagnosis before a climb. A rule broken twice (two incidents) is first asked why its
 * current form failed, and each answer has its own repair:
 *
 * - not_loaded: the rule's file did not load in the session of its last incident (from the
 *   InstructionsLoaded rows); repair: make it load (its `paths:` globs, or its file), no climb;
 * - unknown_view: nothing says whether it loaded (the sensor was not installed); repair:
 *   install `errata hook instructions-loaded`; no climb, since only a rule known to be in view climbs;
 * - contradicted: another line says otherwise; repair: the owner picks one. Asked as part 2's
 *   doctrine check (`readContradiction`): the rules nearest this one by BM25 (runtime/rules),
 *   each put to the noul `rules.requires_forbidden` through the engine both ways round (this
 *   rule as the change against the other, and the other against this one); code decides from
 *   P(yes) and a cut whose origin is recorded. Where the engine cannot answer (offline, the
 *   embedded lane has no weights for the noul: unscored, never a no) the polarity/choice-set
 *   heuristic (`contradictions`: opposite polarity on a shared subject, or another pick of one
 *   set: English/Finnish, npm/pnpm) decides; where it can, the heuristic is a second voice.
 *   The diagnosis's evidence says which decided;
 * - vague: hedged or too short to act on ("try to", "when possible", under three content
 *   words); repair: rewrite it concretely;
 * - buried: at rung 2, below the attention budget's line or in a file longer than the budget;
 *   repair: move it up or shorten the file;
 * - climb: in view, clear, uncontradicted and still broken: one rung up, never more.
 *
 * Example: diagnose(rule at rung 2 with two in-view incidents, {lines: 40, position: 3}, others: [])
 * -> {diagnosis: "climb", from: 2, to: 3, repair: "a check that runs before the action (in shadow first)"}.
 */
import { recommendationSubject, recommendCheckQuestions } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { Question } from "../../schemas/question.js";
import type { Rung } from "../../schemas/rule-ledger.js";
import type { AskPair, Engine } from "../engine/index.js";
import { Bm25, COVERAGE_CALLER, DEFAULT_CHECK_CUT, DOCTRINE_NEAREST, termCounts, terms, words } from "../rules/index.js";
import type { LedgerRule } from "./ledger.js";

export type Diagnosis = "too_few" | "not_loaded" | "unknown_view" | "contradicted" | "vague" | "buried" | "climb" | "top";

export interface DiagnosisResult {
  rule_id: string;
  diagnosis: Diagnosis;
  repair: string;
  from: Rung;
  /** Set only for a climb: always from + 1. */
  to: Rung | null;
  evidence: string[];
  /** How the contradiction step was answered, when the diagnosis reached it. */
  contradiction?: ContradictionReading;
}

export interface Placement {
  /** The rule's 1-based line in its file, and the file's length in lines (null: unknown). */
  position: number | null;
  lines: number | null;
}

/** Incidents since the rule last changed rung: a climb is earned again, not carried over. */
export const REPEAT = 2;
const HEDGES = /\b(try to|when possible|if possible|where appropriate|appropriately|be careful|consider|if needed|as needed|ideally|generally|usually|should probably)\b/i;
const CHOICE_SETS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(["english", "finnish", "spanish", "german", "french", "japanese", "swedish"]),
  new Set(["npm", "pnpm", "yarn", "bun"]),
  new Set(["tabs", "spaces"]),
  new Set(["pip", "uv", "poetry", "conda"]),
  new Set(["rebase", "merge", "squash"]),
];

export function isVague(text: string): boolean {
  const content = terms(text).filter((t) => t.length >= 2);
  return HEDGES.test(text) || content.length < 3;
}

/**
 * Words no subject is made of, left out of the polarity comparison. Hand-written and short on
 * purpose: no stop-word package is installed, and the list only has to keep "the", "to" and
 * "you" from counting as a shared subject.
 */
const STOP = new Set(["the", "and", "for", "you", "your", "are", "that", "this", "with", "from", "when", "then", "than", "into", "onto", "out", "use", "all", "any", "each", "everi", "onli", "also", "just", "have", "has", "been", "were", "was", "will", "would", "should", "must", "can", "could", "may", "might", "our", "its", "them", "they", "their", "there", "here", "what", "which", "who", "how", "about", "over", "after", "befor", "such", "like", "it'", "i'm", "don't", "doesn't"]);
const NEG_WORD = /^(never|not|no|don't|dont|doesn't|avoid|stop|nor|cannot|can't|mustn't|shouldn't|without)$/;

interface Polarity {
  pos: Set<string>;
  neg: Set<string>;
  posWords: Set<string>;
  negWords: Set<string>;
  /** Per choice set (CHOICE_SETS order): the words of it picked (said, not negated) and those banned (negated). */
  picks: string[][];
  bans: string[][];
  /** pos and neg together. */
  content: Set<string>;
}

/** Each rule meets every other: its split is kept (word segmentation and stemming are the cost). */
const seen = new Map<string, Polarity>();

/** A rule's words split by polarity: those after a negation in their clause, and the rest. */
function polarity(text: string): Polarity {
  const known = seen.get(text);
  if (known) return known;
  if (seen.size > 10_000) seen.clear();
  const out: Polarity = { pos: new Set<string>(), neg: new Set<string>(), posWords: new Set<string>(), negWords: new Set<string>(), picks: [], bans: [], content: new Set<string>() };
  seen.set(text, out);
  for (const clause of text.split(/[.;:!?\n|]|\bbut\b|\binstead\b/i)) {
    let negated = false;
    // A choice-set word inside a name (pnpm-lock.yaml, pnpm.overrides) is not a pick of it.
    const named = new Set(words(clause.match(/[\p{L}\p{N}_]+(?:[-.][\p{L}\p{N}_]+)+/gu)?.join(" ") ?? ""));
    for (const w of words(clause)) {
      if (NEG_WORD.test(w)) {
        negated = true;
        continue;
      }
      if (!named.has(w)) (negated ? out.negWords : out.posWords).add(w);
      const t = terms(w)[0] ?? w;
      if (t.length >= 3 && !STOP.has(t)) (negated ? out.neg : out.pos).add(t);
    }
  }
  // Worked out once per text, not once per pair of rules (contradictions meets every pair).
  for (const set of CHOICE_SETS) {
    out.picks.push([...out.posWords].filter((w) => set.has(w) && !out.negWords.has(w)));
    out.bans.push([...out.negWords].filter((w) => set.has(w)));
  }
  out.content = new Set([...out.pos, ...out.neg]);
  return out;
}

/**
 * The other rules that contradict this one, each with why: another pick from one choice set
 * (a language, a package manager, ...) where this rule picks or forbids one, or the same
 * subject said with opposite polarity: at least two content words one rule negates and the
 * other asks for, covering half the shorter rule's content words. Words only, no meaning:
 * test/ladder/contradiction-measure.test.ts measures what it finds and what it flags wrongly.
 */
export function contradictions(rule: LedgerRule, others: readonly LedgerRule[]): string[] {
  const mine = polarity(rule.text);
  const mineContent = mine.content;
  const out: string[] = [];
  for (const o of others) {
    if (o.rule_id === rule.rule_id) continue;
    const theirs = polarity(o.text);
    let why: string | null = null;
    for (let k = 0; k < CHOICE_SETS.length; k++) {
      const myPick = mine.picks[k]!;
      const myBan = mine.bans[k]!;
      const theirPick = theirs.picks[k]!;
      const theirBan = theirs.bans[k]!;
      const clash = theirPick.some((w) => myBan.includes(w)) || myPick.some((w) => theirBan.includes(w)) || (myPick.length > 0 && theirPick.length > 0 && !theirPick.some((w) => myPick.includes(w)));
      if (clash) {
        why = `${[...theirPick, ...theirBan.map((w) => `not ${w}`)].join("/")} against ${[...myPick, ...myBan.map((w) => `not ${w}`)].join("/")}`;
        break;
      }
    }
    if (why === null) {
      const theirContent = theirs.content;
      const opposed = [...new Set([...[...mine.neg].filter((t) => theirs.pos.has(t) && !theirs.neg.has(t)), ...[...mine.pos].filter((t) => theirs.neg.has(t) && !mine.neg.has(t))])];
      if (opposed.length >= 2 && opposed.length * 2 >= Math.min(mineContent.size, theirContent.size)) why = `same subject: ${opposed.join(", ")}; opposite polarity`;
    }
    if (why !== null) out.push(`${o.rule_id} says ${JSON.stringify(o.text)} (${why})`);
  }
  return out;
}

/** The doctrine noul asked for a contradiction (part 2's "requires what a rule forbids"). */
export const CONTRADICTION_NOUL = "rules.requires_forbidden";

export interface ContradictionCut {
  cut: number;
  /** Where the cut came from, said in every diagnosis it decides. */
  origin: string;
}

export const DEFAULT_CONTRADICTION_CUT: ContradictionCut = { cut: DEFAULT_CHECK_CUT, origin: "the recommend checks' cut (runtime/rules DEFAULT_CHECK_CUT), uncalibrated" };

export interface NearRule {
  rule_id: string;
  /** BM25 score of the other rule against this rule's terms. */
  score: number;
  /** The larger P(yes) of the two directions, or null when neither was scored. */
  p_yes: number | null;
  /** Why it was not scored (the engine's reason), else null. */
  unscored: string | null;
}

export interface ContradictionReading {
  /** The contradictions the diagnosis uses, each with why. */
  against: string[];
  decided_by: "doctrine_noul" | "heuristic";
  noul: typeof CONTRADICTION_NOUL;
  lane: string;
  model: string;
  cut: number;
  cut_origin: string;
  nearest: NearRule[];
  /** The polarity/choice-set heuristic's findings: the decider offline, a second voice otherwise. */
  heuristic: string[];
  /** One line for the diagnosis's evidence: who decided, and what the other voice said. */
  note: string;
}

const NOUL: Question = recommendCheckQuestions.find((q) => q.id === CONTRADICTION_NOUL)!;

/** The noul with its subject after it, as runtime/rules/checks.ts asks its doctrine checks. */
function bound(subject: string): Question {
  return { ...NOUL, text: `${NOUL.text}\n\n${subject}` };
}

function where(r: LedgerRule): string {
  const l = r.location;
  return l.kind === "text" ? `${l.file}${l.section ? ` (${l.section})` : ""}` : l.kind === "check" ? `check ${l.check}` : "not written yet";
}

/** The exchange the noul is asked about: the rule's last incident (its words are not in the ledger: ids only). */
function carrier(rule: LedgerRule): Exchange {
  const last = rule.incidents[rule.incidents.length - 1];
  return {
    schema: "exchange/1",
    id: last?.exchange_id ?? "ex-0000000000000000",
    corpus: "claude-code",
    session_id: last?.session_id ?? "?",
    turn: 0,
    prompt: `The owner corrected the assistant again about this rule: ${rule.text}`,
    prompt_ts: last?.date ?? null,
    reply_end: null,
    reply_ts: null,
    previous_ask: null,
    tool_calls: [],
    cwd: null,
    version: null,
    model: null,
    captured: true,
    synthetic: false,
    source_ref: null,
  };
}

/** The other rules nearest this one (BM25 over their words, this rule's words as the query), best first. */
export function nearestOthers(rule: LedgerRule, others: readonly LedgerRule[], k = DOCTRINE_NEAREST): Array<{ rule: LedgerRule; score: number }> {
  const pool = others.filter((o) => o.rule_id !== rule.rule_id);
  if (pool.length === 0) return [];
  const bm25 = new Bm25(pool.map((o) => terms(o.text)));
  return bm25.search(termCounts(terms(rule.text)), k).flatMap((h) => (h.score > 0 && pool[h.doc] ? [{ rule: pool[h.doc]!, score: h.score }] : []));
}

/**
 * The contradiction step through part 2's doctrine check: retrieval, then the noul through
 * the engine, both ways round; code decides at the cut. Unscored everywhere (offline) ->
 * the heuristic decides, and the note says why.
 */
export async function readContradiction(rule: LedgerRule, others: readonly LedgerRule[], engine: Engine, cut: ContradictionCut = DEFAULT_CONTRADICTION_CUT): Promise<ContradictionReading> {
  const near = nearestOthers(rule, others);
  const heuristic = contradictions(rule, others);
  const ex = carrier(rule);
  const pairs: AskPair[] = near.flatMap(({ rule: o }) => [
    { exchange: ex, question: bound(recommendationSubject({ target: where(rule), change: rule.text }, [o.text])) },
    { exchange: ex, question: bound(recommendationSubject({ target: where(o), change: o.text }, [rule.text])) },
  ]);
  const answers: Answer[] = pairs.length === 0 ? [] : await engine.ask(pairs, { caller: COVERAGE_CALLER });
  const nearest: NearRule[] = near.map(({ rule: o, score }, i) => {
    const two = [answers[2 * i], answers[2 * i + 1]];
    const ps = two.flatMap((a) => (a?.status === "scored" && a.p_yes !== null ? [a.p_yes] : []));
    const why = two.find((a) => a !== undefined && a.status !== "scored");
    return { rule_id: o.rule_id, score: Math.round(score * 1000) / 1000, p_yes: ps.length > 0 ? Math.round(Math.max(...ps) * 1e4) / 1e4 : null, unscored: ps.length > 0 ? null : why?.status === "unscored" ? why.reason : "no answer" };
  });
  const base = { noul: CONTRADICTION_NOUL, lane: engine.lane, model: engine.model, cut: cut.cut, cut_origin: cut.origin, nearest, heuristic } as const;
  const scored = nearest.filter((n) => n.p_yes !== null);
  const second = heuristic.length > 0 ? `the heuristic finds ${heuristic.length}` : "the heuristic finds none";
  if (scored.length === 0) {
    const why = near.length === 0 ? "no other rule shares a word with it" : `${CONTRADICTION_NOUL} unscored on the ${engine.lane} lane: ${nearest[0]!.unscored}`;
    return { ...base, against: heuristic, decided_by: "heuristic", note: `contradiction: decided by the polarity/choice-set heuristic (${why}); ${second}` };
  }
  const texts = new Map(near.map(({ rule: o }) => [o.rule_id, o.text]));
  const against = scored.filter((n) => n.p_yes! >= cut.cut).map((n) => `${n.rule_id} says ${JSON.stringify(texts.get(n.rule_id))} (${CONTRADICTION_NOUL} P(yes)=${n.p_yes!.toFixed(2)} >= cut ${cut.cut})`);
  const agree = (against.length > 0) === (heuristic.length > 0) ? "agrees" : "disagrees";
  const asked = `${scored.length} of ${nearest.length} nearest scored on the ${engine.lane} lane (${engine.model})`;
  return { ...base, against, decided_by: "doctrine_noul", note: `contradiction: decided by the doctrine noul ${CONTRADICTION_NOUL} at cut ${cut.cut} (${cut.origin}); ${asked}; second voice: ${second}, it ${agree}` };
}

/** Whether a diagnosis got as far as the contradiction step (its rule was in view, or is a check). */
export function reachesContradiction(d: DiagnosisResult): boolean {
  return d.diagnosis !== "too_few" && d.diagnosis !== "not_loaded" && d.diagnosis !== "unknown_view";
}

/**
 * The diagnosis of one rule from its incidents since its rung last changed. `budget` is the
 * always-loaded file's line budget (default 200). `contradiction`: the doctrine check's
 * reading (readContradiction); without one the heuristic decides that step.
 */
export function diagnose(rule: LedgerRule, others: readonly LedgerRule[], place: Placement, budget = 200, contradiction?: ContradictionReading): DiagnosisResult {
  const since = rule.patches.filter((p) => p.set.rung !== undefined).map((p) => p.at).sort().at(-1) ?? "";
  // A held-out slip (the line withheld in its session: the line holdout) is the holdout's
  // evidence, not the rule's: the model never saw the line, so it never counts toward a climb.
  const atRung = rule.incidents.filter((i) => i.date > since);
  const incidents = atRung.filter((i) => i.held_out !== true);
  const base = { rule_id: rule.rule_id, from: rule.rung, to: null };
  const ev = incidents.map((i) => `${i.incident_id} ${i.date} ${i.signal} in_view=${i.in_view}`);
  const heldOut = atRung.length - incidents.length;
  if (heldOut > 0) ev.push(`${heldOut} held-out slip${heldOut === 1 ? "" : "s"} (the line withheld in the session) not counted`);
  if (incidents.length < REPEAT) return { ...base, diagnosis: "too_few", repair: `nothing yet: ${incidents.length} incident(s) at this rung, a diagnosis needs ${REPEAT}`, evidence: ev };
  const last = incidents[incidents.length - 1]!;
  if (rule.rung < 3) {
    if (last.in_view === false) return { ...base, diagnosis: "not_loaded", repair: "make the rule load where it is needed (its file, or its paths: globs), not a climb", evidence: ev };
    if (last.in_view === null) return { ...base, diagnosis: "unknown_view", repair: "install `errata hook instructions-loaded` so a session says which files loaded; a rule climbs only when known to be in view", evidence: ev };
  }
  const against = contradiction?.against ?? contradictions(rule, others);
  const said = contradiction ? { contradiction } : {};
  if (contradiction) ev.push(contradiction.note);
  if (against.length > 0) return { ...base, ...said, diagnosis: "contradicted", repair: "the owner picks one of the rules; the other is loosened or removed", evidence: [...ev, ...against] };
  if (isVague(rule.text)) return { ...base, ...said, diagnosis: "vague", repair: "rewrite the rule concretely (what to do, where, what never to do)", evidence: ev };
  if (rule.rung === 2 && ((place.position !== null && place.position > budget) || (place.lines !== null && place.lines > budget))) {
    return { ...base, ...said, diagnosis: "buried", repair: `move the rule up or shorten its file (line ${place.position ?? "?"} of ${place.lines ?? "?"}; budget ${budget})`, evidence: ev };
  }
  if (rule.rung === 3) return { ...base, ...said, diagnosis: "top", repair: "already a check: review the check's conditions (it fired on none of these)", evidence: ev };
  const to = (rule.rung + 1) as Rung;
  const how = ["", "a line in the file for this kind of task (.claude/rules/*.md with paths:)", "a line read on every turn (CLAUDE.md)", "a check that runs before the action (in shadow first)"][to]!;
  return { ...base, ...said, diagnosis: "climb", repair: how, to, evidence: ev };
}

/** Where a rule's text sits in its file: its first line's number and the file's length. */
export function placement(fileText: string | null, ruleText: string): Placement {
  if (fileText === null) return { position: null, lines: null };
  const lines = fileText.split("\n");
  const head = ruleText.split("\n")[0]!.trim();
  const at = lines.findIndex((l) => l.includes(head));
  return { position: at >= 0 ? at + 1 : null, lines: lines.length - (fileText.endsWith("\n") ? 1 : 0) };
}
