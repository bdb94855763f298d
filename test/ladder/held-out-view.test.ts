// A rule line held out of a session (the line holdout: the Errata mod withheld it and logged
// `withheld`) is not in view there, although its file loaded; the incident stays, marked
// held_out, and never counts toward a climb.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { causeModel } from "../../runtime/ladder/causes.js";
import { diagnose } from "../../runtime/ladder/diagnose.js";
import { inView, turnLines } from "../../runtime/ladder/incidents.js";
import { foldLedger, type LedgerRule } from "../../runtime/ladder/ledger.js";
import { lineWorthTesting } from "../../runtime/ladder/line-worth.js";
import type { OwnerTurn } from "../../runtime/ladder/signals.js";
import type { InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import type { IncidentRow, RuleRow } from "../../schemas/rule-ledger.js";
import { finnish, pnpm } from "./helpers.js";

const turn = (over: Partial<OwnerTurn> = {}): OwnerTurn => ({
  exchange_id: "ex-1",
  session_id: "s1",
  ts: "2026-11-30T10:00:00.000Z",
  origin: "typed",
  text: "as I said, Finnish please",
  reply_before: "Here is the summary; the tests passed.",
  tools_before: [],
  tools_after: [],
  ...over,
});
const placed = (): LedgerRule[] => [...foldLedger([finnish, pnpm]).rules.values()].map((r) => ({ ...r, file_abs: "/p/CLAUDE.md" }));
const cause = (t: OwnerTurn) => causeModel().classify(t.text, t.reply_before);
// The client's own InstructionsLoaded row, and the mod's withholding row for the same file (withheldPayload's shape).
const load: InstructionsLoadedRow = { v: 1, ts: "2026-11-30T09:59:00.000Z", session_id: "s1", file_path: "/p/CLAUDE.md", memory_type: "Project", load_reason: "session_start", globs: null, trigger_file_path: null, parent_file_path: null };
const withheld = (ids: string[], session = "s1"): InstructionsLoadedRow => ({ ...load, session_id: session, memory_type: null, withheld: ids });

describe("a rule line withheld in a session is not in view there", () => {
  it("file loaded, rule withheld: incident kept, not in view, held out; the same without withheld: in view", () => {
    const shown = turnLines(turn(), placed(), [load], cause).lines;
    expect(shown).toEqual([expect.objectContaining({ kind: "incident", rule_id: finnish.rule_id, in_view: true })]);
    expect(shown[0]).not.toHaveProperty("held_out");

    const held = turnLines(turn(), placed(), [load, withheld([finnish.rule_id])], cause).lines;
    expect(held).toEqual([expect.objectContaining({ kind: "incident", rule_id: finnish.rule_id, in_view: false, held_out: true })]);
    // The withholding row alone (the mod's line is also a load of the file) says the same.
    expect(turnLines(turn(), placed(), [withheld([finnish.rule_id])], cause).lines[0]).toMatchObject({ in_view: false, held_out: true });
  });

  it("a withholding in another session, or of another rule, leaves the rule in view", () => {
    expect(turnLines(turn(), placed(), [load, withheld([finnish.rule_id], "s2")], cause).lines[0]).toMatchObject({ in_view: true });
    const other = turnLines(turn(), placed(), [load, withheld([pnpm.rule_id])], cause).lines[0];
    expect(other).toMatchObject({ in_view: true });
    expect(other).not.toHaveProperty("held_out");
  });

  it("property: whatever else loaded, a rung 1-2 rule withheld in the session is never in view; without a withholding of it, in view iff its file loaded there", () => {
    const rule = placed().find((r) => r.rule_id === finnish.rule_id)!;
    const row = fc.record({
      session_id: fc.constantFrom("s1", "s2"),
      file_path: fc.constantFrom("/p/CLAUDE.md", "/p/other.md", "/q/CLAUDE.md"),
      withheld: fc.option(fc.subarray([finnish.rule_id, pnpm.rule_id]), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 6 }), fc.constantFrom(1 as const, 2 as const), (rows, rung) => {
        const loads: InstructionsLoadedRow[] = rows.map((r) => (r.withheld === undefined ? { ...load, session_id: r.session_id, file_path: r.file_path } : { ...load, session_id: r.session_id, file_path: r.file_path, withheld: r.withheld }));
        const mine = loads.filter((l) => l.session_id === "s1");
        const got = inView({ ...rule, rung }, turn(), loads);
        if (mine.some((l) => l.withheld?.includes(finnish.rule_id))) expect(got).toBe(false);
        else if (mine.length === 0) expect(got).toBeNull();
        else expect(got).toBe(mine.some((l) => l.file_path === "/p/CLAUDE.md"));
      }),
    );
  });
});

describe("a held-out slip never counts toward a climb", () => {
  const inc = (rule: RuleRow, k: number, over: Partial<IncidentRow> = {}): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i${k}`, rule_id: rule.rule_id, exchange_id: `e${k}`, session_id: `s${k}`, date: `2026-11-1${k}`, severity: 2, signal: "explicit", in_view: true, rung: rule.rung, cause: "rule_gap", ...over });
  const ruleWith = (rule: RuleRow, incidents: IncidentRow[]): LedgerRule => foldLedger([rule, ...incidents]).rules.get(rule.rule_id)!;
  const place = { position: 5, lines: 40 };
  const heldSlip = { in_view: false, held_out: true } as const;

  it("one slip in view and one held out: too few, not a climb; two in view: a climb", () => {
    const d = diagnose(ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2, heldSlip)]), [], place);
    expect(d).toMatchObject({ diagnosis: "too_few", to: null });
    expect(d.evidence.at(-1)).toBe("1 held-out slip (the line withheld in the session) not counted");
    expect(diagnose(ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2)]), [], place)).toMatchObject({ diagnosis: "climb", to: 3 });
  });

  it("a held-out slip last does not read as 'not loaded': two in view before it still climb", () => {
    const d = diagnose(ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2), inc(pnpm, 3, heldSlip)]), [], place);
    expect(d).toMatchObject({ diagnosis: "climb", from: 2, to: 3 });
    expect(d.evidence.filter((e) => e.startsWith("i"))).toEqual(["i1 2026-11-11 explicit in_view=true", "i2 2026-11-12 explicit in_view=true"]);
  });
});

describe("the line candidates count a held-out session neither in view nor corrected", () => {
  it("ten sessions load the file, three withhold the line: 7 in view, the two slips in held-out sessions not counted", () => {
    const rule = placed().find((r) => r.rule_id === finnish.rule_id)!;
    const sessions = Array.from({ length: 10 }, (_, i) => `s${i}`);
    const loads: InstructionsLoadedRow[] = sessions.map((s, i) => ({ ...load, session_id: s, ts: `2026-11-${String(i + 1).padStart(2, "0")}T09:00:00.000Z` }));
    const withholds = ["s1", "s4", "s7"].map((s) => withheld([finnish.rule_id], s));
    const slips = ["s0", "s2", "s4", "s7"].map((s, k): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i${k}`, rule_id: finnish.rule_id, exchange_id: `e${k}`, session_id: s, date: "2026-11-05", severity: 2, signal: "explicit", in_view: true, rung: 2, cause: "rule_gap" }));
    expect(lineWorthTesting([rule], loads, slips)[0]).toMatchObject({ in_view_sessions: 10, corrected_sessions: 4 });
    expect(lineWorthTesting([rule], [...loads, ...withholds], slips)[0]).toMatchObject({ in_view_sessions: 7, corrected_sessions: 2 });
  });
});
