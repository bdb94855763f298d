/**
 * Diagnosis before a climb. A rule broken twice (two incidents) is first asked why its
 * current form failed, and each answer has its own repair:
 *
 * - not_loaded: the rule's file did not load in the session of its last incident (from the
 *   InstructionsLoaded rows); repair: make it load (its `paths:` globs, or its file), no climb;
 * - unknown_view: nothing says whether it loaded (the sensor was not installed); repair:
 *   install `errata hook instructions-loaded`; no climb, since only a rule known to be in view climbs;
 * - contradicted: another rule shares its subject and says otherwise (opposite polarity, or
 *   another choice from the same set: English/Finnish, npm/pnpm); repair: the owner picks one;
 * - vague: hedged or too short to act on ("try to", "when possible", under three content
 *   words); repair: rewrite it concretely;
 * - buried: at rung 2, below the attention budget's line or in a file longer than the budget;
 *   repair: move it up or shorten the file;
 * - climb: in view, clear, uncontradicted and still broken: one rung up, never more.
 *
 * Example: diagnose(rule at rung 2 with two in-view incidents, {lines: 40, position: 3}, others: [])
 * -> {diagnosis: "climb", from: 2, to: 3, repair: "a check that runs before the action (in shadow first)"}.
 */
import { terms } from "../rules/index.js";
import type { Rung } from "../../schemas/rule-ledger.js";
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
}

export interface Placement {
  /** The rule's 1-based line in its file, and the file's length in lines (null: unknown). */
  position: number | null;
  lines: number | null;
}

/** Incidents since the rule last changed rung: a climb is earned again, not carried over. */
export const REPEAT = 2;
const HEDGES = /\b(try to|when possible|if possible|where appropriate|appropriately|be careful|consider|if needed|as needed|ideally|generally|usually|should probably)\b/i;
const NEGATION = /\b(never|not|don't|do not|no|avoid|stop)\b/i;
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

/** The other rules that contradict this one, each with why. */
export function contradictions(rule: LedgerRule, others: readonly LedgerRule[]): string[] {
  const mine = new Set(terms(rule.text));
  const myWords = new Set(rule.text.toLowerCase().match(/[a-z]+/g) ?? []);
  const out: string[] = [];
  for (const o of others) {
    if (o.rule_id === rule.rule_id) continue;
    const theirs = o.text.toLowerCase().match(/[a-z]+/g) ?? [];
    const shared = new Set(terms(o.text).filter((t) => mine.has(t) && t.length > 3));
    for (const set of CHOICE_SETS) {
      const a = [...myWords].filter((w) => set.has(w));
      const b = theirs.filter((w) => set.has(w));
      // Both pick from one set, and the other rule picks something this one does not name.
      if (a.length > 0 && b.length > 0 && b.some((w) => !myWords.has(w)) && !NEGATION.test(o.text.split(b[0]!)[0] ?? "")) {
        out.push(`${o.rule_id} says ${JSON.stringify(o.text)} (${b.join("/")} against ${a.join("/")})`);
        break;
      }
    }
    if (!out.some((s) => s.startsWith(o.rule_id)) && shared.size >= 2 && NEGATION.test(rule.text) !== NEGATION.test(o.text)) {
      out.push(`${o.rule_id} says ${JSON.stringify(o.text)} (same subject: ${[...shared].join(", ")}; opposite polarity)`);
    }
  }
  return out;
}

/**
 * The diagnosis of one rule from its incidents since its rung last changed. `budget` is the
 * always-loaded file's line budget (default 200).
 */
export function diagnose(rule: LedgerRule, others: readonly LedgerRule[], place: Placement, budget = 200): DiagnosisResult {
  const since = rule.patches.filter((p) => p.set.rung !== undefined).map((p) => p.at).sort().at(-1) ?? "";
  const incidents = rule.incidents.filter((i) => i.date > since);
  const base = { rule_id: rule.rule_id, from: rule.rung, to: null };
  const ev = incidents.map((i) => `${i.incident_id} ${i.date} ${i.signal} in_view=${i.in_view}`);
  if (incidents.length < REPEAT) return { ...base, diagnosis: "too_few", repair: `nothing yet: ${incidents.length} incident(s) at this rung, a diagnosis needs ${REPEAT}`, evidence: ev };
  const last = incidents[incidents.length - 1]!;
  if (rule.rung < 3) {
    if (last.in_view === false) return { ...base, diagnosis: "not_loaded", repair: "make the rule load where it is needed (its file, or its paths: globs), not a climb", evidence: ev };
    if (last.in_view === null) return { ...base, diagnosis: "unknown_view", repair: "install `errata hook instructions-loaded` so a session says which files loaded; a rule climbs only when known to be in view", evidence: ev };
  }
  const against = contradictions(rule, others);
  if (against.length > 0) return { ...base, diagnosis: "contradicted", repair: "the owner picks one of the rules; the other is loosened or removed", evidence: [...ev, ...against] };
  if (isVague(rule.text)) return { ...base, diagnosis: "vague", repair: "rewrite the rule concretely (what to do, where, what never to do)", evidence: ev };
  if (rule.rung === 2 && ((place.position !== null && place.position > budget) || (place.lines !== null && place.lines > budget))) {
    return { ...base, diagnosis: "buried", repair: `move the rule up or shorten its file (line ${place.position ?? "?"} of ${place.lines ?? "?"}; budget ${budget})`, evidence: ev };
  }
  if (rule.rung === 3) return { ...base, diagnosis: "top", repair: "already a check: review the check's conditions (it fired on none of these)", evidence: ev };
  const to = (rule.rung + 1) as Rung;
  const how = ["", "a line in the file for this kind of task (.claude/rules/*.md with paths:)", "a line read on every turn (CLAUDE.md)", "a check that runs before the action (in shadow first)"][to]!;
  return { ...base, diagnosis: "climb", repair: how, to, evidence: ev };
}

/** Where a rule's text sits in its file: its first line's number and the file's length. */
export function placement(fileText: string | null, ruleText: string): Placement {
  if (fileText === null) return { position: null, lines: null };
  const lines = fileText.split("\n");
  const head = ruleText.split("\n")[0]!.trim();
  const at = lines.findIndex((l) => l.includes(head));
  return { position: at >= 0 ? at + 1 : null, lines: lines.length - (fileText.endsWith("\n") ? 1 : 0) };
}
