/**
 * The nightly auditor (a stage of `errata daily`, and `errata rules audit`): reads the night's
 * transcripts, counts incidents into the rule ledger (each once), diagnoses every rule broken
 * again, drafts one proposal per rule (none while one is pending), judges every check in
 * shadow by replay and live lines through the calibration gate, drafts the leave-shadow
 * proposal of a check that passed, a new rule for a rule gap repeated in two sessions
 * (gaps.ts), a loosening of an ask check the owner overrode in two (overrides.ts), has the
 * reviewer lane argue against each new draft (review.ts), and writes its receipts (audit and
 * shadow), empty runs included.
 * It changes no instruction file and no check: only the owner's approval does.
 * The one model call it may make is the contradiction step's doctrine noul (diagnose.ts),
 * through the engine it is given; offline that noul is unscored and the heuristic decides.
 *
 * Example: runAudit({ladderDir, projectDir, transcripts: ["s1.jsonl"], at: "2026-12-02T03:00:00Z"})
 * -> {incidents: 2, mentions: 1, proposals: 1, shadow: [], ...}.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ShadowVerdict } from "../../calibration/index.js";
import { readJsonl } from "../files/index.js";
import { CHECKS_FILE, INSTRUCTIONS_LOADED_FILE, TOOL_EVENTS_FILE, parseChecksFile } from "../ladder-formats/index.js";
import { InstructionsLoadedSchema, ToolEventSchema } from "../../schemas/ladder-checks.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import type { GapRow, RuleLedgerLine } from "../../schemas/rule-ledger.js";
import type { RuleIndex } from "../../schemas/rules.js";
import { appliesTo } from "../rules/index.js";
import { warnOnStderr } from "../files/index.js";
import { DEFAULT_NAMING_CUT, RuleNamer, type NamingCut } from "./naming.js";
import { causeModel } from "./causes.js";
import { createEngine, type Engine } from "../engine/index.js";
import { diagnose, placement, reachesContradiction, readContradiction, type ContradictionCut, type DiagnosisResult } from "./diagnose.js";
import { draftLeaveShadow, draftProposal } from "./drafts.js";
import { appendGaps, draftNewRules, gapOf, writtenOn } from "./gaps.js";
import { turnLines } from "./incidents.js";
import { openRuleLedger } from "./ledger.js";
import { draftOverrideLoosens, toolResults } from "./overrides.js";
import { sortedCauses } from "./journey.js";
import { addProposal, readProposals } from "./proposals.js";
import { writeReceipt } from "./receipts.js";
import { reviewed, type Reviewer } from "./review.js";
import { liveShadow, replayShadow, shadowVerdict, verdictLine, writeShadowVerdicts } from "./shadow.js";
import { transcriptTurns, type TranscriptTurns } from "./transcript-turns.js";

export interface AuditInput {
  ladderDir: string;
  /**
   * The project a climb edits when neither the correction's session (its `cwd` under an
   * indexed project) nor the rule says one; null: such a climb is drafted as a repair that
   * asks which. Never the folder the audit runs from by default.
   */
  projectDir: string | null;
  /** The rule index: its projects say which project a session's `cwd` belongs to, and which rules it can name. */
  index?: RuleIndex | null;
  /** One line per damaged transcript (default stderr). */
  warn?: (line: string) => void;
  /** The cut rule_covers' P(yes) must reach to name a rule (default DEFAULT_NAMING_CUT), with its origin. */
  namingCut?: NamingCut;
  transcripts: readonly string[];
  /** ISO time of the run (the night is its UTC date). */
  at: string;
  budget?: number;
  /** The reviewer lane that argues against each new draft (review.ts); none: offline, and the proposal says so. */
  reviewer?: Reviewer | null;
  /**
   * The engine the contradiction step asks part 2's doctrine noul through (default: the
   * embedded lane, made only when a rule reaches that step; offline it cannot answer the
   * noul, and the heuristic decides, as each diagnosis says).
   */
  engine?: Engine;
  /** The cut on the noul's P(yes), with its origin (default DEFAULT_CONTRADICTION_CUT). */
  contradictionCut?: ContradictionCut;
  /** Fault injection for the journey's model test: the run dies after this step. */
  crashAfter?: "count" | "draft";
}

export class InjectedCrash extends Error {
  constructor(readonly step: string) {
    super(`injected crash after ${step}`);
  }
}

