// The ladder stage of errata daily: the auditor over recent transcripts, advisory (a failure
// never fails the daily run), nothing on a dry run.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { StageContext } from "../../runtime/jobs/daily/context.js";
import { stageOutput } from "../../runtime/jobs/daily/context.js";
import { ladderStage } from "../../runtime/jobs/daily/ladder-stage.js";
import { runLoop } from "../../runtime/jobs/daily/run-loop.js";
import { runRulesBuild } from "../../runtime/jobs/index.js";
import { openRuleLedger, readProposals, readReceipts, reviewerFromConfig, type Reviewer } from "../../runtime/ladder/index.js";
import { tempDir } from "../helpers/io.js";
import { writeSession } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ladder-stage-")));
afterEach(() => tmp.cleanup());

const ctxFor = (ledgerDir: string, dryRun = false): StageContext => ({ nowMs: () => Date.now(), dryRun, files: { upgrades: join(ledgerDir, "upgrades.jsonl") } } as unknown as StageContext);

const NO_INDEX = { ruleIndexFile: null, projectDir: "." };

describe("the daily ladder stage", () => {
  it("brings the rule index's units into the rule ledger first, so the night's corrections find their rules", async () => {
    const ledger = join(tmp.dir, "ledger");
    const project = join(tmp.dir, "p");
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, "CLAUDE.md"), "# Tools\n\n- Use pnpm, never npm.\n");
    const v4 = join(tmp.dir, "v4");
    const built = runRulesBuild({ roots: [{ root: project }], home: null, managed: [], extra: [], v4Dir: v4, today: "2026-12-02", git: false, dryRun: false });
    const root = join(tmp.dir, "projects");
    mkdirSync(root, { recursive: true });
    writeSession(root, "s1", new Date().toISOString(), [
      { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed with npm." },
      { prompt: "No, that's wrong. I told you to use pnpm, not npm.", reply: "Redone with pnpm." },
    ], project);
    // A session of another project says the same: that project's rules are not this one's.
    writeSession(root, "s2", new Date().toISOString(), [
      { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed with npm." },
      { prompt: "No, that's wrong. I told you to use pnpm, not npm.", reply: "Redone with pnpm." },
    ], join(tmp.dir, "elsewhere"));
    const opts = { ruleIndexFile: built.file, projectDir: null };
    const out = await ladderStage(ctxFor(ledger), root, opts).run();
    expect(out.counts).toMatchObject({ rules_added: 1, transcripts: 2, turns: 4, incidents: 1 });
    const again = await ladderStage(ctxFor(ledger), root, opts).run();
    expect(again.counts).toMatchObject({ rules_added: 0, incidents: 0 });
    const rule = [...openRuleLedger(join(ledger, "ladder")).read().ledger.rules.values()];
    expect(rule.map((r) => [r.rule_id, r.rung, r.incidents.length])).toEqual([[built.result.index.units[0]!.id, 2, 1]]);
  });

  it("audits recent transcripts and writes the audit receipt, an empty night included", async () => {
    const ledger = join(tmp.dir, "ledger");
    const root = join(tmp.dir, "projects");
    mkdirSync(root, { recursive: true });
    writeSession(root, "s1", new Date().toISOString(), [{ prompt: "fix the test", reply: "Fixed." }]);
    const out = await ladderStage(ctxFor(ledger), root, NO_INDEX).run();
    expect(out.counts).toMatchObject({ transcripts: 1, turns: 1, incidents: 0, proposals: 0 });
    expect(readReceipts(join(ledger, "ladder")).map((r) => r.loop)).toEqual(["audit", "shadow"]);
  });

  it("a dry run audits nothing; a failure is advisory and leaves the daily run ok", async () => {
    const ledger = join(tmp.dir, "ledger");
    expect((await ladderStage(ctxFor(ledger, true), tmp.dir, NO_INDEX).run()).notes).toEqual(["ladder: dry run, nothing audited"]);
    mkdirSync(ledger, { recursive: true });
    writeFileSync(join(ledger, "ladder"), "a file where the ladder folder should be");
    const r = await runLoop([{ name: "report", run: async () => stageOutput({}) }, ladderStage(ctxFor(ledger), tmp.dir, NO_INDEX)], { loop: "daily", nowMs: () => Date.now(), runsFile: join(tmp.dir, "runs.jsonl"), dryRun: false });
    expect(r.ok).toBe(true);
    expect(r.failed).toEqual(["ladder"]);
  });

  it("passes the configured reviewer to the auditor: each new draft carries its argument", async () => {
    const ledger = join(tmp.dir, "ledger");
    const root = join(tmp.dir, "projects");
    mkdirSync(root, { recursive: true });
    const said = ["No, that's wrong. Always run the tests before you commit.", "I told you: run the tests before committing!"];
    said.forEach((text, k) => writeSession(root, `s${k}`, new Date(Date.now() - (2 - k) * 3_600_000).toISOString(), [{ prompt: "commit it", reply: "Committed." }, { prompt: text, reply: "Sorry." }]));
    const seen: string[] = [];
    const stub: Reviewer = { name: "stub", model: "m", review: async (p) => (seen.push(p.id), `reviewer stub (m) argues against: ${p.type} on thin evidence`) };
    const out = await ladderStage(ctxFor(ledger), root, { ...NO_INDEX, reviewer: () => stub }).run();
    expect(out.counts).toMatchObject({ proposals: 1 });
    const [s] = [...readProposals(join(ledger, "ladder")).values()];
    expect(s!.proposal.review).toBe("reviewer stub (m) argues against: new_rule on thin evidence");
    expect(seen).toEqual([s!.proposal.id]);
  });

  it("the reviewer comes from the engine config's reviewer key; none named is offline", () => {
    const ledger = join(tmp.dir, "ledger");
    expect(reviewerFromConfig({ paths: { ledgerDir: ledger }, env: {} })).toEqual({ reviewer: null, why: "reviewer lane skipped: offline (no second model family configured)" });
    mkdirSync(ledger, { recursive: true });
    writeFileSync(join(ledger, "errata-engine.json"), JSON.stringify({ lanes: { rev: { kind: "openai", baseURL: "http://127.0.0.1:9/v1", model: "qwen2.5-7b-instruct" }, emb: { kind: "embedded" } }, reviewer: "rev" }));
    const r = reviewerFromConfig({ paths: { ledgerDir: ledger }, env: {} }).reviewer!;
    expect([r.name, r.model]).toEqual(["rev", "qwen2.5-7b-instruct"]);
    writeFileSync(join(ledger, "errata-engine.json"), JSON.stringify({ lanes: { emb: { kind: "embedded" } }, reviewer: "emb" }));
    expect(() => reviewerFromConfig({ paths: { ledgerDir: ledger }, env: {} })).toThrow(/reviewer lane emb is not an OpenAI lane/);
  });
});
