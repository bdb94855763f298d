/**
 * New rules from rule gaps. A correction sorted as a rule gap that names no rule of the
 * ledger would otherwise touch nothing; it is kept here (`<ERRATA_DIR>/ladder/gaps.jsonl`,
 * append-only, one line per exchange id, so a retried night writes nothing twice), grouped
 * with the other gaps on the same subject, and when a subject has come back in REPEAT (2)
 * distinct sessions the auditor drafts a `new_rule` proposal: the rule in the owner's own
 * words (redacted), why, when, the evidence (exchange ids), written on approval as one new
 * line in `.claude/rules/<slug>.md` (rung 1) and added to the ledger.
 *
 * Grouping is by shared content terms (the rule index's tokeniser, `terms`: NFKC, case
 * folding, Porter stems), not BM25: a night holds a handful of gaps, and BM25's idf over so
 * few documents gives the lowest weight to exactly the term every repeat shares (the
 * subject), while the correction vocabulary ("wrong", "told", "always") is what a stop list
 * removes. Two gaps are on one subject when they share two content terms, or one when all of
 * the shorter gap's content terms are shared ("Finnish please" joins "reply in Finnish";
 * "reply in English" does not). Groups are the connected parts of that relation.
 *
 * Rung 1, not 0: two corrections in distinct sessions are the evidence a climb needs
 * (REPEAT), so the rule starts where a rung-0 note broken twice would go; rung 0 (a note found
 * by search) is what the assistant's own memory already tried after the first correction, and
 * nothing senses whether a note was read, while a `.claude/rules/` file's load is seen by the
 * InstructionsLoaded hook. Never higher at once: rung 2 spends the always-loaded budget.
 *
 * Example: "No, that's wrong. Always run the tests before you commit." (session a) and "I told
 * you: run the tests before committing!" (session b) -> one new_rule proposal, rule text
 * "Always run the tests before you commit.", edit: append to .claude/rules/always-run-the-tests-before-you-commit.md.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { appendJsonl, readJsonl } from "../files/index.js";
import { redactForWrite, redactTextForWrite } from "../privacy/index.js";
import { terms, words } from "../rules/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { GapRowSchema, type GapRow, type RuleRow } from "../../schemas/rule-ledger.js";
import { REPEAT } from "./diagnose.js";
import { slug, type DraftContext } from "./drafts.js";
import type { TurnOutcome } from "./incidents.js";
import type { LedgerRule } from "./ledger.js";
import { fileHash, proposalId, type ProposalState } from "./proposals.js";
import { OFFLINE_REVIEW } from "./review.js";
import type { OwnerTurn } from "./signals.js";

export const GAPS_FILE = "gaps.jsonl";

// Function words and the vocabulary of correcting (not of what is corrected), as Porter stems.
const STOP = new Set(
  terms(
    "the a an and or but to of in on at for with from by as is are was were be been being it its this that these those there here you your yours i me my mine we our us he she they them their not no yes do does did done doing don't didn't isn't again already told tell telling said say saying asked ask please always never ever just also than then so if when what which who whom how why wrong right correct mistake stop use using make sure now from on once more keep can could would should will shall must thing things way okay ok hey oh ugh really actually instead every time",
  ),
);

export function contentTerms(text: string): string[] {
  // A word with an apostrophe is a contraction ("that's", "don't"): a function word, never the subject.
  return [...new Set(terms(text).filter((t) => t.length >= 3 && !STOP.has(t) && !/^\d+$/.test(t) && !/['’]/.test(t)))];
}

/** Whether two gaps are on one subject (see the header). */
export function sameSubject(a: readonly string[], b: readonly string[]): boolean {
  const inB = new Set(b);
  const shared = a.filter((t) => inB.has(t)).length;
  return shared >= 2 || (shared >= 1 && shared === Math.min(a.length, b.length));
}

/**
 * Whether a rule was written (in a file or a check) on a date, from its location patches in
 * order (a proposed rule's row starts unwritten): a new rule is unwritten until its approval
 * and again after an undo, and a turn then breaks nothing of it. A rule whose location never
 * changed is as its row says.
 */
export function writtenOn(rule: LedgerRule, date: string): boolean {
  const moves = rule.patches.filter((p) => p.set.location !== undefined);
  let written = moves.length === 0 ? rule.location.kind !== "unwritten" : false;
  for (const p of moves) if (p.at <= date) written = p.set.location!.kind !== "unwritten";
  return written;
}

