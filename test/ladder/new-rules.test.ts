// New-rule proposals: a rule-gap correction naming no rule is kept (once per exchange), repeats
// of one subject are grouped, two distinct sessions draft a new_rule proposal in the owner's
// words (redacted), and approve/undo write and take back one new line with the rule's row.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { approve, contentTerms, groupGaps, openRuleLedger, readGaps, readProposals, ruleTextOf, runAudit, sameSubject, undo } from "../../runtime/ladder/index.js";
import type { GapRow } from "../../schemas/rule-ledger.js";
import { tempDir } from "../helpers/io.js";
import { pnpm, writeSession, type Step } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ladder-new-")));
afterEach(() => tmp.cleanup());

const tests = (said: string): Step[] => [
  { prompt: "commit the fix", tools: [{ name: "Bash", input: { command: "git commit -am fix" } }], reply: "Committed." },
  { prompt: said, reply: "Sorry, running them now." },
];
const gap = (exchange: string, session: string, text: string, date = "2026-11-20T10:00:00Z"): GapRow => ({ kind: "gap", v: 1, exchange_id: exchange, session_id: session, date, text, signal: "explicit", severity: 2, tools: [], files: [] });

describe("grouping rule gaps by subject", () => {
  it("joins repeats of one subject and keeps opposite choices apart", () => {
    const g = groupGaps([
      gap("e1", "a", "No, that's wrong. Always run the tests before you commit."),
      gap("e2", "b", "I told you: run the tests before committing!"),
      gap("e3", "b", "Reply in English."),
      gap("e4", "c", "Reply in Finnish."),
      gap("e5", "c", "Finnish please, I said so."),
    ]);
    expect(g.map((x) => x.map((y) => y.exchange_id))).toEqual([["e1", "e2"], ["e3"], ["e4", "e5"]]);
    expect(contentTerms("No, that's wrong. I told you again!")).toEqual([]);
  });

  it("sameSubject is symmetric, and a gap is on its own subject (property)", () => {
    const word = fc.constantFrom("tests", "commit", "pnpm", "finnish", "reply", "emoji", "branch", "docs", "lint", "wrong", "always");
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), fc.array(word, { minLength: 1, maxLength: 6 }), (a, b) => {
        const ta = contentTerms(a.join(" "));
        const tb = contentTerms(b.join(" "));
        expect(sameSubject(ta, tb)).toBe(sameSubject(tb, ta));
        if (ta.length > 0) expect(sameSubject(ta, ta)).toBe(true);
      }),
    );
  });

  it("the rule text is the owner's sentence holding the shared terms, openers dropped", () => {
    const r = ruleTextOf([gap("e1", "a", "No, that's wrong. Always run the tests before you commit."), gap("e2", "b", "I told you: run the tests before committing!")]);
    expect(r.text).toBe("Always run the tests before you commit.");
    expect(ruleTextOf([gap("e1", "a", "No, that's wrong. I told you to use pnpm, not npm."), gap("e2", "b", "wrong again: pnpm, not npm")]).text).toBe("Use pnpm, not npm.");
  });
});

