/**
 * `errata rules approve` of a check code could not draft: refused (exit 2, nothing written,
 * still offered) until the owner gives its conditions (--command-regex, --path-glob or
 * --hookify); then a check in shadow belonging to the corrections' project.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { addProposal, incidentId, openRuleLedger, readProposals } from "../../runtime/ladder/index.js";
import { checkApplies } from "../../runtime/ladder-formats/checks.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { pnpm } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-approve-cond-")));
afterEach(() => tmp.cleanup());

async function cli(args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir }, cwd: tmp.dir, now: Date.parse("2026-11-26T03:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

function seed(): { ladder: string; id: string } {
  const ladder = join(tmp.dir, "ledger", "ladder");
  mkdirSync(ladder, { recursive: true });
  const rule = { ...pnpm, rule_id: "r.secrets", text: "Never echo secret values.", keywords: [] };
  const inc = (ex: string) => ({ kind: "incident" as const, v: 1 as const, incident_id: incidentId(rule.rule_id, ex), rule_id: rule.rule_id, exchange_id: ex, session_id: ex, date: "2026-11-20T10:00:00Z", severity: 2 as const, signal: "explicit" as const, in_view: true, rung: 2 as const, cause: "rule_gap" as const, project: "/src/app" });
  openRuleLedger(ladder).append([rule, inc("e1"), inc("e2")]);
  const id = "pr-nc00000001";
  addProposal(ladder, { kind: "proposal", v: 1, id, at: "2026-11-25T03:00:00Z", type: "new_check", rule_id: rule.rule_id, from_rung: 2, to_rung: 2, diagnosis: "climb", why: "a check would carry this rule, but code could not draft one", evidence: ["e1", "e2"], edit: null, review: "offline" });
  return { ladder, id };
}

describe("approve a check code could not draft", () => {
  it("asks for conditions and writes nothing; --command-regex installs it in shadow for its project", async () => {
    const { ladder, id } = seed();
    const before = readFileSync(join(ladder, "proposals.jsonl"), "utf8");
    const bare = await cli(["rules", "approve", id]);
    expect(bare.code).toBe(2);
    expect(bare.err).toMatch(/--command-regex/);
    expect(readFileSync(join(ladder, "proposals.jsonl"), "utf8")).toBe(before);
    expect(existsSync(join(ladder, "checks.json"))).toBe(false);
    expect(readProposals(ladder).get(id)!.status).toBe("pending");
    expect((await cli(["rules", "approve", id, "--command-regex", "(unclosed"])).code).toBe(2);
    expect((await cli(["rules", "approve", id, "--path-glob", "**/.env", "--dry-run"])).code).toBe(0);
    expect(existsSync(join(ladder, "checks.json"))).toBe(false);
    const ok = await cli(["rules", "approve", id, "--command-regex", "\\becho\\s+\\$\\w*(TOKEN|SECRET|KEY)", "--json"]);
    expect(ok.code).toBe(0);
    const check = (JSON.parse(readFileSync(join(ladder, "checks.json"), "utf8")) as { checks: Array<Record<string, unknown>> }).checks[0]!;
    expect(check).toMatchObject({ rule_id: "r.secrets", mode: "shadow", project: "/src/app", tools: ["Bash"] });
    // The deny reason the model reads is the rule, never the proposal's own reasoning (walked as a user: it read
    // "a check would carry this rule, but code could not draft one that passes (no drafted condition passed").
    expect(check["message"]).toBe("Never echo secret values.");
    expect(readProposals(ladder).get(id)!.status).toBe("applied");
    expect(checkApplies(check as never, "/src/app/sub")).toBe(true);
    expect(checkApplies(check as never, "/src/other")).toBe(false);
  });

  it("--hookify takes a hookify rule's conditions", async () => {
    const { ladder, id } = seed();
    const file = join(tmp.dir, "hookify.secrets.local.md");
    writeFileSync(file, "---\nname: no-secret-echo\nenabled: true\nevent: bash\npattern: echo\\s+\\$\\w*TOKEN\naction: block\n---\n\nDo not echo secrets.\n");
    expect((await cli(["rules", "approve", id, "--hookify", file])).code).toBe(0);
    const check = (JSON.parse(readFileSync(join(ladder, "checks.json"), "utf8")) as { checks: Array<{ conditions: Array<{ field: string }>; message: string }> }).checks[0]!;
    expect(check.conditions[0]!.field).toBe("command");
    expect(check.message).toBe("Never echo secret values.");
  });
});
