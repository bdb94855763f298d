/**
 * From an owner's turn to rule-ledger lines: which rule the turn is about, whether the rule
 * was broken (an incident, counted) or only named (a mention, kept and never counted),
 * whether it was in view, and the correction's cause.
 *
 * Incidents, not mentions: a rule with a witness (a condition on the reply or tool calls
 * before the turn that shows it broken, e.g. "the reply is not in Finnish") counts an
 * incident only when the witness says broken, whatever the owner wrote; "as I said, Finnish
 * please" after a reply already in Finnish is a mention. Without a witness, an explicit
 * "that was wrong" or an undo counts; a restatement or directive alone is a mention (nothing
 * shows the reply broke the rule).
 *
 * In view: rung 3 (an installed check runs on every call) yes; rung 1-2 from the
 * InstructionsLoaded rows of the session (the rule's file loaded: yes; the session recorded
 * loads but not this file: no; no rows for the session: unknown); rung 0 (a note) yes only
 * when the session's tool calls read it.
 *
 * Example: turnLines(turn "as I said, Finnish please" after "Sure, here it is." , [finnishRule])
 * -> [{kind: "incident", rule_id: "lang.fi", signal: "correction", ...}]; after "Tässä se on." -> [{kind: "mention", ...}].
 */
import { terms } from "../rules/index.js";
import type { InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import { SIGNALS, type Cause, type IncidentRow, type MentionRow, type RuleLedgerLine, type Witness } from "../../schemas/rule-ledger.js";
import { incidentId, type LedgerRule } from "./ledger.js";
import { signalOf, type OwnerTurn, type SignalReading } from "./signals.js";

/** The rules a turn names: most keyword (or text) terms found in the turn, ties kept. */
export function rulesNamed(turn: OwnerTurn, rules: readonly LedgerRule[]): LedgerRule[] {
  const have = new Set(terms(turn.text));
  let best = 0;
  let out: LedgerRule[] = [];
  for (const r of rules) {
    const keys = r.keywords.length > 0 ? r.keywords.flatMap((k) => terms(k)) : terms(r.text).filter((t) => t.length > 3);
    const hits = new Set(keys.filter((k) => have.has(k))).size;
    if (hits === 0) continue;
    if (hits > best) {
      best = hits;
      out = [r];
    } else if (hits === best) out.push(r);
  }
  return out;
}

/** true: the reply or tool calls before show the rule broken; false: kept; null: the witness has nothing to read. */
export function witnessSays(w: Witness, turn: OwnerTurn): boolean | null {
  const re = new RegExp(w.pattern, "iu");
  const values =
    w.field === "reply"
      ? turn.reply_before !== null
        ? [turn.reply_before]
        : []
      : turn.tools_before.map((t) => t.input[w.field]).filter((v): v is string => typeof v === "string");
  if (values.length === 0) return null;
  const matched = values.some((v) => re.test(v));
  return w.broken_when_absent ? !matched : matched;
}

export function inView(rule: LedgerRule, turn: OwnerTurn, loads: readonly InstructionsLoadedRow[]): boolean | null {
  if (rule.rung === 3) return true;
  const loc = rule.location;
  if (loc.kind !== "text") return false;
  if (rule.rung === 0) return turn.tools_before.some((t) => t.input["file_path"] === loc.file || (typeof t.input["path"] === "string" && loc.file.startsWith(t.input["path"] as string)));
  const session = loads.filter((l) => l.session_id === turn.session_id);
  if (session.length === 0) return null;
  return session.some((l) => l.file_path === loc.file || l.file_path.endsWith(`/${loc.file}`));
}

export interface TurnOutcome {
  reading: SignalReading;
  lines: RuleLedgerLine[];
  /** The turn's cause class when it was sorted (only rule_gap touches rules). */
  cause: Cause | null;
}

/**
 * The ledger lines for one turn. `causeOf` sorts a correction by cause before any rule is
 * touched: a correction that is not a rule gap writes no incident (the rule was not what
 * failed) and no mention.
 */
export function turnLines(turn: OwnerTurn, rules: readonly LedgerRule[], loads: readonly InstructionsLoadedRow[], causeOf: (turn: OwnerTurn) => Cause | null): TurnOutcome {
  let reading = signalOf(turn);
  if (reading.signal === "praise" || reading.signal === "job") return { reading, lines: [], cause: null };
  let named = rulesNamed(turn, rules);
  if (reading.signal === null) {
    // A bare restatement ("as I said, Finnish please") carries no correction marker the
    // capture classifier trusts on its own ("as I said" is as often neutral). Only a rule's
    // witness can make it one: restated right after a reply that broke the rule, it is a
    // correction in the next message; after a reply that kept it, a mention. Rules without a
    // witness say nothing here, as before.
    named = named.filter((r) => r.witness && witnessSays(r.witness, turn) !== null);
    if (named.length === 0) return { reading, lines: [], cause: null };
    const broken = named.filter((r) => witnessSays(r.witness!, turn) === true).map((r) => r.rule_id);
    if (broken.length > 0) reading = { signal: "correction", strength: SIGNALS.indexOf("correction"), severity: 1, evidence: broken.map((id) => `restated ${id} after a reply its witness shows broke it`) };
  }
  const cause = causeOf(turn);
  if (cause !== null && cause !== "rule_gap") return { reading, lines: [], cause };
  const lines: RuleLedgerLine[] = [];
  for (const rule of named) {
    const witnessed = rule.witness ? witnessSays(rule.witness, turn) : null;
    const broken = witnessed !== null ? witnessed : reading.signal === "explicit" || reading.signal === "undo";
    if (!broken) {
      const why =
        witnessed === false
          ? "the reply before already kept the rule (its witness found nothing broken)"
          : "a restatement or directive with nothing showing the reply broke the rule";
      const m: MentionRow = { kind: "mention", v: 1, rule_id: rule.rule_id, exchange_id: turn.exchange_id, session_id: turn.session_id, date: turn.ts, why_not_counted: why };
      lines.push(m);
      continue;
    }
    // A broken rule always has a reading: a signal from the text, or the witnessed restatement above.
    if (reading.signal === null) continue;
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
      rung: rule.rung,
      cause: cause ?? "rule_gap",
    };
    lines.push(inc);
  }
  return { reading, lines, cause };
}