/** A turn the auditor counted nothing for although it is a rule-gap correction: a gap. */
export function gapOf(turn: OwnerTurn, out: TurnOutcome, project?: string | null): GapRow | null {
  const r = out.reading;
  if (r.signal === null || r.signal === "praise" || r.signal === "job") return null;
  if ((out.cause !== "rule_gap" && out.cause !== "undecided") || out.lines.length > 0 || contentTerms(turn.text).length === 0) return null;
  // A rule of the project covers it, which one undecided (naming.ts cover cut): no new rule.
  if (out.undecidedRule === true) return null;
  const files = turn.tools_before.map((t) => t.input["file_path"]).filter((f): f is string => typeof f === "string");
  return { kind: "gap", v: 1, exchange_id: turn.exchange_id, session_id: turn.session_id, date: turn.ts, text: turn.text, signal: r.signal, severity: r.severity, tools: [...new Set(turn.tools_before.map((t) => t.name))], files: [...new Set(files)], ...(project !== undefined ? { project } : {}) };
}

export function readGaps(dir: string): GapRow[] {
  const seen = new Set<string>();
  return readJsonl(join(dir, GAPS_FILE), GapRowSchema, { what: "a rule-gap line" }).rows.filter((g) => !seen.has(g.exchange_id) && (seen.add(g.exchange_id), true));
}

/** Appends the gaps not yet kept (by exchange id), redacted. Returns how many were new. */
export function appendGaps(dir: string, rows: readonly GapRow[]): number {
  const known = new Set(readGaps(dir).map((g) => g.exchange_id));
  const fresh: GapRow[] = [];
  for (const g of rows) {
    if (known.has(g.exchange_id)) continue;
    known.add(g.exchange_id);
    fresh.push(GapRowSchema.parse(redactForWrite(g).value));
  }
  if (fresh.length > 0) appendJsonl(join(dir, GAPS_FILE), fresh);
  return fresh.length;
}

/** Groups of gaps on one subject in one project, each in (date, exchange id) order; groups in their first gap's order. */
export function groupGaps(gaps: readonly GapRow[]): GapRow[][] {
  const projects = [...new Set(gaps.map((g) => g.project ?? null))];
  if (projects.length > 1) return projects.flatMap((p) => subjectGroups(gaps.filter((g) => (g.project ?? null) === p)));
  return subjectGroups(gaps);
}

function subjectGroups(gaps: readonly GapRow[]): GapRow[][] {
  const sorted = [...gaps].sort((a, b) => a.date.localeCompare(b.date) || a.exchange_id.localeCompare(b.exchange_id));
  const ts = sorted.map((g) => contentTerms(g.text));
  const parent = sorted.map((_, i) => i);
  const root = (i: number): number => (parent[i] === i ? i : (parent[i] = root(parent[i]!)));
  for (let i = 0; i < sorted.length; i++) for (let j = i + 1; j < sorted.length; j++) if (sameSubject(ts[i]!, ts[j]!)) parent[root(j)] = root(i);
  const groups = new Map<number, GapRow[]>();
  sorted.forEach((g, i) => {
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), g]);
  });
  return [...groups.values()];
}

// What opens a correction and says nothing of the rule: dropped from the front of a sentence.
const OPENER = /^(?:no+|nope|wrong( again)?|again|ugh|sigh|please|remember|that'?s (?:wrong|not (?:right|it|what i (?:asked|wanted)))|that (?:was|is) wrong|i (?:already |just )?(?:told|asked) you(?: to)?|as i (?:said|told you)|i said|like i said)\b[\s,.:;!-]*/i;

function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => {
      let t = s.trim();
      for (let k = 0; k < 4 && OPENER.test(t); k++) t = t.replace(OPENER, "").trim();
      return t;
    })
    .filter((s) => contentTerms(s).length > 0);
}

