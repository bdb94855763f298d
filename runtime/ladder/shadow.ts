/**
 * Checks earn their place in shadow. Would-be fires are measured two ways: live (the hook
 * logs a shadow check's eligible calls and fires to tool-events.jsonl, acting on none) and by
 * replaying the PreToolUse payloads reconstructed from transcripts' tool calls through the
 * check as installed. Both become the calibration gate's shadow events (`judgeShadowLog`:
 * sessions as the unit, the false-alarm bound under the target, and at least a week).
 *
 * True or false alarm: a fire counts as true when the owner corrects the same rule (an
 * incident of the check's rule) within three turns after the call, else false. Its biases,
 * stated: a real slip the owner let pass counts as a false alarm (the bound is pessimistic
 * for the check), and a correction of the same rule for another reason counts as true
 * (optimistic); a violation with no fire is a miss, reported as detection apart.
 *
 * Example: replayShadow(check, [{turns, calls}], incidents) -> [{check, session_id, ts, eligible: true, fired: true, violation: false}, ...].
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { judgeShadowLog, type ShadowEvent, type ShadowVerdict } from "../../calibration/index.js";
import { writeFileAtomic } from "../files/index.js";
import { compileChecks, evaluateCompiled, type Check } from "../ladder-formats/index.js";
import type { ToolEvent } from "../../schemas/ladder-checks.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import type { TranscriptTurns } from "./transcript-turns.js";

export const TRUE_ALARM_TURNS = 3;
export const GATE = { falseAlarmRate: 0.05, confidence: 0.95, minDays: 7 } as const;

function corrected(t: TranscriptTurns, turnIndex: number, ruleId: string | null | undefined, incidents: readonly IncidentRow[]): boolean {
  if (!ruleId) return false;
  const ids = new Set(t.turns.slice(turnIndex + 1, turnIndex + 1 + TRUE_ALARM_TURNS).map((x) => x.exchange_id));
  return incidents.some((i) => i.rule_id === ruleId && ids.has(i.exchange_id));
}

/** Replays every recorded call of the transcripts through the check. */
export function replayShadow(check: Check, sessions: readonly TranscriptTurns[], incidents: readonly IncidentRow[]): ShadowEvent[] {
  const compiled = compileChecks([{ ...check, mode: "active" }]);
  const out: ShadowEvent[] = [];
  for (const t of sessions) {
    for (const c of t.calls) {
      const o = evaluateCompiled(compiled, { tool_name: c.tool_name, tool_input: c.tool_input }).outcomes[0]!;
      if (!o.eligible) continue;
      out.push({ check: check.id, session_id: c.session_id, ts: c.ts ?? "", eligible: true, fired: o.fired, violation: corrected(t, c.turn, check.rule_id, incidents) });
    }
  }
  return out;
}

/** Live shadow lines joined to their transcripts by tool_use_id; lines with no transcript are counted apart. */
export function liveShadow(events: readonly ToolEvent[], check: Check, sessions: readonly TranscriptTurns[], incidents: readonly IncidentRow[]): { events: ShadowEvent[]; unjoined: number } {
  const byId = new Map<string, { t: TranscriptTurns; turn: number }>();
  for (const t of sessions) for (const c of t.calls) if (c.tool_use_id) byId.set(c.tool_use_id, { t, turn: c.turn });
  const out: ShadowEvent[] = [];
  let unjoined = 0;
  for (const e of events) {
    if (e.check !== check.id || e.mode !== "shadow") continue;
    const at = e.tool_use_id ? byId.get(e.tool_use_id) : undefined;
    if (!at) {
      unjoined++;
      continue;
    }
    out.push({ check: check.id, session_id: e.session_id ?? "?", ts: e.ts, eligible: true, fired: e.fired, violation: corrected(at.t, at.turn, check.rule_id, incidents) });
  }
  return { events: out, unjoined };
}

export function shadowVerdict(check: Check, events: readonly ShadowEvent[]): ShadowVerdict {
  return judgeShadowLog(events, check.id, GATE);
}

/** One line for the morning report and the proposal's evidence. */
export function verdictLine(v: ShadowVerdict): string {
  const bound = v.upperBound === null ? "n/a" : v.upperBound.toFixed(4);
  return `${v.check}: ${v.opportunities} sessions, ${v.falseAlarmSessions} with a false alarm, bound ${bound} (target ${GATE.falseAlarmRate}), ${v.daysWatched.toFixed(1)} days; caught ${v.caught}/${v.violations} violations; ${v.earned ? "gate passed" : `not yet: ${v.reasons.join("; ")}`}`;
}

/**
 * The last audit's gate reading of each check in shadow, kept for the morning report and the
 * mod's pane (the verdicts need the transcripts, which only the audit reads). Written whole
 * (atomically) by every audit, an empty list when no check is in shadow.
 */
export const SHADOW_FILE = "shadow.json";

export function writeShadowVerdicts(dir: string, at: string, verdicts: readonly ShadowVerdict[]): void {
  writeFileAtomic(join(dir, SHADOW_FILE), `${JSON.stringify({ v: 1, at, checks: verdicts.map((v) => ({ check: v.check, earned: v.earned, line: verdictLine(v) })) })}\n`);
}

/** The last audit's lines (`verdictLine`), with the audit's time; none before the first audit or from a file that does not read. */
export function readShadowLines(dir: string): { at: string | null; lines: string[] } {
  const file = join(dir, SHADOW_FILE);
  if (!existsSync(file)) return { at: null, lines: [] };
  try {
    const v = JSON.parse(readFileSync(file, "utf8")) as { at?: unknown; checks?: Array<{ line?: unknown }> };
    return { at: typeof v.at === "string" ? v.at : null, lines: (v.checks ?? []).map((c) => c.line).filter((l): l is string => typeof l === "string") };
  } catch {
    return { at: null, lines: [] };
  }
}
