/**
 * From an owner's turn to rule-ledger lines: which rule the turn is about, whether the rule
 * was broken (an incident, counted) or only named (a mention, kept and never counted),
 * whether it was in view, and the correction's cause.
 *
 * A turn names a rule only through the rules wing (naming.ts: retrieval over the rules of the
 * session's project and the user's files, then rule_covers under a recorded cut), or through
 * keywords the owner set on a rule; a shared word never does.
 *
 * Incidents, not mentions: a rule's witness (its own, or one read off its text: derive.ts; a
 * condition on the reply or the tool calls before the turn, e.g. "the reply is not in
 * Finnish", "the command force-pushed") counts an incident when it says broken, whatever the
 * owner wrote; "as I said, Finnish please" after a reply already in Finnish is a mention.
 * Without a witness that reads, an explicit "that was wrong", an undo, a correction, or a
 * repeat ("again", "I told you", "you didn't": signals.ts repeatMarker) counts; a bare
 * restatement or a standing directive is a mention (nothing shows the reply broke the rule).
 *
 * In view: rung 3 (an installed check runs on every call) yes; rung 1-2 from the
 * InstructionsLoaded rows of the session, by the exact path of the rule's file (loaded: yes;
 * the session recorded loads but not this file: no; no rows for the session, or the rule's
 * file unknown: unknown); rung 0 (a note) yes only when the session's tool calls read it.
 * A rung 1-2 rule whose line the Errata mod withheld in the session (a row with `withheld`
 * naming it: the line holdout) is not in view, whatever loaded: the model was sent the file
 * without the line. Its incident is kept, marked `held_out`, a slip of the holdout's held-out
 * arm; it never counts toward a climb (diagnose.ts).
 *
 * Example: turnLines(turn "as I said, Finnish please" after "Sure, here it is." , [finnishRule])
 * -> [{kind: "incident", rule_id: "lang.fi", signal: "correction", ...}]; after "Tässä se on." -> [{kind: "mention", ...}].
 */
