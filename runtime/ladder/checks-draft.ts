/**
 * A check drafted from evidence, tested before it is shown. The candidates come from the
 * rule (its own witness when it reads a tool field, else the commands its text forbids:
 * derive.ts); each is narrowed by the calls the owner corrected (a qualifier the rule names,
 * "on main", is kept only when those calls carry it), must fire on at least one corrected
 * call, and is replayed over the project's recorded tool calls: the share of the other calls
 * it would fire on is what the owner sees, with examples, and a check over MAX_FIRE_SHARE of
 * them is not proposed at all ("don't use `git push --force` on main" never becomes every
 * `git`). With no corrected call recorded, nothing can be tested and nothing is drafted: the
 * proposal asks the owner for the conditions.
 *
 * Example: draftFromEvidence(rule "Never force-push to main", [{tool: "Bash", field: "command",
 * value: "git push -f origin main"}], recorded) -> {check: {conditions: [{field: "command",
 * pattern: "(?=[\\s\\S]*\\bmain\\b)\\bgit\\s...push..."}], ...}, replay: {fired: 0, of: 1204, ...}}.
 */
import type { Check } from "../ladder-formats/index.js";
import { compileChecks, evaluateCompiled } from "../ladder-formats/index.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { commandPatterns } from "./derive.js";
import type { LedgerRule } from "./ledger.js";

/**
 * The check's message, which the model receives as the deny reason: the rule's words without
 * the list marker the rule index keeps from the file ("- Use pnpm, never npm." reached the
 * model in the real client as "] - Use pnpm, never npm.").
 */
export const checkMessage = (text: string): string => text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "").trim() || text;

/** The most a drafted check may fire on among the project's other recorded calls. */
export const MAX_FIRE_SHARE = 0.02;
export const REPLAY_EXAMPLES = 3;

export interface RecordedCall {
  tool_name: string;
  tool_input: Record<string, unknown>;
}

export interface Replay {
  /** Corrected calls it fires on, of those it can read. */
  corrected: { fired: number; of: number };
  /** Other recorded calls of the project it would fire on, of all it was replayed over. */
  others: { fired: number; of: number };
  examples: string[];
}

export type Drafted = { check: Check; replay: Replay } | { check: null; why: string };

const commandOf = (c: RecordedCall): string | null => (typeof c.tool_input["command"] === "string" ? (c.tool_input["command"] as string) : null);

export function replayCheck(check: Check, corrected: readonly RecordedCall[], recorded: readonly RecordedCall[]): Replay {
  const compiled = compileChecks([{ ...check, mode: "active" }]);
  const fires = (c: RecordedCall): boolean => evaluateCompiled(compiled, { tool_name: c.tool_name, tool_input: c.tool_input }).outcomes[0]?.fired === true;
  // A recorded call that is one the owner corrected (same tool, same value in a corrected field) is no false fire.
  const seen = new Set(corrected.flatMap((c) => Object.entries(c.tool_input).map(([k, v]) => `${c.tool_name}\u0000${k}\u0000${String(v)}`)));
  const isCorrected = (c: RecordedCall): boolean => Object.entries(c.tool_input).some(([k, v]) => typeof v === "string" && seen.has(`${c.tool_name}\u0000${k}\u0000${v}`));
  const others = recorded.filter((c) => !isCorrected(c));
  const fired = others.filter(fires);
  return {
    corrected: { fired: corrected.filter(fires).length, of: corrected.length },
    others: { fired: fired.length, of: others.length },
    examples: fired.slice(0, REPLAY_EXAMPLES).map((c) => `${c.tool_name}: ${(commandOf(c) ?? JSON.stringify(c.tool_input)).slice(0, 120)}`),
  };
}

/** The corrected calls as the check runner reads them (from incidents' `calls`). */
export function correctedFromIncidents(incidents: readonly IncidentRow[]): RecordedCall[] {
  const out = new Map<string, RecordedCall>();
  for (const i of incidents) {
    for (const c of i.calls ?? []) {
      const key = `${c.tool}\u0000${c.field}\u0000${c.value}`;
      if (!out.has(key)) out.set(key, { tool_name: c.tool, tool_input: { [c.field]: c.value } });
    }
  }
  return [...out.values()];
}

function candidates(rule: LedgerRule, corrected: readonly RecordedCall[]): Array<Pick<Check, "tools" | "conditions">> {
  const w = rule.witness;
  if (w && w.field !== "reply" && !w.broken_when_absent) {
    return [{ tools: w.field === "command" ? ["Bash"] : ["Edit", "Write", "MultiEdit"], conditions: [{ field: w.field, operator: "regex_match", pattern: w.pattern }] }];
  }
  const commands = corrected.map(commandOf).filter((c): c is string => c !== null);
  return commandPatterns(rule.text).map((p) => {
    // A qualifier narrows the check only when every corrected command carries it.
    const keep = p.qualifiers.filter((q) => commands.length > 0 && commands.every((c) => new RegExp(`\\b${q}\\b`, "i").test(c)));
    const pattern = `${keep.map((q) => `(?=[\\s\\S]*\\b${q}\\b)`).join("")}${p.pattern}`;
    return { tools: ["Bash"], conditions: [{ field: "command" as const, operator: "regex_match" as const, pattern }] };
  });
}

export function draftFromEvidence(rule: LedgerRule, corrected: readonly RecordedCall[], recorded: readonly RecordedCall[], project: string | null): Drafted {
  const id = `ladder-${rule.rule_id}`.replace(/[^A-Za-z0-9_.:-]/g, "-");
  if (corrected.length === 0) return { check: null, why: "no corrected tool call was recorded with its incidents, so no drafted check can be tested against what the owner corrected" };
  const tried: string[] = [];
  let best: { check: Check; replay: Replay } | null = null;
  for (const c of candidates(rule, corrected)) {
    const check: Check = { id, rule_id: rule.rule_id, ...c, action: "deny", message: checkMessage(rule.text), mode: "shadow", ...(project !== null ? { project } : {}) };
    const replay = replayCheck(check, corrected, recorded);
    const share = replay.others.of === 0 ? 0 : replay.others.fired / replay.others.of;
    if (replay.corrected.fired === 0) {
      tried.push(`${c.conditions[0]!.pattern}: fires on none of the corrected calls`);
      continue;
    }
    if (share > MAX_FIRE_SHARE) {
      tried.push(`${c.conditions[0]!.pattern}: would fire on ${replay.others.fired} of ${replay.others.of} other recorded calls (over ${MAX_FIRE_SHARE * 100}%)`);
      continue;
    }
    if (best === null || replay.corrected.fired > best.replay.corrected.fired || (replay.corrected.fired === best.replay.corrected.fired && replay.others.fired < best.replay.others.fired)) best = { check, replay };
  }
  if (best !== null) return best;
  return { check: null, why: tried.length === 0 ? "code found no command the rule forbids" : `no drafted condition passed: ${tried.join("; ")}` };
}

/** One line for the approvals table. */
export function replayLine(r: Replay): string {
  const pct = r.others.of === 0 ? "n/a" : `${((100 * r.others.fired) / r.others.of).toFixed(1)}%`;
  return `replay: fires on ${r.corrected.fired}/${r.corrected.of} corrected calls and on ${r.others.fired}/${r.others.of} other recorded calls (${pct})${r.examples.length > 0 ? `, e.g. ${r.examples.join(" | ")}` : ""}`;
}
