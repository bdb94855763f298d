// End to end on synthetic sessions: a rule broken twice -> diagnosed -> a proposal ->
// approved -> a check in shadow -> the gate -> active, each step's artifact on disk and in the
// morning report; an apply refused when the file changed by hand; undo.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approve, morningReport, openRuleLedger, readProposals, runAudit, undo, type LedgerRule } from "../../runtime/ladder/index.js";
import { addProposal, reject } from "../../runtime/ladder/proposals.js";
import { draftProposal } from "../../runtime/ladder/drafts.js";
import { diagnose } from "../../runtime/ladder/diagnose.js";
import { runToolHook } from "../../runtime/hooks/tool-hook.js";
import type { RuleRow } from "../../schemas/rule-ledger.js";
import { tempDir } from "../helpers/io.js";
import { writeSession } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-journey-")));
afterEach(() => tmp.cleanup());

function setup() {
  const project = join(tmp.dir, "app");
  const ledgerDir = join(tmp.dir, "ledger");
  const dir = join(ledgerDir, "ladder");
  mkdirSync(project, { recursive: true });
  mkdirSync(dir, { recursive: true });
  const claude = join(project, "CLAUDE.md");
  writeFileSync(claude, "# Project\n\n## Tools\n\n- Use pnpm, never npm.\n- Keep commits small and focused on one change.\n");
  const rule: RuleRow = {
    kind: "rule",
    v: 1,
    rule_id: "claude.tools.pnpm01",
    at: "2026-11-01T00:00:00.000Z",
    text: "Use pnpm, never npm.",
    why: "one lockfile",
    when: "installing or running scripts",
    when_not: null,
    rung: 2,
    location: { kind: "text", file: claude, section: "Tools" },
    origin: "index",
    keywords: ["pnpm", "npm"],
    witness: null,
    exempt: false,
  };
  openRuleLedger(dir).append([rule]);
  return { project, ledgerDir, dir, claude };
}

const loaded = (dir: string, session: string, file: string) =>
  writeFileSync(join(dir, "instructions-loaded.jsonl"), `${JSON.stringify({ v: 1, ts: "t", session_id: session, file_path: file, memory_type: "Project", load_reason: "session_start", globs: null, trigger_file_path: null, parent_file_path: null })}\n`, { flag: "a" });

const slip = (day: string) => [
  { prompt: "add lodash to the project", tools: [{ name: "Bash", input: { command: "npm install lodash", description: "install" } }], reply: "Installed lodash with npm." },
  { prompt: "No, that's wrong. I told you to use pnpm, not npm.", tools: [{ name: "Bash", input: { command: "pnpm add lodash", description: "install" } }], reply: `Sorry, redone with pnpm (${day}).` },
];