import { isAbsolute, resolve } from "node:path";
import { classify } from "../classifier/index.js";
import { terms } from "../rules/index.js";
import type { InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import { SIGNALS, type Cause, type IncidentRow, type MentionRow, type RuleLedgerLine } from "../../schemas/rule-ledger.js";
import { redactTextForWrite } from "../privacy/index.js";
import { witnessOf } from "./derive.js";
import { incidentId, type LedgerRule } from "./ledger.js";
import { inScope, RuleNamer, type Naming } from "./naming.js";
import { keyTerms } from "./naming-model.js";
import { repeatMarker, signalOf, type OwnerTurn, type SignalReading } from "./signals.js";

/** The rules a turn names by the keywords the owner set on them (every keyword term of one keyword found), in the turn's project. */
export function rulesNamed(turn: OwnerTurn, rules: readonly LedgerRule[]): LedgerRule[] {
  const have = new Set(terms(turn.text));
  return rules.filter((r) => r.keywords.length > 0 && inScope(r, turn.cwd ?? null) && r.keywords.some((k) => terms(k).length > 0 && terms(k).every((t) => have.has(t))));
}

export { witnessOf, witnessSays } from "./derive.js";

const expand = (p: string): string => (isAbsolute(p) ? resolve(p) : p);

/** Whether the rule's line was withheld in the turn's session: a rung 1-2 text rule the mod recorded withholding there. */
export function withheldIn(rule: LedgerRule, turn: OwnerTurn, loads: readonly InstructionsLoadedRow[]): boolean {
  if (rule.rung !== 1 && rule.rung !== 2) return false;
  return loads.some((l) => l.session_id === turn.session_id && l.withheld?.includes(rule.rule_id) === true);
}

export function inView(rule: LedgerRule, turn: OwnerTurn, loads: readonly InstructionsLoadedRow[]): boolean | null {
  if (rule.rung === 3) return true;
  const loc = rule.location;
  if (loc.kind !== "text") return false;
  const file = rule.file_abs ?? (isAbsolute(loc.file) ? loc.file : null);
  if (rule.rung === 0) return turn.tools_before.some((t) => (file !== null && t.input["file_path"] === file) || t.input["file_path"] === loc.file);
  // Held out: the file loaded, but the model was sent it without the line.
  if (withheldIn(rule, turn, loads)) return false;
  const session = loads.filter((l) => l.session_id === turn.session_id);
  if (session.length === 0 || file === null) return null;
  // The exact file Claude Code loaded for that session: another project's CLAUDE.md is not this rule's.
  return session.some((l) => expand(l.file_path) === expand(file));
}

export type Sorted = Cause | "undecided";

/**
 * An objection: the owner says no to something ("don't", "avoid", "why ...?", "not X",
 * "instead", 不要 ...). With a rule the rules wing names, it is a correction of that rule even
 * when the capture classifier calls the turn nothing. A restatement ("as I said",
 * "remember") is not one: only a witness or a repeat makes it count.
 */
/** Whole words in any script: `\b` is ASCII-only in JavaScript, so "älä" or "não" never met it. */
const wholeWords = (alternatives: string): string => String.raw`(?<![\p{L}\p{N}_])(?:${alternatives})(?![\p{L}\p{N}_])`;
const OBJECTION = new RegExp(
  `${wholeWords("don'?t|do not|never|avoid|stop|no|not|instead|why|should(n'?t)?|must|nicht|nichts|kein|keine|niemals|pas|jamais|rien|ne|no|nada|nunca|não|älä|ei|mitään|niet|niets|nooit|geen|non|mai|niente|inte|inget|aldrig|не|нельзя")}|[?？]|不要|不能|禁止|别|不对|不是|必须|だめ|しないで|ないで|じゃなくて|ではなく|마세요|마십시오|하지 마|말고|아니라|않`,
  "iu",
);
/**
 * The owner says what is wrong with what was just done, with no "don't", "again" or "that was
 * wrong": a negation inside a contraction or a negative quantifier ("that param isn't
 * mutated", "nobody needs six options"), something missing or left as it was ("is missing
 * the sentinel", "the docstring still says tuple", "without a test"), or an account of the
 * agent's own last action in the second person ("you updated every dependency", "you
 * changed the return type but ..."). Grammatical forms, in the capture's languages, not the
 * words of any rule: with a rule the rules wing names over its cut, such a turn says the reply
 * broke it. A restatement ("as I said") or a kept witness still makes it a mention.
 */
const DEFECT = new RegExp(
  [
    wholeWords(String.raw`\p{L}+n['’]t`),
    wholeWords("nobody|no one|nothing|none|nowhere|missing|lacks?|lacking|without|still|but"),
    wholeWords(String.raw`you\s+(?:just\s+|even\s+|already\s+|also\s+)?(?:\p{L}+ed|did|made|wrote|ran|put|left|broke|built|kept|took|gave|set|went|forgot|threw|got|sent|chose|split|cut|began|brought)`),
    // German, French, Spanish, Portuguese, Italian, Dutch, Swedish, Finnish: "you have done", "is missing", "without", "still".
    wholeWords(String.raw`du hast|hast du|sie haben|fehlt|fehlen|ohne|immer noch|tu as|vous avez|t'as|manque|sans|toujours|has\s+\p{L}+(?:ado|ido)|falta|faltan|sin|todavía|aún|você\s+\p{L}+(?:ou|eu|iu)|sem|ainda|hai\s+\p{L}+(?:ato|uto|ito)|manca|mancano|senza|je hebt|heb je|ontbreekt|zonder|nog steeds|du har|saknas|utan|fortfarande|puuttuu|ilman|yhä|edelleen`),
  ].join("|") + "|缺少|少了|没有|没加|没写|还是|你把|你用了|你写了|你改了|你加了|你删了|ていない|てない|ありません|ません|抜けて|まだ|ましたね",
  "iu",
);
/**
 * A restatement: "as I said" anywhere, or "remember" / "reminder" opening the turn or a clause
 * (not a word of the subject: "use bd remember" is a command's name), in the capture's languages.
 */
const RESTATE = /\b(as i said|like i said|as mentioned|wie gesagt|comme je l'ai dit|como dije|como te dije|kuten sanoin|zoals gezegd|come ho detto|как я говорил)\b|(?:^|[.!?;:,]\s*)(remember|reminder|ricorda|recuerda|rappelle-toi|lembre-se|lembra|onthoud|muista|kom ihåg|denk daran)\b|如我所说|말했듯이/iu;

export interface TurnOutcome {
  reading: SignalReading;
  lines: RuleLedgerLine[];
  /** The turn's cause class when it was sorted ("undecided": no cue placed it; only rule_gap and undecided touch rules). */
  cause: Sorted | null;
  /**
   * A correction the rules wing finds a rule of the project covering but names none for (its
   * best candidate is over the cover cut, under the naming cut): which rule is undecided. Such a
   * turn counts no incident and is no rule gap (gaps.ts drafts no new rule from it); the
   * audit reports it as undecided.
   */
  undecidedRule?: boolean;
}

/** The tool calls a correction answered, as a drafted check reads them (redacted, bounded). */
export function correctedCalls(turn: OwnerTurn): NonNullable<IncidentRow["calls"]> {
  const out: NonNullable<IncidentRow["calls"]> = [];
  for (const t of turn.tools_before) {
    for (const field of ["command", "file_path", "content", "new_string"]) {
      const v = t.input[field];
      if (typeof v === "string" && v.length > 0) out.push({ tool: t.name, field, value: redactTextForWrite(v.slice(0, 2000)) });
    }
    if (out.length >= 12) break;
  }
  return out.slice(0, 12);
}

export interface TurnContext {
  /** Names rules through the rules wing; default: one over `rules` with the shipped model and cut. */
  namer?: RuleNamer;
  /** The project folder of the turn's session (the index project holding its cwd), for a climb. */
  project?: string | null;
  /** The turn's naming already made by `namer` (naming-fit.ts reads one turn at many cuts); default: `namer.name(turn)`. */
  naming?: Naming;
}

/**
 * The ledger lines for one turn. `causeOf` sorts a correction by cause before any rule is
 * touched: a correction placed in another cause writes no incident (the rule was not what
 * failed) and no mention; an undecided one goes on as a possible rule gap, its cause null.
 */
export function turnLines(turn: OwnerTurn, rules: readonly LedgerRule[], loads: readonly InstructionsLoadedRow[], causeOf: (turn: OwnerTurn) => Sorted | null, ctx: TurnContext = {}): TurnOutcome {
  let reading = signalOf(turn);
  if (reading.signal === "praise" || reading.signal === "job") return { reading, lines: [], cause: null };
  // Only a correction is undecided: a turn that corrects nothing names no rule and needs none.
  const done = (o: TurnOutcome): TurnOutcome => (undecidedRule && o.reading.signal !== null ? { ...o, undecidedRule } : o);
  const repeat = turn.origin === "typed" ? repeatMarker(turn.text) : null;
  const byKeyword = rulesNamed(turn, rules);
  const namer = byKeyword.length > 0 || turn.origin !== "typed" ? null : (ctx.namer ?? new RuleNamer(rules));
  const naming = namer === null ? null : (ctx.naming ?? namer.name(turn));
  const undecidedRule = naming !== null && naming.named === null && naming.covered;
  const named: Array<{ rule: LedgerRule; by?: IncidentRow["named_by"] }> =
    byKeyword.length > 0 ? byKeyword.map((rule) => ({ rule })) : naming?.named && namer ? [{ rule: naming.named.rule, by: { p: Math.round(naming.named.p * 1e4) / 1e4, cut: namer.cut.value, origin: namer.cut.origin } }] : [];
  // A refusal without words has no text to name a rule by: the refused call is all there is.
  // When exactly one of the rules wing's candidates has a witness that fires on that call, the
  // owner refused what that rule forbids, and it is named (two or more: none, it is ambiguous).
  if (named.length === 0 && namer && naming && reading.signal === "rejected" && turn.text.trim() === "") {
    const fired = naming.candidates.filter((c) => witnessOf(c.rule, turn) === true);
    if (fired.length === 1) named.push({ rule: fired[0]!.rule, by: { p: Math.round(fired[0]!.p * 1e4) / 1e4, cut: namer.cut.value, origin: `${namer.cut.origin}; below the cut, named by its witness on the refused call` } });
  }
  const objected = naming?.named != null && (OBJECTION.test(turn.text) || DEFECT.test(turn.text)) && !RESTATE.test(turn.text);
  if (reading.signal === null && objected && repeat === null) {
    const n = named[0]!;
    reading = witnessOf(n.rule, turn) === false ? reading : { signal: "correction", strength: SIGNALS.indexOf("correction"), severity: 1, evidence: [`objects to ${n.rule.rule_id}, which the rules wing names`] };
  }
  if (reading.signal === null) {
    // A bare restatement ("as I said, Finnish please") carries no correction marker the
    // capture classifier trusts on its own. A witness that reads makes it one (broken) or a
    // mention (kept); a repeat marker ("again", "you didn't") makes it a correction.
    // Only a rule the owner's own words restate: a turn that says nothing of it ("great, now run
    // the tests") is no restatement, whatever the reply before did.
    // Subject words in any language the lexicon reads (a Chinese "你又写成英文了" restates
    // "使用中文注释"; a German correction restates an English rule).
    const said = keyTerms(turn.text);
    // A rule the rules wing named over its cut, in a turn that objects or repeats ("Loit taas
    // pull requestin!"), is restated whatever words it shares: the naming already weighed them.
    const restated = named.filter((n) => (n.by !== undefined && (repeat !== null || objected)) || [...keyTerms(n.rule.text), ...n.rule.keywords.flatMap((k) => terms(k))].some((t) => said.has(t)));
    named.splice(0, named.length, ...restated);
    const read = named.filter((n) => witnessOf(n.rule, turn) !== null);
    const broken = read.filter((n) => witnessOf(n.rule, turn) === true).map((n) => n.rule.rule_id);
    if (broken.length > 0) reading = { signal: "correction", strength: SIGNALS.indexOf("correction"), severity: 1, evidence: broken.map((id) => `restated ${id} after a reply its witness shows broke it`) };
    else if (repeat !== null && named.length > 0) reading = { signal: "correction", strength: SIGNALS.indexOf("correction"), severity: 1, evidence: [`repeat: "${repeat}"`] };
    else if (read.length === 0) return done({ reading, lines: [], cause: null });
    named.splice(0, named.length, ...(broken.length > 0 || repeat !== null ? named : read));
  }
  let cause = causeOf(turn);
  // A rule the rules wing names covers the correction: that outweighs the cue model's thin
  // wrong_fact / missing_tool cues ("use X, not Y" reads as a wrong fact there); an outage or a
  // task beyond the model still closes it.
  if (naming?.named != null && (cause === "wrong_fact" || cause === "missing_tool")) cause = "rule_gap";
  if (cause !== null && cause !== "rule_gap" && cause !== "undecided") return done({ reading, lines: [], cause });
  const lines: RuleLedgerLine[] = [];
  // A correction the capture classifier calls one (not a standing directive): the owner says the reply was wrong.
  const verdictCorrection = reading.signal === "correction" && classify(turn.text, { previousReply: turn.reply_before }).kind === "correction";
  for (const { rule, by } of named) {
    const witnessed = witnessOf(rule, turn);
    const broken = witnessed !== null ? witnessed : reading.signal === "explicit" || reading.signal === "rejected" || reading.signal === "undo" || repeat !== null || verdictCorrection || objected;
    if (!broken) {
      const why =
        witnessed === false
          ? "the reply before already kept the rule (its witness found nothing broken)"
          : "a restatement or directive with nothing showing the reply broke the rule";
      const m: MentionRow = { kind: "mention", v: 1, rule_id: rule.rule_id, exchange_id: turn.exchange_id, session_id: turn.session_id, date: turn.ts, why_not_counted: why };
      lines.push(m);
      continue;
    }
    if (reading.signal === null) continue;
    const calls = correctedCalls(turn);
    const inc: IncidentRow = {
      kind: "incident",
      v: 1,
      incident_id: incidentId(rule.rule_id, turn.exchange_id),
      rule_id: rule.rule_id,
      exchange_id: turn.exchange_id,
      session_id: turn.session_id,
      date: turn.ts,
      severity: reading.severity,
      signal: reading.signal,
      in_view: inView(rule, turn, loads),
      ...(withheldIn(rule, turn, loads) ? { held_out: true as const } : {}),
      rung: rule.rung,
      cause: cause === "undecided" ? null : (cause ?? "rule_gap"),
      ...(by ? { named_by: by } : {}),
      ...(ctx.project !== undefined ? { project: ctx.project } : {}),
      ...(calls.length > 0 ? { calls } : {}),
    };
    lines.push(inc);
  }
  return done({ reading, lines, cause });
}
