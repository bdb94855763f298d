/**
 * `errata rules morning`: one short report of the open questions for the owner: the pending
 * proposals (each with its diagnosis and evidence count), checks in shadow and how far each
 * is from its gate, nights with no audit receipt (an alarm: a night that never ran looks like
 * a quiet one otherwise), and the reviewer lane's argument against each proposal (or that it
 * was skipped offline, or failed), and the randomised holdout when the owner opted a check in
 * (which checks, the evidence so far, which sessions were held out: runtime/ladder/holdout.ts).
 * Writes its own receipt.
 *
 * Example: morningReport(dir, "2026-12-02T07:00:00Z") -> "Errata rules, morning of 2026-12-02\n
 * 1 proposal waiting: pr-3f2a1c9e0b climb 2 -> 3 claude.tools.pnpm01 (2 incidents) ...".
 */
import { readProposals } from "./proposals.js";
import { missingNights, readReceipts, writeReceipt } from "./receipts.js";
import { OFFLINE_REVIEW } from "./drafts.js";
import { holdoutFromDir, holdoutLines, lineHoldoutFromDir, lineHoldoutLines, worthTestingFromDir } from "./holdout.js";
import { readShadowLines } from "./shadow.js";
import { lineWorthFromDir } from "./line-worth.js";

export function morningReport(dir: string, at: string, opts: { shadowLines?: readonly string[]; nights?: number } = {}): string {
  const today = at.slice(0, 10);
  const pending = [...readProposals(dir).values()].filter((p) => p.status === "pending");
  const receipts = readReceipts(dir);
  const missing = receipts.some((r) => r.loop === "audit") ? missingNights(receipts, today, opts.nights ?? 7).filter((n) => n >= (receipts.filter((r) => r.loop === "audit").map((r) => r.night).sort()[0] ?? n)) : [];
  const out: string[] = [`Errata rules, morning of ${today}`];
  if (!receipts.some((r) => r.loop === "audit")) out.push("ALARM: no audit has ever run (no receipt): run errata rules audit or errata daily");
  for (const n of missing) out.push(`ALARM: no audit receipt for the night of ${n} (it did not run, or its receipt was lost)`);
  out.push(pending.length === 0 ? "No proposal waiting." : `${pending.length} proposal${pending.length === 1 ? "" : "s"} waiting for your yes or no:`);
  for (const { proposal: p } of pending) {
    out.push(`  ${p.id} ${p.type} ${p.from_rung} -> ${p.to_rung} ${p.rule_id} (${p.diagnosis}; ${p.evidence.length} evidence line${p.evidence.length === 1 ? "" : "s"}): ${p.why}`);
    // The reviewer's argument against (or its failure) beside the proposal; the offline skip once, below.
    if (p.review !== OFFLINE_REVIEW) out.push(`    review: ${p.review}`);
  }
  // Each check in shadow and how far it is from its gate, as the last audit read it.
  for (const s of opts.shadowLines ?? readShadowLines(dir).lines) out.push(`  shadow ${s}`);
  // The randomised holdout is disclosed every morning it is on: which checks, which sessions.
  const holdout = holdoutFromDir(dir);
  out.push(...holdoutLines(holdout));
  const lineHoldout = lineHoldoutFromDir(dir);
  out.push(...lineHoldoutLines(lineHoldout));
  // Which rules a holdout could judge in four weeks: suggested only with the power to see a halving.
  const worth = worthTestingFromDir(dir);
  if (worth.length > 0) out.push("Holdout candidates (rules your checks carry; errata rules holdout <check-id> --one-in 5 opts one in):", ...worth.map((l) => `  ${l}`));
  // The same question for rule lines no check carries: a session is the chance (runtime/ladder/line-worth.ts).
  const lineWorth = lineWorthFromDir(dir);
  if (lineWorth.length > 0) out.push("Holdout candidates among rule lines (no check carries them; errata rules holdout <rule-id> --one-in 5 opts one in, with the Errata mod):", ...lineWorth.map((l) => `  ${l}`));
  const offline = pending.filter((p) => p.proposal.review === OFFLINE_REVIEW).length;
  if (offline > 0) out.push(`  ${OFFLINE_REVIEW}${offline < pending.length ? ` (${offline} of ${pending.length} proposals)` : ""}`);
  out.push("Decide with: errata rules approve <id> | errata rules reject <id> --why <text>");
  writeReceipt(dir, { loop: "morning", at, night: today, ok: true, counts: { pending: pending.length, alarms: missing.length, unreviewed: offline, held_out_sessions: holdout.reduce((n, r) => n + r.held_out_sessions.length, 0) + lineHoldout.reduce((n, r) => n + r.held_out_sessions.length, 0) }, note: null });
  return out.join("\n");
}
