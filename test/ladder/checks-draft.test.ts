/**
 * Checks drafted from evidence: derived from the rule and the corrected calls, replayed over
 * recorded calls before they are proposed. The cases, and the goal measured on the
 * bundled real sessions (datasets/claude-code, and ../shared/datasets/claude-transcripts where
 * present): no drafted check fires on more than 2% of their tool calls.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { commandPatterns, draftFromEvidence, foldLedger, MAX_FIRE_SHARE, transcriptTurns, type LedgerRule, type RecordedCall } from "../../runtime/ladder/index.js";
import { pnpm } from "./helpers.js";


const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const SHARED = join(ROOT, "..", "shared", "datasets", "claude-transcripts");

function jsonlUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? jsonlUnder(p) : n.endsWith(".jsonl") ? [p] : [];
  });
}

const rule = (text: string): LedgerRule => foldLedger([{ ...pnpm, rule_id: "r", text, keywords: [] }]).rules.get("r")!;
const bash = (command: string): RecordedCall => ({ tool_name: "Bash", tool_input: { command } });

let real: RecordedCall[] = [];
let fromShared = false;
beforeAll(async () => {
  const files = [...jsonlUnder(join(ROOT, "datasets", "claude-code")), ...jsonlUnder(SHARED)];
  fromShared = existsSync(SHARED);
  for (const f of files) real.push(...(await transcriptTurns(f)).calls.map((c) => ({ tool_name: c.tool_name, tool_input: c.tool_input })));
});

describe("a check drafted from the rule and the corrected calls", () => {
  it("'Don't use `git push --force` on main' is not every git; 'Never force-push to main' matches git push -f", () => {
    const ordinary = ["git status", "git push origin main", "git commit -m x", "git push --force origin feature", "git log --oneline"].map(bash);
    const a = draftFromEvidence(rule("Don't use `git push --force` on main"), [bash("git push --force origin main")], ordinary, "/p");
    expect(a.check).not.toBeNull();
    if (a.check === null) return;
    expect(a.replay.corrected).toEqual({ fired: 1, of: 1 });
    expect(a.replay.others.fired).toBe(0);
    expect(a.check.project).toBe("/p");
    const b = draftFromEvidence(rule("Never force-push to main"), [bash("git push -f origin main")], ordinary, "/p");
    expect(b.check).not.toBeNull();
    if (b.check === null) return;
    const re = new RegExp(b.check.conditions[0]!.pattern, "i");
    for (const c of ["git push -f origin main", "git push --force origin main", "cd x && git push --force-with-lease origin main"]) expect(re.test(c), c).toBe(true);
    for (const c of ["git status", "git push origin main", "git commit -m 'force push fix'"]) expect(re.test(c), c).toBe(false);
  });

  it("a condition that would fire on a large share of ordinary calls is not proposed; one that misses the corrected call neither", () => {
    const ordinary = Array.from({ length: 50 }, (_, i) => bash(i % 2 === 0 ? `echo step ${i}` : `ls -la dir${i}`));
    const r = draftFromEvidence(rule("Never echo, print, or log secret values to stdout/stderr."), [bash("echo $GITHUB_TOKEN")], ordinary, null);
    expect(r.check).toBeNull();
    if (r.check === null) expect(r.why).toMatch(/would fire on 25 of 50/);
    const none = draftFromEvidence(rule("Use pnpm, never npm."), [bash("yarn add lodash")], ordinary, null);
    expect(none.check).toBeNull();
    expect(draftFromEvidence(rule("Use pnpm, never npm."), [], ordinary, null).check).toBeNull();
  });

  it("no check drafted from the real instruction files' forbidding rules fires on more than 2% of the bundled real sessions' tool calls", async () => {
    if (!fromShared) console.warn("../shared/datasets/claude-transcripts absent: measured on datasets/claude-code alone");
    expect(real.length).toBeGreaterThan(100);
    const { ledgerRules } = await import("./naming-set.js");
    const rules = ledgerRules(readdirSync(join(ROOT, "datasets", "claude-md")).filter((d) => d.includes("__")));
    let drafted = 0;
    let worst = 0;
    for (const r of rules) {
      for (const p of commandPatterns(r.text)) {
        // The corrected call: the real call the pattern fires on first, else a command the rule itself spells.
        const re = new RegExp(p.pattern, "i");
        const hit = real.find((c) => typeof c.tool_input["command"] === "string" && re.test(c.tool_input["command"] as string));
        if (hit === undefined) continue;
        const d = draftFromEvidence(r, [hit], real, null);
        if (d.check === null) continue;
        drafted++;
        worst = Math.max(worst, d.replay.others.fired / Math.max(1, d.replay.others.of));
      }
    }
    console.log(`drafted checks over ${real.length} real tool calls: ${drafted}; the widest fires on ${(100 * worst).toFixed(2)}% of the others`);
    expect(worst).toBeLessThanOrEqual(MAX_FIRE_SHARE);
  });
});
