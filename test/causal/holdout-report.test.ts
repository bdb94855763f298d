// The holdout's evidence per opted-in check (acting vs held-out sessions, incidents per chance,
// the session-cluster interval), its disclosure in the morning report, and the "worth testing"
// suggestion with its power statement.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { run } from "../../cli/main.js";
import { holdoutPower } from "../../calibration/index.js";
import { holdoutRows, ruleChances, worthTesting } from "../../runtime/ladder/holdout.js";
import { morningReport } from "../../runtime/ladder/morning.js";
import type { Check } from "../../runtime/ladder-formats/index.js";
import type { ToolEvent } from "../../schemas/ladder-checks.js";
import type { IncidentRow } from "../../schemas/rule-ledger.js";
import { pnpm } from "../ladder/helpers.js";
import { memoryIo, tempDir } from "../helpers/io.js";

const RULE = pnpm.rule_id;
const CHECK: Check = { id: "ladder-pnpm", rule_id: RULE, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm.", mode: "active", holdout: { one_in: 5, seed: 1 } };
const ev = (session: string, held: boolean, k: number): ToolEvent => ({ v: 1, ts: `2026-12-01T10:00:0${k}Z`, session_id: session, tool_use_id: `t-${session}-${k}`, tool_name: "Bash", check: CHECK.id, rule_id: RULE, mode: held ? "shadow" : "active", fired: false, decision: null, ...(held ? { held_out: true } : {}) });
const inc = (session: string, k: number): IncidentRow => ({ kind: "incident", v: 1, incident_id: `i-${session}-${k}`, rule_id: RULE, exchange_id: `ex-${session}-${k}`, session_id: session, date: "2026-12-01", severity: 2, signal: "explicit", in_view: true, rung: 3, cause: "rule_gap" });

/** The issue's example: 120 acting sessions of 2 chances with 1 slip in all, 30 held out of 2 chances with 9 slips. */
function issueExample(): { events: ToolEvent[]; incidents: IncidentRow[] } {
  const events: ToolEvent[] = [];
  const incidents: IncidentRow[] = [];
  for (let s = 0; s < 120; s++) events.push(ev(`a${String(s).padStart(3, "0")}`, false, 0), ev(`a${String(s).padStart(3, "0")}`, false, 1));
  for (let s = 0; s < 30; s++) events.push(ev(`h${String(s).padStart(2, "0")}`, true, 0), ev(`h${String(s).padStart(2, "0")}`, true, 1));
  incidents.push(inc("a000", 0));
  for (let s = 0; s < 9; s++) incidents.push(inc(`h${String(s).padStart(2, "0")}`, 0));
  // An incident of another rule in a held-out session does not count.
  incidents.push({ ...inc("h20", 0), rule_id: "claude.other.000000", incident_id: "x" });
  return { events, incidents };
}

describe("holdoutRows", () => {
  it("the issue's example: 1/240 vs 9/60 chances slipped, with the cluster interval of the difference", () => {
    const { events, incidents } = issueExample();
    const [row] = holdoutRows([CHECK], events, incidents);
    expect(row!.treated_sessions).toBe(120);
    expect(row!.held_out_sessions).toHaveLength(30);
    expect(row!.interval!.difference).toBeCloseTo(1 / 240 - 9 / 60, 12);
    expect(row!.line).toBe("check ladder-pnpm: 1/240 vs 9/60 chances slipped (acting vs held out, 120 and 30 sessions), difference -0.146 [-0.257, -0.074]");
  });
  it("no interval until both arms have a chance; a check not opted in has no row", () => {
    const only = issueExample().events.filter((e) => e.held_out !== true);
    const [row] = holdoutRows([CHECK, { ...CHECK, id: "plain", holdout: undefined } as unknown as Check], only, []);
    expect(row!.interval).toBeNull();
    expect(row!.line).toMatch(/no interval until both kinds of session have a chance$/);
    expect(holdoutRows([{ ...CHECK, holdout: undefined } as unknown as Check], only, [])).toEqual([]);
  });
});

describe("the morning report discloses the holdout", () => {
  let tmp: { dir: string; cleanup: () => void };
  beforeEach(() => (tmp = tempDir("errata-holdout-morning-")));
  afterEach(() => tmp.cleanup());
  it("names the check, its evidence and the held-out sessions; so does the Pulse page", async () => {
    const { events, incidents } = issueExample();
    const dir = join(tmp.dir, "ladder");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "checks.json"), JSON.stringify({ version: 1, checks: [CHECK] }));
    writeFileSync(join(dir, "tool-events.jsonl"), events.map((e) => JSON.stringify(e)).join("\n") + "\n");
    writeFileSync(join(dir, "rules.jsonl"), [pnpm, ...incidents.filter((i) => i.rule_id === RULE)].map((l) => JSON.stringify(l)).join("\n") + "\n");
    const text = morningReport(dir, "2026-12-06T07:00:00Z");
    expect(text).toContain("Randomised holdout (you opted these checks in; in a held-out session the check records and does not act):");
    expect(text).toContain("check ladder-pnpm: 1/240 vs 9/60 chances slipped");
    expect(text).toContain("held out 1 in 5 sessions; held-out sessions: h00, h01, h02, h03, h04, h05, h06, h07, h08, h09 and 20 more");
    // 300 eligible calls within one week (at least one week counted), 10 incidents: power statement beside it.
    expect(text).toContain(`Holdout candidates (rules your checks carry; errata rules holdout <check-id> --one-in 5 opts one in):\n  not worth testing yet: ${RULE}: 300 chances a week, 10/300 slipped: holding out 1 in 5 for 4 weeks would see a halving with power`);
    // The Pulse page (errata report --html) discloses the same, ids and counts only.
    const env = { ERRATA_DIR: tmp.dir, ERRATA_STATE_DIR: join(tmp.dir, "state"), ERRATA_HOST_DIR: join(tmp.dir, "host") };
    const io = memoryIo({ env, cwd: tmp.dir, now: Date.parse("2026-12-06T12:00:00Z") });
    const code = await run(["report", "--html", "--out", "pulse.html"], io.io);
    expect([0, 1], io.err()).toContain(code);
    const html = readFileSync(join(tmp.dir, "pulse.html"), "utf8");
    expect(html).toContain("Randomised holdout");
    expect(html).toContain("<td>ladder-pnpm</td><td>1 in 5</td><td>1/240 (120 sessions)</td><td>9/60 (30 sessions)</td>");
    expect(html).toContain("h00, h01, h02");
    // errata rules budget: tokens beside the rule, and what its check's holdout shows prevented per 1k tokens.
    writeFileSync(join(tmp.dir, "CLAUDE.md"), "# Project\n\n- Use pnpm, never npm.\n");
    const b = memoryIo({ env, cwd: tmp.dir });
    expect(await run(["rules", "budget", "--file", "CLAUDE.md", "--budget-tokens", "5", "--json"], b.io)).toBe(0);
    const j = JSON.parse(b.out()) as { tokens: { file_tokens: number; budget_tokens: number; over_tokens: number; rules: { rule_id: string; tokens: number; prevented: number; prevented_per_1k_tokens: number }[] } };
    expect(j.tokens.budget_tokens).toBe(5);
    expect(j.tokens.over_tokens).toBe(j.tokens.file_tokens - 5);
    expect(j.tokens.rules).toEqual([{ rule_id: RULE, tokens: 8, prevented: expect.closeTo(35, 9), prevented_per_1k_tokens: expect.closeTo(4375, 6) }]);
    const t = memoryIo({ env, cwd: tmp.dir });
    expect(await run(["rules", "budget", "--file", "CLAUDE.md", "--budget-tokens", "5"], t.io)).toBe(0);
    expect(t.out()).toContain(`${RULE}: harm 20 (10 incidents); about 8 tokens; its holdout: 35.0 incidents prevented, 4375 per 1k tokens`);
    const bad = memoryIo({ env, cwd: tmp.dir });
    expect(await run(["rules", "budget", "--file", "CLAUDE.md", "--budget-tokens", "0"], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/expected a whole number of tokens >= 1/);
  });
});