describe("the journey, end to end", () => {
  it("broken twice -> climb proposal -> approved -> check in shadow -> gate -> active, and the hook then denies", async () => {
    const { project, ledgerDir, dir, claude } = setup();
    const s1 = writeSession(tmp.dir, "s1", "2026-11-20T10:00:00Z", slip("20th"), project);
    const s2 = writeSession(tmp.dir, "s2", "2026-11-25T10:00:00Z", slip("25th"), project);
    loaded(dir, "s1", claude);
    loaded(dir, "s2", claude);

    // Night 1: two incidents, in view -> a climb 2 -> 3 drafted, nothing written yet.
    const night1 = await runAudit({ ladderDir: dir, projectDir: project, transcripts: [s1, s2], at: "2026-11-26T03:00:00.000Z" });
    expect(night1.incidents).toBe(2);
    expect(night1.diagnoses.map((d) => d.diagnosis)).toEqual(["climb"]);
    expect(night1.proposals).toHaveLength(1);
    expect(existsSync(join(dir, "checks.json"))).toBe(false);
    const [pid] = night1.proposals;
    const morning1 = morningReport(dir, "2026-11-26T07:00:00.000Z");
    expect(morning1).toContain(`${pid} climb 2 -> 3 claude.tools.pnpm01`);
    expect(morning1).toContain("reviewer lane skipped: offline");

    // The same night again (a retried run): no incident counted twice, no second proposal.
    const again = await runAudit({ ladderDir: dir, projectDir: project, transcripts: [s1, s2], at: "2026-11-26T03:30:00.000Z" });
    expect(again.incidents).toBe(0);
    expect(again.proposals).toEqual([]);
    expect(openRuleLedger(dir).read().ledger.rules.get("claude.tools.pnpm01")!.incidents).toHaveLength(2);

    // The owner's yes: the check is installed in shadow, the rule is at rung 3, CLAUDE.md untouched.
    const claudeBefore = readFileSync(claude, "utf8");
    approve(dir, pid!, "2026-11-26T08:00:00.000Z");
    const installed = JSON.parse(readFileSync(join(dir, "checks.json"), "utf8")) as { checks: Array<{ id: string; mode: string }> };
    expect(installed.checks.map((c) => [c.id, c.mode])).toEqual([["ladder-claude.tools.pnpm01", "shadow"]]);
    expect(readFileSync(claude, "utf8")).toBe(claudeBefore);
    expect(openRuleLedger(dir).read().ledger.rules.get("claude.tools.pnpm01")!.rung).toBe(3);

    // In shadow the hook logs but never acts.
    const call = (command: string) => {
      let out = "";
      return runToolHook(["pre-tool-use"], { readStdin: () => JSON.stringify({ session_id: "live", tool_name: "Bash", tool_input: { command }, tool_use_id: "tl", cwd: project }), stdout: { write: (s: string) => (out += s) }, stderr: { write: () => 0 }, env: { ERRATA_DIR: ledgerDir, HOME: tmp.dir }, cwd: project, now: () => Date.parse("2026-11-27T10:00:00Z") }).then(() => out);
    };
    expect(await call("npm install x")).toBe("");

    // Ninety clean sessions over nine days (the sequential gate needs 88 clean sessions at a
    // 5% target: calibration/ shadow gate): the check is eligible on every Bash call and fires on none.
    const clean: string[] = [];
    for (let k = 0; k < 90; k++) {
      const day = new Date(Date.parse("2026-11-27T09:00:00Z") + Math.floor(k / 10) * 86_400_000 + k * 60_000).toISOString();
      clean.push(writeSession(tmp.dir, `c${k}`, day, [{ prompt: "run the tests", tools: [{ name: "Bash", input: { command: "pnpm test" } }], reply: "All green." }], project));
    }
    const night2 = await runAudit({ ladderDir: dir, projectDir: project, transcripts: [s1, s2, ...clean], at: "2026-12-06T03:00:00.000Z" });
    const v = night2.shadow[0]!;
    expect(v.opportunities).toBeGreaterThanOrEqual(88);
    expect(v.falseAlarmSessions).toBe(0);
    expect(v.caught).toBe(2); // the two planted slips, corrected within three turns
    expect(v.earned).toBe(true);
    expect(night2.proposals).toHaveLength(1);
    const leave = readProposals(dir).get(night2.proposals[0]!)!.proposal;
    expect(leave.type).toBe("leave_shadow");
    expect(morningReport(dir, "2026-12-06T07:00:00.000Z")).toContain(`${leave.id} leave_shadow`);

    // Only with the owner's yes does it act.
    approve(dir, leave.id, "2026-12-06T08:00:00.000Z");
    const out = JSON.parse(await call("npm install x")) as { hookSpecificOutput: Record<string, unknown> };
    expect(out.hookSpecificOutput["permissionDecision"]).toBe("deny");
    expect(out.hookSpecificOutput["permissionDecisionReason"]).toBe("[errata check ladder-claude.tools.pnpm01, rule claude.tools.pnpm01] Use pnpm, never npm.");
    // Receipts for every loop run.
    const loops = readFileSync(join(dir, "receipts.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { loop: string }).loop);
    expect(new Set(loops)).toEqual(new Set(["audit", "shadow", "morning"]));
  });

  it("an instruction file changed by hand since the proposal is not overwritten: the apply refuses and says why; undo restores", async () => {
    const { project, dir, claude } = setup();
    // A rung-1 rule whose climb appends to CLAUDE.md.
    const rule = openRuleLedger(dir).read().ledger.rules.get("claude.tools.pnpm01")!;
    const r1: LedgerRule = { ...rule, rung: 1, incidents: [0, 1].map((i) => ({ kind: "incident" as const, v: 1 as const, incident_id: `inc-${i}`, rule_id: rule.rule_id, exchange_id: `ex-${i}`, session_id: "s", date: `2026-11-2${i}`, severity: 2 as const, signal: "explicit" as const, in_view: true, rung: 1 as const, cause: "rule_gap" as const })) };
    const d = diagnose(r1, [r1], { position: null, lines: null });
    expect(d).toMatchObject({ diagnosis: "climb", from: 1, to: 2 });
    const p = draftProposal(r1, d, { ladderDir: dir, projectDir: project, at: "2026-11-26T03:00:00Z" })!;
    expect(addProposal(dir, p)).toBe(true);
    writeFileSync(claude, `${readFileSync(claude, "utf8")}- A line the owner added by hand.\n`);
    const handEdited = readFileSync(claude, "utf8");
    expect(() => approve(dir, p.id, "2026-11-26T08:00:00Z")).toThrow(/changed since proposal .* was drafted \(edited by hand\?\); not overwritten/);
    expect(readFileSync(claude, "utf8")).toBe(handEdited);

    // Drafted again against the file as it is now, it applies as one appended unit, and undoes.
    const p2 = draftProposal(r1, { ...d, evidence: [...d.evidence, "redrafted"] }, { ladderDir: dir, projectDir: project, at: "2026-11-27T03:00:00Z" })!;
    addProposal(dir, p2);
    approve(dir, p2.id, "2026-11-27T08:00:00Z");
    expect(readFileSync(claude, "utf8")).toBe(`${handEdited}- Use pnpm, never npm.\n`);
    expect(readdirBackups(dir)).toEqual([`${p2.id}.bak`]);
    undo(dir, p2.id, "2026-11-27T09:00:00Z");
    expect(readFileSync(claude, "utf8")).toBe(handEdited);
    expect(readProposals(dir).get(p2.id)!.status).toBe("undone");
    expect(() => approve(dir, p2.id, "x")).toThrow(/is undone/);
    expect(() => reject(dir, p.id, "", "x")).toThrow(/needs a reason/);
    reject(dir, p.id, "superseded by the redraft", "2026-11-27T10:00:00Z");
    expect(readProposals(dir).get(p.id)!.status).toBe("rejected");
  });
});

function readdirBackups(dir: string): string[] {
  return existsSync(join(dir, "backups")) ? readdirSync(join(dir, "backups")) : [];
}
