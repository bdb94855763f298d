/**
 * The journey of one correction as a specification: an explicit transition table over the
 * four memory stages (captured, sorted, audited, repaired) and the states around them, and
 * the two fast steps the table names that run before the nightly auditor: `capture` (stored
 * before the agent replies; its only promise: "captured, acceptance pending") and `reflect`
 * (the quick sort by cause after the answer). Both are idempotent by exchange id. The
 * transcript stays the source of truth: a capture lost to a crash is counted by the next
 * audit from the transcript, so a crash can delay a correction but not lose it.
 *
 * In the real hooks the two steps are: capture, the UserPromptSubmit hook's row in the errata
 * ledger; reflect, the Stop hook's reflection (runtime/hooks/hook-reflect.ts), which sorts the
 * session's last prompt when that row exists and writes the same `sorted.jsonl` line, keyed by
 * the transcript's exchange id (the auditor's), first line standing. The two functions below
 * are the same steps for any turn, which the model test reorders and duplicates freely.
 *
 * test/ladder/journey-model.test.ts replays random command sequences (fast-check `commands`)
 * against these functions and the real ledger, auditor and approval table, injecting crashes
 * between and inside steps, duplicates and reorders, and checks the table's invariants.
 *
 * Example: JOURNEY.filter((t) => t.from === "captured").map((t) => t.event) ->
 * ["capture", "reflect", "reflect_crash", "audit", "audit_crash"].
 */
import { join } from "node:path";
import { appendJsonl, readJsonl } from "../files/index.js";
import { redactTextForWrite } from "../privacy/index.js";
import { z } from "zod";
import { CauseSchema, type Cause } from "../../schemas/rule-ledger.js";
import { SORTED_FILE } from "../ladder-formats/index.js";
import { writeReceipt } from "./receipts.js";
import type { OwnerTurn } from "./signals.js";

export type JourneyState = "typed" | "captured" | "sorted" | "counted" | "mentioned" | "closed" | "proposed" | "repaired" | "rejected" | "undone" | "ignored";
export type JourneyEvent =
  | "capture"
  | "capture_crash"
  | "reflect"
  | "reflect_crash"
  | "audit"
  | "audit_crash"
  | "approve"
  | "approve_crash"
  | "approve_hand_edited"
  | "reject"
  | "undo";

export interface Transition {
  n: number;
  from: JourneyState;
  event: JourneyEvent;
  to: JourneyState;
  /** When it applies, and what the step does or guarantees. */
  note: string;
}

const T = (n: number, from: JourneyState, event: JourneyEvent, to: JourneyState, note: string): Transition => ({ n, from, event, to, note });