describe("which rules are worth holding out", () => {
  it("the power statement: normal approximation, reference values", () => {
    // n = 240 over 4 weeks, 48 held out, 192 acting; p_h 0.048, p_t 0.024.
    const p = holdoutPower({ chancesPerWeek: 60, weeks: 4, oneIn: 5, rateHeldOut: 0.048, rateTreated: 0.024 });
    const se = Math.sqrt((0.024 * 0.976) / 192 + (0.048 * 0.952) / 48);
    expect(p.chancesHeldOut).toBe(48);
    expect(p.halfWidth).toBeCloseTo(1.959964 * se, 5);
    expect(p.power).toBeCloseTo(0.1097, 3);
  });
  it("counts a rule's slips only while its check watched: incidents before the first eligible call are not slips of its chances", () => {
    // Walked as a user (2026-12-07): a check installed after 10 incidents read "4 chances a week, 10/4 slipped".
    const events = [0, 1, 2, 3].map((k) => ({ ...ev("w1", false, k), ts: `2026-12-05T10:00:0${k}Z` }));
    const before = [1, 2, 3].map((k) => ({ ...inc(`old${k}`, k), date: "2026-11-20T09:00:00Z" }));
    const during = { ...inc("w1", 9), date: "2026-12-05T10:00:05Z" };
    const sameDay = { ...inc("w2", 9), date: "2026-12-05" };
    expect(ruleChances(events, [...before, during, sameDay])).toEqual([{ rule_id: RULE, chances: 4, incidents: 2, weeks: 1 }]);
  });

  it("suggests only rules with enough chances, each line with its power", () => {
    const w = worthTesting([
      { rule_id: "busy", chances: 8000, incidents: 400, weeks: 4 },
      { rule_id: "quiet", chances: 240, incidents: 12, weeks: 4 },
      { rule_id: "never", chances: 0, incidents: 0, weeks: 4 },
    ]);
    expect(w.map((r) => [r.rule_id, r.worth])).toEqual([["busy", true], ["quiet", false]]);
    expect(w[1]!.line).toBe("not worth testing yet: quiet: 60 chances a week, 12/240 slipped: holding out 1 in 5 for 4 weeks would see a halving with power 11% (normal approximation, optimistic under clustering)");
  });
});
