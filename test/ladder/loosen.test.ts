// Loosening, only by the owner: `errata rules loosen` drafts a proposal; approve moves the rule
// down as one unit edit with a backup (a check back to shadow or off, a line removed); undo
// puts it back; refusals (unknown rule, at the bottom, bad --to-rung, a hand edit) write nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { addProposal, approve, loosenProposal, openRuleLedger, readProposals, runAudit, undo } from "../../runtime/ladder/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { finnish, pnpm, writeSession } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ladder-loosen-")));
afterEach(() => tmp.cleanup());

const ladder = () => join(tmp.dir, "ledger", "ladder");
const claude = () => join(tmp.dir, "CLAUDE.md");
const AT = "2026-11-26T08:00:00.000Z";

async function cli(args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir }, cwd: tmp.dir, now: Date.parse("2026-11-26T07:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

/** pnpm at rung 3 (climbed from CLAUDE.md, check in checks.json), finnish at rung 2 in CLAUDE.md. */
function seed(mode: "active" | "shadow"): void {
  mkdirSync(ladder(), { recursive: true });
  writeFileSync(claude(), "# Rules\n- Use pnpm, never npm.\n- Reply in the language I write in (Finnish when I write Finnish).\n- Keep commits small.\n");
  const check = { id: "ladder-claude.tools.pnpm01", rule_id: pnpm.rule_id, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode };
  writeFileSync(join(ladder(), "checks.json"), `${JSON.stringify({ version: 1, checks: [check] }, null, 2)}\n`);
  openRuleLedger(ladder()).append([
    { ...pnpm, location: { kind: "text", file: claude(), section: null } },
    { kind: "patch", v: 1, rule_id: pnpm.rule_id, at: "2026-11-20T08:00:00.000Z", set: { rung: 3, location: { kind: "check", check: check.id } }, because: "pr-climbed0" },
    { ...finnish, location: { kind: "text", file: claude(), section: null } },
  ]);
}

const rule = (id: string) => openRuleLedger(ladder()).read().ledger.rules.get(id)!;

describe("errata rules loosen", () => {
  it("an active check goes back to shadow, the rule to rung 2 in its old place; undo restores both", async () => {
    seed("active");
    const checksBefore = readFileSync(join(ladder(), "checks.json"), "utf8");
    const r = await cli(["rules", "loosen", pnpm.rule_id, "--why", "npm is fine in docs/", "--json"]);
    expect(r.code).toBe(0);
    const { proposal: p, added } = JSON.parse(r.out) as { proposal: { id: string; type: string; from_rung: number; to_rung: number; review: string }; added: boolean };
    expect(added).toBe(true);
    expect(p).toMatchObject({ type: "loosen", from_rung: 3, to_rung: 2, review: "reviewer lane skipped: offline (no second model family configured)" });
    expect(readFileSync(join(ladder(), "checks.json"), "utf8")).toBe(checksBefore); // drafted, not applied
    expect((await cli(["rules", "approvals"])).out).toContain(`${p.id}  loosen 3 -> 2  ${pnpm.rule_id}  [pending]`);
    expect((await cli(["rules", "morning", "--dry-run"])).out).toContain(`${p.id} loosen 3 -> 2`);
    expect((await cli(["rules", "approve", p.id])).code).toBe(0);
    expect(JSON.parse(readFileSync(join(ladder(), "checks.json"), "utf8")).checks[0].mode).toBe("shadow");
    expect(rule(pnpm.rule_id)).toMatchObject({ rung: 2, location: { kind: "text", file: claude() } });
    expect(readFileSync(join(ladder(), "backups", `${p.id}.bak`), "utf8")).toBe(checksBefore);
    expect((await cli(["rules", "undo", p.id])).code).toBe(0);
    expect(readFileSync(join(ladder(), "checks.json"), "utf8")).toBe(checksBefore);
    expect(rule(pnpm.rule_id)).toMatchObject({ rung: 3, location: { kind: "check", check: "ladder-claude.tools.pnpm01" } });
  });

  it("a check already in shadow is removed; --to-rung 1 is honoured", async () => {
    seed("shadow");
    const r = await cli(["rules", "loosen", pnpm.rule_id, "--why", "not worth a check", "--to-rung", "1", "--json"]);
    const id = (JSON.parse(r.out) as { proposal: { id: string } }).proposal.id;
    approve(ladder(), id, AT);
    expect(JSON.parse(readFileSync(join(ladder(), "checks.json"), "utf8")).checks).toEqual([]);
    expect(rule(pnpm.rule_id).rung).toBe(1);
  });

  it("a line read every turn is removed as one unit (the other lines untouched); undo puts it back", async () => {
    seed("active");
    const before = readFileSync(claude(), "utf8");
    const r = await cli(["rules", "loosen", finnish.rule_id, "--why", "I write English now"]);
    expect(r.code).toBe(0);
    const [s] = [...readProposals(ladder()).values()].filter((x) => x.proposal.rule_id === finnish.rule_id);
    expect(s!.proposal).toMatchObject({ from_rung: 2, to_rung: 0, edit: { kind: "remove", unit: "- Reply in the language I write in (Finnish when I write Finnish).\n" } });
    approve(ladder(), s!.proposal.id, AT);
    expect(readFileSync(claude(), "utf8")).toBe("# Rules\n- Use pnpm, never npm.\n- Keep commits small.\n");
    expect(rule(finnish.rule_id)).toMatchObject({ rung: 0, location: { kind: "unwritten" } });
    undo(ladder(), s!.proposal.id, AT);
    expect(readFileSync(claude(), "utf8")).toBe(before);
    expect(rule(finnish.rule_id)).toMatchObject({ rung: 2, location: { kind: "text", file: claude() } });
  });

  it("refusals exit 2 or 1 with what was expected and found, and write nothing", async () => {
    seed("active");
    const table = join(ladder(), "proposals.jsonl");
    const unknown = await cli(["rules", "loosen", "no.such.rule", "--why", "x", "--json"]);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.out)).toMatchObject({ ok: false, code: "NOT_FOUND" });
    expect((await cli(["rules", "loosen", finnish.rule_id, "--why", "x", "--to-rung", "1"])).err).toMatch(/moves down only by removing its line.*expected --to-rung 0/);
    expect((await cli(["rules", "loosen", pnpm.rule_id, "--why", "x", "--to-rung", "3"])).code).toBe(2);
    expect((await cli(["rules", "loosen", pnpm.rule_id, "--why", "x", "--to-rung", "two"])).code).toBe(2);
    expect((await cli(["rules", "loosen", pnpm.rule_id, "--why", "  "])).code).toBe(2);
    expect((await cli(["rules", "loosen", finnish.rule_id, "--why", "x", "--dry-run"])).out).toMatch(/^would draft pr-/);
    expect(existsSync(table)).toBe(false);
    // At the bottom: loosened to 0 and applied, a second loosening is refused.
    const id = (JSON.parse((await cli(["rules", "loosen", finnish.rule_id, "--why", "x", "--json"])).out) as { proposal: { id: string } }).proposal.id;
    approve(ladder(), id, AT);
    const lines = readFileSync(table, "utf8");
    const bottom = await cli(["rules", "loosen", finnish.rule_id, "--why", "again"]);
    expect(bottom.code).toBe(2);
    expect(bottom.err).toMatch(/already at the bottom.*expected a rule at rung 1, 2 or 3; found rung 0/);
    // The owner edited the line by hand: nothing to remove as one unit, exit 1.
    writeFileSync(claude(), "# Rules\n- Use pnpm (never npm), except in docs/.\n");
    openRuleLedger(ladder()).append([{ ...pnpm, rule_id: "claude.tools.pnpm02", location: { kind: "text", file: claude(), section: null } }]);
    const hand = await cli(["rules", "loosen", "claude.tools.pnpm02", "--why", "x"]);
    expect(hand.code).toBe(1);
    expect(hand.err).toMatch(/0 times \(changed by hand\?\); nothing drafted.*expected the line "Use pnpm, never npm." once; found 0 lines/);
    expect(readFileSync(table, "utf8")).toBe(lines);
  });

  it("an apply over a hand edit since the draft is refused (exit 1) and leaves the file", async () => {
    seed("active");
    const id = (JSON.parse((await cli(["rules", "loosen", finnish.rule_id, "--why", "x", "--json"])).out) as { proposal: { id: string } }).proposal.id;
    writeFileSync(claude(), `${readFileSync(claude(), "utf8")}- A line the owner added.\n`);
    const hand = readFileSync(claude(), "utf8");
    const r = await cli(["rules", "approve", id]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/changed since proposal .* not overwritten/);
    expect(readFileSync(claude(), "utf8")).toBe(hand);
    expect(rule(finnish.rule_id).rung).toBe(2);
  });

  it("removal is one unit: wherever the line sits, approve drops exactly it and undo gives the file back byte for byte (property)", () => {
    const other = fc.stringMatching(/^- [A-Za-z ,.]{0,30}$/).filter((l) => !l.includes("Reply in the language"));
    let n = 0;
    fc.assert(
      fc.property(fc.array(other, { maxLength: 6 }), fc.nat(), fc.boolean(), (lines, at, trailing) => {
        const dir = join(tmp.dir, `p${n++}`);
        const file = join(dir, "CLAUDE.md");
        mkdirSync(dir, { recursive: true });
        const unit = "- Reply in the language I write in (Finnish when I write Finnish).";
        const all = [...lines];
        all.splice(at % (lines.length + 1), 0, unit);
        const text = `${all.join("\n")}${trailing ? "\n" : ""}`;
        writeFileSync(file, text);
        openRuleLedger(dir).append([{ ...finnish, location: { kind: "text", file, section: null } }]);
        const p = loosenProposal(dir, finnish.rule_id, { why: "x" }, { ladderDir: dir, projectDir: dir, at: AT });
        addProposal(dir, p);
        approve(dir, p.id, AT);
        expect(readFileSync(file, "utf8").split("\n").filter((l) => l === unit)).toEqual([]);
        const after = readFileSync(file, "utf8");
        expect(after === "" ? [] : after.replace(/\n$/, "").split("\n")).toEqual(lines);
        undo(dir, p.id, AT);
        expect(readFileSync(file, "utf8")).toBe(text);
      }),
      { numRuns: 40 },
    );
  });

  it("the auditor drafts a loosening of an active ask check the owner overrode in two sessions (a rejected call does not count)", async () => {
    seed("active");
    const checks = JSON.parse(readFileSync(join(ladder(), "checks.json"), "utf8")) as { checks: Array<Record<string, unknown>> };
    checks.checks[0]!["action"] = "ask";
    writeFileSync(join(ladder(), "checks.json"), `${JSON.stringify(checks, null, 2)}\n`);
    const step = [{ prompt: "build the docs", tools: [{ name: "Bash", input: { command: "npm run docs" } }], reply: "Built." }];
    const t = ["a", "b", "c"].map((s, k) => writeSession(tmp.dir, s, `2026-11-2${k}T10:00:00Z`, step));
    // Session c: the owner said no when asked (Claude Code's rejection text as the tool result).
    writeFileSync(t[2]!, readFileSync(t[2]!, "utf8").replace('"content":"ok"', `"content":"The user doesn't want to proceed with this tool use. The tool use was rejected.","is_error":true`));
    const event = (s: string) => JSON.stringify({ v: 1, ts: "2026-11-20T10:00:05.000Z", session_id: s, tool_use_id: `toolu_${s}_0_0`, tool_name: "Bash", check: "ladder-claude.tools.pnpm01", rule_id: pnpm.rule_id, mode: "active", fired: true, decision: "ask" });
    writeFileSync(join(ladder(), "tool-events.jsonl"), `${event("a")}\n${event("c")}\n`);
    const one = await runAudit({ ladderDir: ladder(), projectDir: tmp.dir, transcripts: t, at: "2026-11-23T03:00:00.000Z" });
    expect(one.proposals).toEqual([]); // one override (a), one rejection (c)
    writeFileSync(join(ladder(), "tool-events.jsonl"), `${event("b")}\n`, { flag: "a" });
    const two = await runAudit({ ladderDir: ladder(), projectDir: tmp.dir, transcripts: t, at: "2026-11-23T04:00:00.000Z" });
    expect(two.proposals).toHaveLength(1);
    const p = readProposals(ladder()).get(two.proposals[0]!)!.proposal;
    expect(p).toMatchObject({ type: "loosen", diagnosis: "overridden", from_rung: 3, to_rung: 2, edit: { kind: "check", deactivate: "ladder-claude.tools.pnpm01" } });
    expect(p.evidence.map((e) => e.split(" ")[0])).toEqual(["toolu_a_0_0", "toolu_b_0_0"]);
    expect(JSON.parse(readFileSync(join(ladder(), "checks.json"), "utf8")).checks[0].mode).toBe("active"); // only the owner's yes applies it
    const again = await runAudit({ ladderDir: ladder(), projectDir: tmp.dir, transcripts: t, at: "2026-11-23T05:00:00.000Z" });
    expect(again.proposals).toEqual([]);
  });
});