/** The table (docs/ladder.md lists it). A state/event pair not in it leaves the state unchanged. */
export const JOURNEY: readonly Transition[] = [
  T(1, "typed", "capture", "captured", "the hook stores it before the reply, keyed by exchange id; says only 'captured, acceptance pending'"),
  T(2, "typed", "capture_crash", "typed", "killed before or inside the write: nothing acknowledged; the transcript still holds the prompt"),
  T(3, "typed", "reflect", "typed", "reordered: a reflection before its capture finds nothing to sort and writes nothing"),
  T(4, "typed", "audit", "counted", "a lost capture: the auditor reads the transcript; a rule gap that broke the rule counts"),
  T(5, "captured", "capture", "captured", "a duplicate capture: the same exchange id, one row"),
  T(6, "captured", "reflect", "sorted", "the quick reflection after the answer (the Stop hook) writes the cause, no model call"),
  T(7, "captured", "reflect_crash", "captured", "killed or faulted inside: one stderr line, the hook exits 0, the auditor sorts it itself"),
  T(8, "captured", "audit", "counted", "sorted at audit time when no reflection ran"),
  T(9, "captured", "audit_crash", "captured", "a torn ledger tail is set apart; the next audit counts it"),
  T(10, "sorted", "reflect", "sorted", "a duplicate reflection: the first cause stands"),
  T(11, "sorted", "audit", "counted", "rule gap, rule broken: one incident (id from rule and exchange)"),
  T(12, "sorted", "audit", "mentioned", "rule gap, rule kept (witness): a mention, never counted"),
  T(13, "sorted", "audit", "closed", "another cause (environment, missing tool, beyond the model, wrong fact): no rule touched"),
  T(14, "sorted", "audit_crash", "sorted", "the next audit counts it"),
  T(15, "counted", "audit", "counted", "a duplicate or retried night: incident ids fold; counted once"),
  T(16, "counted", "audit", "proposed", "the rule's second incident at its rung: diagnosed, one proposal drafted (none while one is pending)"),
  T(17, "counted", "audit_crash", "counted", "the proposal is drafted by the next audit (its id is stable)"),
  T(18, "proposed", "audit", "proposed", "no second proposal for a rule with one pending"),
  T(19, "proposed", "approve", "repaired", "the owner's yes: one unit edited with a backup; the rule moves exactly one rung"),
  T(20, "proposed", "approve_crash", "proposed", "killed between the yes and the write: a second approve finishes it, moving the rule once"),
  T(21, "proposed", "approve_hand_edited", "proposed", "the file changed by hand since the draft: refused, nothing written"),
  T(22, "proposed", "reject", "rejected", "the owner's no, with the reason kept"),
  T(23, "repaired", "undo", "undone", "the backup put back, the rule back at its rung"),
  T(24, "repaired", "approve", "repaired", "a duplicate approve is refused: nothing changes twice"),
];

export const CAPTURED_FILE = "captured.jsonl";
export { SORTED_FILE };

const CapturedSchema = z.object({ v: z.literal(1), exchange_id: z.string(), session_id: z.string(), ts: z.string(), text: z.string() });
/**
 * A sorted line. The Stop hook's reflection (runtime/hooks/hook-reflect.ts, zod-free) writes
 * the same shape with where it came from: `by`, the erratum it sorted, the session, the
 * model's probabilities and the time; the journey's model step writes the three fields only.
 */
const SortedSchema = z.object({
  v: z.literal(1),
  exchange_id: z.string(),
  cause: CauseSchema,
  by: z.literal("reflection").optional(),
  erratum_id: z.string().optional(),
  session_id: z.string().optional(),
  p: z.record(z.string(), z.number()).optional(),
  at: z.string().optional(),
});

export function capturedIds(dir: string): Set<string> {
  return new Set(readJsonl(join(dir, CAPTURED_FILE), CapturedSchema).rows.map((r) => r.exchange_id));
}

/** The fast capture: one row per exchange id (a duplicate writes nothing). Returns whether it wrote. */
export function capture(dir: string, turn: OwnerTurn): boolean {
  if (turn.origin !== "typed" || capturedIds(dir).has(turn.exchange_id)) return false;
  appendJsonl(join(dir, CAPTURED_FILE), [{ v: 1, exchange_id: turn.exchange_id, session_id: turn.session_id, ts: turn.ts, text: redactTextForWrite(turn.text) }]);
  return true;
}

export function sortedCauses(dir: string): Map<string, Cause> {
  const out = new Map<string, Cause>();
  for (const r of readJsonl(join(dir, SORTED_FILE), SortedSchema).rows) if (!out.has(r.exchange_id)) out.set(r.exchange_id, r.cause);
  return out;
}

/**
 * The quick reflection: sorts a captured correction once; a turn not captured yet is left for
 * later. Every run writes its receipt, a run that sorted nothing included.
 */
export function reflect(dir: string, exchangeId: string, cause: Cause, at: string = new Date().toISOString()): boolean {
  const sorted = capturedIds(dir).has(exchangeId) && !sortedCauses(dir).has(exchangeId);
  if (sorted) appendJsonl(join(dir, SORTED_FILE), [{ v: 1, exchange_id: exchangeId, cause }]);
  writeReceipt(dir, { loop: "reflection", at, night: at.slice(0, 10), ok: true, counts: { sorted: sorted ? 1 : 0 }, note: null });
  return sorted;
}