describe("the auditor drafts a new rule from repeated gaps", () => {
  async function night(transcripts: string[], at: string) {
    const dir = join(tmp.dir, "ladder");
    return { dir, r: await runAudit({ ladderDir: dir, projectDir: tmp.dir, transcripts, at }) };
  }

  it("two sessions -> one proposal; a retried night adds nothing; approve writes one line and the rule's row; undo takes them back", async () => {
    const dir = join(tmp.dir, "ladder");
    openRuleLedger(dir).append([{ ...pnpm, location: { kind: "text", file: join(tmp.dir, "CLAUDE.md"), section: null } }]);
    const s1 = writeSession(tmp.dir, "a", "2026-11-20T10:00:00Z", tests("No, that's wrong. Always run the tests before you commit. DB_PASSWORD=hunter22x"), tmp.dir);
    const first = await night([s1], "2026-11-21T03:00:00.000Z");
    expect(first.r).toMatchObject({ gaps: 1, incidents: 0, proposals: [] });
    const s2 = writeSession(tmp.dir, "b", "2026-11-24T10:00:00Z", tests("I told you: run the tests before committing!"), tmp.dir);
    const second = await night([s1, s2], "2026-11-25T03:00:00.000Z");
    expect(second.r.gaps).toBe(1); // the first session's gap was kept already
    expect(second.r.proposals).toHaveLength(1);
    const again = await night([s1, s2], "2026-11-25T03:30:00.000Z");
    expect(again.r).toMatchObject({ gaps: 0, proposals: [] });
    expect(readGaps(dir)).toHaveLength(2);
    const raw = readFileSync(join(dir, "gaps.jsonl"), "utf8") + readFileSync(join(dir, "proposals.jsonl"), "utf8");
    expect(raw).not.toContain("hunter22x");
    const [s] = [...readProposals(dir).values()];
    const p = s!.proposal;
    expect(p).toMatchObject({ type: "new_rule", from_rung: 0, to_rung: 1, diagnosis: "rule_gap: no rule names it", review: "reviewer lane skipped: offline (no second model family configured)" });
    expect(p.rule!.text).toBe("Always run the tests before you commit.");
    expect(p.rule!.when).toBe("when running shell commands");
    expect(p.evidence.map((e) => e.split(" ")[0])).toEqual(readGaps(dir).map((g) => g.exchange_id));
    const file = join(tmp.dir, ".claude", "rules", "always-run-the-tests-before-you-commit.md");
    expect(existsSync(file)).toBe(false); // nothing written before the owner's yes
    approve(dir, p.id, "2026-11-25T08:00:00.000Z");
    expect(readFileSync(file, "utf8")).toBe('---\npaths:\n  - "**/*"\n---\n\n- Always run the tests before you commit.\n');
    const rule = openRuleLedger(dir).read().ledger.rules.get(p.rule_id)!;
    expect(rule).toMatchObject({ rung: 1, location: { kind: "text", file }, origin: "proposed" });
    expect(rule.keywords).toEqual(expect.arrayContaining(["run", "tests"]));
    // A later correction of the same subject names the new rule: an incident, not another gap.
    const s3 = writeSession(tmp.dir, "c", "2026-11-28T10:00:00Z", tests("No, that's wrong: run the tests before you commit."), tmp.dir);
    const third = await night([s1, s2, s3], "2026-11-29T03:00:00.000Z");
    expect(third.r).toMatchObject({ gaps: 0, incidents: 1 });
    expect(openRuleLedger(dir).read().ledger.rules.get(p.rule_id)!.incidents).toHaveLength(1);
    undo(dir, p.id, "2026-11-29T08:00:00.000Z");
    expect(existsSync(file)).toBe(false);
    expect(openRuleLedger(dir).read().ledger.rules.get(p.rule_id)).toMatchObject({ rung: 0, location: { kind: "unwritten" } });
    // Taken back, the rule counts nothing: a later correction of the subject is a gap again.
    const s4 = writeSession(tmp.dir, "d", "2026-12-01T10:00:00Z", tests("Wrong again: run the tests before you commit."), tmp.dir);
    const fourth = await night([s1, s2, s3, s4], "2026-12-02T03:00:00.000Z");
    expect(fourth.r).toMatchObject({ gaps: 1, incidents: 0 });
  });

  it("repeats in one session, or two subjects, draft nothing", async () => {
    const one = writeSession(tmp.dir, "a", "2026-11-20T10:00:00Z", [...tests("No, that's wrong. Always run the tests before you commit."), ...tests("Wrong again: run the tests before committing.")]);
    const other = writeSession(tmp.dir, "b", "2026-11-22T10:00:00Z", tests("No, that's wrong. Never add emoji to commit messages."), tmp.dir);
    const r = await night([one, other], "2026-11-23T03:00:00.000Z");
    expect(r.r.gaps).toBe(3);
    expect(r.r.proposals).toEqual([]);
  });

  it("a correction of another cause, or one naming a rule, is no gap", async () => {
    const dir = join(tmp.dir, "ladder");
    openRuleLedger(dir).append([{ ...pnpm, location: { kind: "text", file: join(tmp.dir, "CLAUDE.md"), section: null } }]);
    const env = writeSession(tmp.dir, "a", "2026-11-20T10:00:00Z", [
      { prompt: "add dayjs", tools: [{ name: "Bash", input: { command: "pnpm add dayjs" } }], reply: "pnpm failed with a 503." },
      { prompt: "No, that's wrong: the registry is down again, retry later", reply: "I will retry later." },
    ]);
    const named = writeSession(tmp.dir, "b", "2026-11-21T10:00:00Z", tests("No, that's wrong. I told you to use pnpm, not npm."), tmp.dir);
    const r = await night([env, named], "2026-11-22T03:00:00.000Z");
    expect(r.r.gaps).toBe(0);
    expect(r.r.incidents).toBe(1);
  });
});
