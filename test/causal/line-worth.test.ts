// Which rule lines are worth holding out, for rules no check carries: in view (sessions its
// file loaded), acted where it applies (loads a matching file triggered, for a paths:-scoped
// file), corrected (sessions with an incident), and the power of a four-week line holdout, a
// session a chance. Reference powers are worked by hand below (normal approximation).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { lineWorthTesting } from "../../runtime/ladder/line-worth.js";
import type { LedgerRule } from "../../runtime/ladder/ledger.js";
import { morningReport } from "../../runtime/ladder/morning.js";
import type { InstructionsLoadedRow } from "../../schemas/ladder-checks.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { tempDir } from "../helpers/io.js";

const rule = (id: string, rung: 1 | 2 | 3, file: string): LedgerRule => ({
  kind: "rule", v: 1, rule_id: id, at: "2026-11-01T00:00:00Z", text: `- rule ${id}`, why: null, when: null, when_not: null, rung,
  location: rung === 3 ? { kind: "check", check: `c-${id}` } : { kind: "text", file, section: null },
  origin: "index", keywords: [], witness: null, exempt: false, project: "/p", file_abs: rung === 3 ? null : file, incidents: [], mentions: [], patches: [],
} as unknown as LedgerRule);
const T0 = Date.parse("2026-11-01T00:00:00Z");
/** n sessions spread evenly over `weeks` weeks (first at 0, last at the end), each loading `file`. */
function loads(prefix: string, n: number, weeks: number, file: string, reason = "session_start"): InstructionsLoadedRow[] {
  return Array.from({ length: n }, (_, i) => ({ v: 1 as const, ts: new Date(T0 + (i / (n - 1)) * weeks * 7 * 86_400_000).toISOString(), session_id: `${prefix}${i}`, file_path: file, memory_type: "Project", load_reason: reason, globs: null, trigger_file_path: null, parent_file_path: null }));
}
const inc = (ruleId: string, session: string, k = 0): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i-${session}-${k}`, rule_id: ruleId, exchange_id: `ex-${session}-${k}`, session_id: session, date: "2026-11-02", severity: 2, signal: "explicit", in_view: true, rung: 2, cause: "rule_gap" });
/** Φ by the Abramowitz-Stegun 7.1.26 erf (|error| < 1.5e-7): the reference, written out. */
const phi = (x: number): number => {
  const t = 1 / (1 + 0.3275911 * (Math.abs(x) / Math.SQRT2));
  const erf = 1 - (((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t) * Math.exp(-(x * x) / 2);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
};
const powerRef = (perWeek: number, rate: number): number => {
  const n = perWeek * 4;
  const se = Math.sqrt((rate * (1 - rate)) / (n * 0.8) + (2 * rate * (1 - 2 * rate)) / (n * 0.2));
  return phi(rate / se - 1.959963984540054);
};

describe("lineWorthTesting", () => {
  const md = "/p/CLAUDE.md";
  const scoped = "/p/.claude/rules/tools.md";
  const rules = [rule("quiet", 2, md), rule("busy", 2, "/p/BUSY.md"), rule("scoped", 1, scoped), rule("clean", 2, "/p/CLEAN.md"), rule("checked", 3, md), rule("carried", 2, md)];
  const all = [
    ...loads("q", 281, 4, md),
    ...loads("b", 1201, 4, "/p/BUSY.md"),
    ...loads("s", 41, 4, scoped, "path_glob_match"),
    ...loads("c", 11, 4, "/p/CLEAN.md"),
  ];
  const incidents = [
    ...Array.from({ length: 21 }, (_, i) => inc("quiet", `q${i}`)),
    inc("quiet", "q0", 1), // a second incident in one session: one corrected session
    inc("quiet", "elsewhere"), // not in view: not counted
    ...Array.from({ length: 120 }, (_, i) => inc("busy", `b${i * 10}`)),
    ...Array.from({ length: 4 }, (_, i) => inc("scoped", `s${i}`)),
  ];
  const rows = lineWorthTesting(rules, all, incidents, { carried: new Set(["carried"]) });

  it("counts in view, acted where it applies and corrected per rule; no check rule, no carried rule", () => {
    expect(rows.map((r) => [r.rule_id, r.in_view_sessions, r.acted_where_applies, r.corrected_sessions])).toEqual([
      ["busy", 1201, null, 120],
      ["quiet", 281, null, 21],
      ["scoped", 41, 41, 4],
      ["clean", 11, null, 0],
    ]);
  });
  it("power against the hand-worked normal approximation; suggested only at 80% or more; every line says why", () => {
    const busy = rows.find((r) => r.rule_id === "busy")!;
    const quiet = rows.find((r) => r.rule_id === "quiet")!;
    expect(busy.power).toBeCloseTo(powerRef(1201 / 4, 120 / 1201), 5);
    expect(quiet.power).toBeCloseTo(powerRef(281 / 4, 21 / 281), 5);
    expect(busy.power).toBeGreaterThan(0.8);
    expect(quiet.power).toBeLessThan(0.8);
    expect(busy.line).toBe(`worth testing: busy: in view in 300 sessions a week, acted where it applies: not measured (always loaded), corrected in 120/1201 sessions: holding out 1 in 5 sessions for 4 weeks would see the line halve the slip rate (held out at twice it) with power ${Math.round(busy.power * 100)}% (normal approximation, a session a chance)`);
    expect(quiet.line).toMatch(/^not worth testing yet: quiet: in view in 70 sessions a week, .* corrected in 21\/281 sessions: .* with power 31% /);
    expect(rows.find((r) => r.rule_id === "scoped")!.line).toContain("acted where it applies: 41 loads on a matching file");
    expect(rows.find((r) => r.rule_id === "clean")!).toMatchObject({ power: 0, worth: false, line: expect.stringContaining("no session with a correction yet") });
  });
});

describe("the morning report lists the line candidates", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempDir("errata-line-worth-")));
  afterEach(() => tmp.cleanup());
  it("under its own heading, best first", () => {
    const dir = join(tmp.dir, "ladder");
    mkdirSync(dir, { recursive: true });
    const r = rule("busy", 2, "/p/BUSY.md") as unknown as Record<string, unknown>;
    const { incidents: _i, mentions: _m, patches: _p, ...row } = r;
    writeFileSync(join(dir, "rules.jsonl"), [row, ...Array.from({ length: 120 }, (_, i) => inc("busy", `b${i * 10}`))].map((l) => `${JSON.stringify(l)}\n`).join(""));
    writeFileSync(join(dir, "instructions-loaded.jsonl"), loads("b", 1201, 4, "/p/BUSY.md").map((l) => `${JSON.stringify(l)}\n`).join(""));
    const report = morningReport(dir, "2026-12-02T07:00:00Z");
    expect(report).toContain("Holdout candidates among rule lines (no check carries them; errata rules holdout <rule-id> --one-in 5 opts one in, with the Errata mod):\n  worth testing: busy: in view in 300 sessions a week");
  });
});