/** The rule in the owner's words: the sentence of the group that holds most of its shared terms. */
export function ruleTextOf(group: readonly GapRow[]): { text: string; shared: string[] } {
  const count = new Map<string, number>();
  for (const g of group) for (const t of contentTerms(g.text)) count.set(t, (count.get(t) ?? 0) + 1);
  const shared = [...count].filter(([, n]) => n >= 2).map(([t]) => t);
  const want = new Set(shared);
  let best: { s: string; score: number } | null = null;
  for (const g of group) {
    for (const s of sentences(g.text)) {
      // Most shared terms; then a directive ("always", "never"); the first such wins ties.
      const score = contentTerms(s).filter((t) => want.has(t)).length * 2 + (/\b(always|never|don't|do not|only)\b/i.test(s) ? 1 : 0);
      if (best === null || score > best.score) best = { s, score };
    }
  }
  const raw = (best?.s ?? group[0]!.text).trim();
  const text = `${raw.charAt(0).toUpperCase()}${raw.slice(1)}`.replace(/[\s,;:!-]+$/, "");
  return { text: redactTextForWrite(/[.!?]$/.test(text) ? text : `${text}.`), shared };
}

/** Words (as typed) whose stems the group shares: the new rule's keywords, so later corrections name it. */
function keywordsOf(group: readonly GapRow[], shared: readonly string[]): string[] {
  const want = new Set(shared);
  const out = new Map<string, string>();
  for (const g of group) for (const w of words(g.text)) for (const t of terms(w)) if (want.has(t) && !out.has(t)) out.set(t, w);
  return [...out.values()];
}

function scopeOf(group: readonly GapRow[]): { paths: string; when: string | null } {
  const exts = group.map((g) => new Set(g.files.map((f) => /\.([A-Za-z0-9]+)$/.exec(f)?.[1]?.toLowerCase() ?? "")));
  const common = [...(exts[0] ?? [])].filter((e) => e !== "" && exts.every((s) => s.has(e)));
  if (common.length === 1) return { paths: `**/*.${common[0]!}`, when: `when working on *.${common[0]!} files` };
  if (group.every((g) => g.tools.includes("Bash")) && group.every((g) => g.files.length === 0)) return { paths: "**/*", when: "when running shell commands" };
  return { paths: "**/*", when: null };
}

const evidenceLine = (g: GapRow): string => `${g.exchange_id} ${g.date} session ${g.session_id} ${g.signal}: ${JSON.stringify(g.text.length > 200 ? `${g.text.slice(0, 199)}…` : g.text)}`;

/** Exchange ids already behind a new_rule proposal (any status): a rejected subject is not drafted again from the same words. */
function consumed(table: ReadonlyMap<string, ProposalState>): Set<string> {
  return new Set([...table.values()].filter((s) => s.proposal.type === "new_rule").flatMap((s) => s.proposal.evidence.map((e) => e.split(" ")[0]!)));
}

/** The new_rule proposals the kept gaps earn now (not yet in the table), review offline until the auditor's reviewer runs. */
export function draftNewRules(dir: string, table: ReadonlyMap<string, ProposalState>, ctx: DraftContext): Proposal[] {
  const used = consumed(table);
  const out: Proposal[] = [];
  for (const group of groupGaps(readGaps(dir).filter((g) => !used.has(g.exchange_id)))) {
    const sessions = [...new Set(group.map((g) => g.session_id))];
    if (sessions.length < REPEAT) continue;
    // The id comes from the first gap of each of the first two sessions: a third repeat does not make it a new proposal.
    const firsts = sessions.slice(0, REPEAT).map((s) => group.find((g) => g.session_id === s)!.exchange_id);
    const ruleId = `ladder.new.${createHash("sha256").update(firsts.join("\u0000")).digest("hex").slice(0, 10)}`;
    const { text, shared } = ruleTextOf(group);
    const scope = scopeOf(group);
    // The project of the corrections (never the folder the audit ran from); none known: the context's, if it names one.
    const project = group.find((g) => typeof g.project === "string")?.project ?? ctx.projectDir;
    if (project === null) continue;
    const file = join(project, ".claude", "rules", `${slug(text)}.md`);
    const hash = fileHash(file);
    const line = `- ${text}\n`;
    const why = `the owner corrected this ${group.length} times in ${sessions.length} sessions and no rule of the ledger names it`;
    const rule: RuleRow = { kind: "rule", v: 1, rule_id: ruleId, at: ctx.at, text, why, when: scope.when, when_not: null, rung: 0, location: { kind: "unwritten" }, origin: "proposed", keywords: keywordsOf(group, shared), witness: null, exempt: false, project };
    out.push({
      kind: "proposal",
      v: 1,
      id: proposalId(ruleId, "new_rule", 0, 1, group.map((g) => g.exchange_id)),
      at: ctx.at,
      type: "new_rule",
      rule_id: ruleId,
      from_rung: 0,
      to_rung: 1,
      diagnosis: "rule_gap: no rule names it",
      why: `${why}: write it as a line for this kind of task (rung 1)`,
      evidence: group.map(evidenceLine),
      edit: { kind: "text", file, file_hash: hash, before: null, after: hash === null ? `---\npaths:\n  - "${scope.paths}"\n---\n\n${line}` : line },
      review: OFFLINE_REVIEW,
      rule,
      location_before: { kind: "unwritten" },
    });
  }
  return out.filter((p) => !table.has(p.id));
}
