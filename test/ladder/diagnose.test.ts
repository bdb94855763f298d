// Diagnosis before a climb, one rung at a time; drafted checks; the attention budget.
import { describe, expect, it } from "vitest";
import { budgetReport } from "../../runtime/ladder/budget.js";
import { diagnose, placement } from "../../runtime/ladder/diagnose.js";
import { draftCheck } from "../../runtime/ladder/drafts.js";
import { foldLedger, type LedgerRule } from "../../runtime/ladder/ledger.js";
import { evaluateChecks } from "../../runtime/ladder-formats/checks.js";
import type { IncidentRow, RuleRow } from "../../schemas/rule-ledger.js";
import { finnish, pnpm } from "./helpers.js";

const inc = (rule: RuleRow, k: number, over: Partial<IncidentRow> = {}): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i${k}`, rule_id: rule.rule_id, exchange_id: `e${k}`, session_id: "s", date: `2026-11-1${k}`, severity: 2, signal: "explicit", in_view: true, rung: rule.rung, cause: "rule_gap", ...over });
const ruleWith = (rule: RuleRow, incidents: IncidentRow[]): LedgerRule => foldLedger([rule, ...incidents]).rules.get(rule.rule_id)!;
const place = { position: 5, lines: 40 };

describe("diagnose", () => {
  it("needs two incidents at the current rung", () => {
    expect(diagnose(ruleWith(pnpm, [inc(pnpm, 1)]), [], place).diagnosis).toBe("too_few");
  });
  it("not loaded / unknown view: no climb", () => {
    expect(diagnose(ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2, { in_view: false })]), [], place)).toMatchObject({ diagnosis: "not_loaded", to: null });
    expect(diagnose(ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2, { in_view: null })]), [], place)).toMatchObject({ diagnosis: "unknown_view", to: null });
  });
  it("contradicted: an older line says to answer in English (the seed's third slip)", () => {
    const english = { ...finnish, rule_id: "claude.lang.en", text: "Always answer in English." };
    const r = ruleWith(finnish, [inc(finnish, 1), inc(finnish, 2)]);
    const d = diagnose(r, [r, ruleWith(english, [])], place);
    expect(d.diagnosis).toBe("contradicted");
    expect(d.evidence.at(-1)).toMatch(/claude\.lang\.en says .*english against finnish/);
  });
  it("vague and buried", () => {
    const vague = { ...pnpm, rule_id: "v", text: "Try to be careful with dependencies when possible." };
    expect(diagnose(ruleWith(vague, [inc(vague, 1), inc(vague, 2)]), [], place).diagnosis).toBe("vague");
    expect(diagnose(ruleWith(pnpm, [inc(pnpm, 1), inc(pnpm, 2)]), [], { position: 250, lines: 260 }).diagnosis).toBe("buried");
  });
  it("in view, clear, uncontradicted, still broken: exactly one rung up; the count starts again after a climb", () => {
    for (const rung of [0, 1, 2] as const) {
      const r = { ...pnpm, rung };
      const d = diagnose(ruleWith(r, [inc(r, 1), inc(r, 2)]), [], place);
      expect(d).toMatchObject({ diagnosis: "climb", from: rung, to: rung + 1 });
    }
    const climbed = foldLedger([pnpm, inc(pnpm, 1), inc(pnpm, 2), { kind: "patch", v: 1, rule_id: pnpm.rule_id, at: "2026-11-15", set: { rung: 3 }, because: "pr-1" }]).rules.get(pnpm.rule_id)!;
    expect(diagnose(climbed, [], place).diagnosis).toBe("too_few");
  });
  it("placement finds a rule's line and its file's length", () => {
    expect(placement("# A\n\n- Use pnpm, never npm.\n", "Use pnpm, never npm.")).toEqual({ position: 3, lines: 3 });
  });
});

describe("drafted checks", () => {
  it("'never npm' becomes a deny on a command running npm, and not on pnpm", () => {
    const c = draftCheck(ruleWith(pnpm, []))!;
    expect(c).toMatchObject({ tools: ["Bash"], action: "deny", mode: "shadow", rule_id: pnpm.rule_id });
    const fires = (command: string) => evaluateChecks([{ ...c, mode: "active" }], { tool_name: "Bash", tool_input: { command } }).decision === "deny";
    expect(["npm i", "cd web && npm run build", "npm"].map(fires)).toEqual([true, true, true]);
    expect(["pnpm i", "echo npmrc", "ls"].map(fires)).toEqual([false, false, false]);
  });
  it("the message the model receives is the rule's words without the index's list marker (seen in the real client)", () => {
    expect(draftCheck(ruleWith({ ...pnpm, text: "- Use pnpm, never npm." }, []))!.message).toBe("Use pnpm, never npm.");
    expect(draftCheck(ruleWith({ ...pnpm, text: "2. Never use npm here." }, []))!.message).toBe("Never use npm here.");
    expect(draftCheck(ruleWith({ ...pnpm, text: "Use pnpm, never npm." }, []))!.message).toBe("Use pnpm, never npm.");
    expect(draftCheck(ruleWith({ ...pnpm, text: "-npm is never used" }, []))!.message).toBe("-npm is never used");
  });
  it("no check can be drafted from a rule with no 'never' and no tool witness", () => {
    expect(draftCheck(ruleWith(finnish, []))).toBeNull();
  });
});

describe("the attention budget", () => {
  it("ranks by incidents x severity; a rule leaves only when an active check carries it", () => {
    const text = `${Array.from({ length: 220 }, (_, i) => `line ${i}`).join("\n")}\n- Use pnpm, never npm.\n- Reply in the language I write in (Finnish when I write Finnish).\n`;
    const rules = [ruleWith(pnpm, [inc(pnpm, 1)]), ruleWith(finnish, [inc(finnish, 1, { severity: 3 }), inc(finnish, 2)])];
    const c = { ...draftCheck(rules[0]!)!, mode: "active" as const };
    const r = budgetReport("CLAUDE.md", text, rules, [c]);
    expect(r).toMatchObject({ lines: 222, budget: 200, over: 22 });
    expect(r.ranked.map((x) => [x.rule_id, x.harm])).toEqual([[finnish.rule_id, 5], [pnpm.rule_id, 2]]);
    expect(r.wouldMove).toEqual([`${pnpm.rule_id} (carried by active check ${c.id})`]);
    expect(budgetReport("CLAUDE.md", text, rules, [{ ...c, mode: "shadow" }]).wouldMove).toEqual([]);
  });
});