export interface AuditReport {
  turns: number;
  /** Transcripts skipped in part or whole (a line without a timestamp, a damaged file), one line each. */
  skipped: string[];
  incidents: number;
  mentions: number;
  /** Corrections by cause class, and `undecided_rule`: covered by a rule of the project, which one undecided (naming.ts cover cut). */
  sorted: Record<string, number>;
  diagnoses: DiagnosisResult[];
  proposals: string[];
  shadow: ShadowVerdict[];
  /** Rule-gap corrections naming no rule, newly kept (gaps.ts): a subject repeated in two sessions drafts a new rule. */
  gaps: number;
}

export async function runAudit(input: AuditInput): Promise<AuditReport> {
  const { ladderDir: dir, at } = input;
  const night = at.slice(0, 10);
  const ledger = openRuleLedger(dir);
  const loads = readJsonl(join(dir, INSTRUCTIONS_LOADED_FILE), InstructionsLoadedSchema).rows;
  const sessions: TranscriptTurns[] = [];
  const skipped: string[] = [];
  const readable: string[] = [];
  const warn = input.warn ?? warnOnStderr;
  for (const t of input.transcripts) {
    const read = await transcriptTurns(t);
    if (read.problem !== null) {
      skipped.push(read.problem);
      warn(`errata ladder: ${read.problem}`);
    }
    if (read.problem === null || !read.problem.includes(": unreadable (")) readable.push(t);
    sessions.push(read);
  }
  // The project of a session: the deepest indexed project holding its cwd, else the cwd itself.
  const indexed = [...(input.index?.projects ?? [])].sort((a, b) => b.length - a.length);
  const projectOf = (cwd: string | null | undefined): string | null => (cwd ? (indexed.find((p) => appliesTo(p, cwd)) ?? cwd) : null);
  const before = ledger.read().ledger;
  const rules = [...before.rules.values()];
  const known = new Set(rules.flatMap((r) => r.incidents.map((i) => i.incident_id)));
  const knownMentions = new Set(rules.flatMap((r) => r.mentions.map((m) => `${m.rule_id}\u0000${m.exchange_id}`)));
  const lines: RuleLedgerLine[] = [];
  const sorted: Record<string, number> = {};
  let turns = 0;
  const model = causeModel();
  const namer = new RuleNamer(rules, undefined, input.namingCut ?? DEFAULT_NAMING_CUT);
  // The quick reflection's sort, where it ran; the model's otherwise. A reflection's
  // beyond_model where no cue fires is the model's constant default, not a sort: undecided.
  const sortedBefore = sortedCauses(dir);
  const sortOf = (x: { exchange_id: string; text: string; reply_before: string | null }) => {
    const own = model.sort(x.text, x.reply_before);
    const before = sortedBefore.get(x.exchange_id);
    return before === undefined || (own === "undecided" && before === "beyond_model") ? own : before;
  };
  const gapRows: GapRow[] = [];
  const proposed = new Map(rules.filter((r) => r.origin === "proposed").map((r) => [r.rule_id, r]));
  for (const s of sessions) {
    for (const t of s.turns) {
      turns++;
      const project = projectOf(t.cwd);
      const out = turnLines(t, rules, loads, sortOf, { namer, project });
      if (out.cause !== null) sorted[out.cause] = (sorted[out.cause] ?? 0) + 1;
      // Covered by a rule of the project, which one undecided (naming.ts): reported, never counted, never a gap.
      if (out.undecidedRule === true) sorted["undecided_rule"] = (sorted["undecided_rule"] ?? 0) + 1;
      // A rule the ladder proposed breaks nothing before it was written, nor after an undo took it
      // back (the gaps that made it are not its incidents); a turn left with no line is a gap again.
      const counted = out.lines.filter((l) => l.kind === "rule" || l.kind === "patch" || !proposed.has(l.rule_id) || writtenOn(proposed.get(l.rule_id)!, l.date));
      const gap = gapOf(t, { ...out, lines: counted }, project);
      if (gap !== null) gapRows.push(gap);
      for (const l of counted) {
        if (l.kind === "incident" && known.has(l.incident_id)) continue;
        if (l.kind === "mention" && knownMentions.has(`${l.rule_id}\u0000${l.exchange_id}`)) continue;
        lines.push(l);
      }
    }
  }
  ledger.append(lines);
  const gaps = appendGaps(dir, gapRows);
  if (input.crashAfter === "count") throw new InjectedCrash("count");
  const after = ledger.read().ledger;
  const all = [...after.rules.values()];
  // A proposal approved but not yet applied (a run died on the way) is still open: no second draft beside it.
  const pendingRules = new Set([...readProposals(dir).values()].filter((p) => p.status === "pending" || p.status === "approved").map((p) => p.proposal.rule_id));
  const diagnoses: DiagnosisResult[] = [];
  const proposals: string[] = [];
  // A drafted check is replayed over the recorded calls of its project (all of them when the project is unknown).
  const allCalls = sessions.flatMap((x) => x.calls);
  const recorded = (project: string | null) => allCalls.filter((c) => project === null || (c.cwd !== null && appliesTo(project, c.cwd)));
  const ctx = { ladderDir: dir, projectDir: input.projectDir, at, recorded };
  // Only a draft not yet in the table is reviewed: a retried night asks the reviewer nothing twice.
  const review = async <P extends Proposal | null>(p: P): Promise<P> => (p === null || readProposals(dir).has(p.id) ? p : ((await reviewed(p, input.reviewer)) as P));
  let engine: Engine | undefined;
  for (const r of all) {
    const file = r.location.kind === "text" ? r.location.file : null;
    const text = file !== null && existsSync(file) ? readFileSync(file, "utf8") : null;
    const place = placement(text, r.text);
    let d = diagnose(r, all, place, input.budget);
    if (reachesContradiction(d)) {
      engine ??= input.engine ?? createEngine({ lane: "embedded" });
      d = diagnose(r, all, place, input.budget, await readContradiction(r, all, engine, input.contradictionCut));
    }
    if (d.diagnosis === "too_few") continue;
    diagnoses.push(d);
    if (pendingRules.has(r.rule_id)) continue;
    const p = await review(draftProposal(r, d, ctx));
    if (p !== null && addProposal(dir, p)) {
      proposals.push(p.id);
      pendingRules.add(r.rule_id);
    }
  }
  for (const drafted of draftNewRules(dir, readProposals(dir), ctx)) {
    if (pendingRules.has(drafted.rule_id)) continue;
    const p = await review(drafted);
    if (addProposal(dir, p)) {
      proposals.push(p.id);
      pendingRules.add(p.rule_id);
    }
  }
  if (input.crashAfter === "draft") throw new InjectedCrash("draft");
  // Checks in shadow: replay and live lines, judged by the gate.
  const checksFile = join(dir, CHECKS_FILE);
  const checks = existsSync(checksFile) ? parseChecksFile(readFileSync(checksFile, "utf8"), checksFile) : [];
  const events = readJsonl(join(dir, TOOL_EVENTS_FILE), ToolEventSchema).rows;
  const incidents = all.flatMap((r) => r.incidents);
  const verdicts: ShadowVerdict[] = [];
  for (const c of checks.filter((k) => k.mode === "shadow")) {
    const replayed = replayShadow(c, sessions, incidents);
    const live = liveShadow(events, c, sessions, incidents);
    // A live line and its replay are the same moment: keep the live one where both exist.
    const liveKeys = new Set(live.events.map((e) => `${e.session_id}\u0000${e.ts}`));
    const v = shadowVerdict(c, [...live.events, ...replayed.filter((e) => !liveKeys.has(`${e.session_id}\u0000${e.ts}`))]);
    verdicts.push(v);
    const rule = c.rule_id ? after.rules.get(c.rule_id) : undefined;
    if (v.earned && rule && !pendingRules.has(rule.rule_id)) {
      const p = await review(draftLeaveShadow(rule, c.id, verdictLine(v), ctx));
      if (addProposal(dir, p)) proposals.push(p.id);
    }
  }
  // Active checks the owner overrode (said yes to what they asked) in two sessions: a loosening, for the owner's yes.
  for (const drafted of draftOverrideLoosens(after.rules, events, toolResults(readable), readProposals(dir), ctx)) {
    if (pendingRules.has(drafted.rule_id)) continue;
    const p = await review(drafted);
    if (addProposal(dir, p)) {
      proposals.push(p.id);
      pendingRules.add(p.rule_id);
    }
  }
  const incidentLines = lines.filter((l) => l.kind === "incident").length;
  const mentionLines = lines.filter((l) => l.kind === "mention").length;
  writeReceipt(dir, { loop: "audit", at, night, ok: true, counts: { turns, incidents: incidentLines, mentions: mentionLines, gaps, diagnoses: diagnoses.length, proposals: proposals.length }, note: null });
  writeShadowVerdicts(dir, at, verdicts);
  writeReceipt(dir, { loop: "shadow", at, night, ok: true, counts: { checks: verdicts.length, passed: verdicts.filter((v) => v.earned).length }, note: null });
  return { turns, skipped, incidents: incidentLines, mentions: mentionLines, sorted, diagnoses, proposals, shadow: verdicts, gaps };
}
