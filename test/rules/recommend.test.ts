// Recommendations through a loopback OpenAI-compatible server (the real SDK): the writer on the
// generative lane (flex tier), the checks as nouls on the judge lane, code dropping on a failed
// check and only flagging on a placement question; filing once per claim.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { claimHash } from "../../runtime/jobs/daily/ids.js";
import { readFilings, ruleClaimHash, runRulesRecheck, runRulesRecommend, type RulesRecommendOptions } from "../../runtime/jobs/index.js";
import type { Recommendation } from "../../schemas/recommendations.js";
import type { FakeServer } from "../engine/helpers/fake-openai.js";
import { tempDir } from "../helpers/io.js";
import { GOOD_REPLY, goodJudge, loopback, writeFixture, type Fixture, type Script } from "./recommend-fixture.js";

let t: ReturnType<typeof tempDir>;
let server: FakeServer | null = null;
let fx: Fixture;
beforeEach(() => {
  t = tempDir();
  fx = writeFixture(t.dir);
});
afterEach(async () => {
  await server?.close();
  server = null;
  t.cleanup();
});

const NOW = Date.parse("2026-12-01T12:00:00Z");

async function recommend(script: Script, over: Partial<RulesRecommendOptions> = {}) {
  const lb = await loopback(script);
  server = lb.server;
  const report = await runRulesRecommend({
    v4Dir: fx.v4Dir, engine: lb.engine, writer: { lane: lb.writer, offlineWhy: "" }, exchangeFiles: [fx.exchangesFile], upgradesFile: fx.upgradesFile,
    top: 3, today: "2026-12-01", nowMs: NOW, dryRun: false, file: false, warn: () => undefined, ...over,
  });
  return { ...lb, report };
}

const lines = (f: string): Recommendation[] => readFileSync(f, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l) as Recommendation);

describe("rules recommend on the generative lane", () => {
  it("a good recommendation survives, written to recommendations-<date>.jsonl with every check passed", async () => {
    const { report, writerBodies } = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge });
    expect(report.dropped).toEqual([]);
    expect(report.survivors).toHaveLength(1);
    const r = report.survivors[0]!;
    expect(r).toMatchObject({ fix: "enforce_rule", rank: 1, target: "a PreToolUse check on Bash", writer: { lane: "openai", model: "fake-writer", service_tier: "flex" }, flags: [], rule_id: fx.ruleId });
    expect(r.change).toMatch(/^Do not run/);
    expect(r.exemplar_ids).toHaveLength(6);
    expect(r.rung).toEqual({ current: 2, current_name: "read on every turn", next: 3, next_name: "a check that runs before the action" });
    expect(r.falsifier.baseline).toMatchObject({ complaints: 6, denominator: 20, per: "judged_exchange", rate: 0.3 });
    expect(r.falsifier.statement).toMatch(/is not shown below 0.3 \(6 of 20 judged exchanges.*\) by the sequential permutation test on sessions/);
    // every check was asked and answered; doctrine both together and per rule
    expect(r.checks.every((c) => c.status === "pass")).toBe(true);
    expect(new Set(r.checks.map((c) => c.check))).toEqual(new Set(["rules.already_done", "rules.more_prose", "rules.addresses_failure", "rules.recreates_retired", "rules.requires_forbidden", "rules.mandates_optional", "rules.model_in_hook"]));
    expect(r.checks.filter((c) => c.check === "rules.recreates_retired").map((c) => c.scope)).toEqual(expect.arrayContaining(["together", "placement", fx.ruleId]));
    expect(lines(report.files.survivors).map((x) => x.id)).toEqual([r.id]);
    expect(lines(report.files.dropped)).toEqual([]);
    // the writer read redacted exemplars, the rule and the doctrine, on the flex tier
    expect(writerBodies).toHaveLength(1);
    expect(writerBodies[0].service_tier).toBe("flex");
    const prompt = JSON.stringify(writerBodies[0].messages);
    expect(prompt).toContain("Use pnpm for every install; never npm.");
    expect(prompt).toContain("npm again?? we use pnpm");
    expect(prompt).toContain("negative constraints");
    expect(prompt).toContain("checkable property of an artifact");
  });

  const failing: Array<[string, (c: ReturnType<typeof import("./recommend-fixture.js").askedCheck>) => number, RegExp]> = [
    ["already_done", (c) => (c.id === "rules.already_done" ? 0.9 : goodJudge(c)), /^already done \(rules\.already_done P\(yes\)=0\.90\)$/],
    ["more_prose", (c) => (c.id === "rules.more_prose" ? 0.9 : goodJudge(c)), /^more prose for a covered rule \(rules\.more_prose/],
    ["addresses_failure", (c) => (c.id === "rules.addresses_failure" ? 0.1 : goodJudge(c)), /^does not address the exemplars \(0 of 6 would have been prevented\)$/],
    ["recreates_retired", (c) => (c.id === "rules.recreates_retired" && !c.placement ? 0.9 : goodJudge(c)), /^re-creates what a rule retired/],
    ["requires_forbidden", (c) => (c.id === "rules.requires_forbidden" && !c.placement ? 0.9 : goodJudge(c)), /^requires what a rule forbids/],
    ["mandates_optional", (c) => (c.id === "rules.mandates_optional" && !c.placement ? 0.9 : goodJudge(c)), /^makes mandatory what a rule leaves optional/],
  ];
  for (const [name, judge, reason] of failing) {
    it(`a failed ${name} check drops it, with that reason, to recommendations-dropped-<date>.jsonl`, async () => {
      const { report } = await recommend({ writer: () => GOOD_REPLY, judge });
      expect(report.survivors).toEqual([]);
      expect(report.dropped).toHaveLength(1);
      const d = report.dropped[0]!;
      expect(d.dropped.some((x) => reason.test(x)), d.dropped.join(" | ")).toBe(true);
      expect(d.checks.some((c) => c.check === `rules.${name}` && c.status === "fail")).toBe(true);
      expect(lines(report.files.dropped).map((x) => x.dropped)).toEqual([d.dropped]);
      expect(lines(report.files.survivors)).toEqual([]);
    });
  }

  it("a change that would break a rule read whole is dropped even when the rules together pass (requires_forbidden on the git rule alone)", async () => {
    const judge: Script["judge"] = (c) => (c.id === "rules.requires_forbidden" && !c.placement && c.user.includes("- Never push to main") && !c.user.includes("never npm") ? 0.9 : goodJudge(c));
    const { report } = await recommend({ writer: () => JSON.stringify({ target: "CLAUDE.md#Git", change: "Do not push to main before pnpm install has run.", falsifier: "x" }), judge });
    const d = report.dropped[0]!;
    const git = d.checks.filter((c) => c.check === "rules.requires_forbidden");
    expect(git.find((c) => c.scope === "together")?.status).toBe("pass");
    expect(git.some((c) => c.scope.startsWith("claude.git.") && c.status === "fail")).toBe(true);
    expect(d.dropped.some((x) => /^requires what a rule forbids \(claude\.git\.[0-9a-f]{6}\)/.test(x))).toBe(true);
  });

  it("a malformed reply is a dropped recommendation with its reason, never a guess", async () => {
    for (const [text, why] of [
      ["Sure! Here is my recommendation: use pnpm.", /^writer: malformed reply: not JSON/],
      [JSON.stringify({ target: "CLAUDE.md", change: "Do not use npm." }), /^writer: malformed reply: falsifier: /],
      [JSON.stringify({ target: null, change: "Do not use npm.", falsifier: "x" }), /^writer: malformed reply: value: a change needs a target/],
    ] as const) {
      const { report, server: s } = await recommend({ writer: () => text, judge: goodJudge });
      expect(report.survivors).toEqual([]);
      const d = report.dropped[0]!;
      expect(d.dropped).toHaveLength(1);
      expect(d.dropped[0]).toMatch(why);
      expect(d).toMatchObject({ target: null, change: null, checks: [] });
      // nothing was asked of the judge about a reply that could not be read
      expect(s.requests.filter((r) => r.path === "/v1/chat/completions" && !r.body.includes("json_object"))).toEqual([]);
      await s.close();
      server = null;
    }
  });

  it("flags never drop: a model call inside a hook and a placement-rule conflict only mark the survivor", async () => {
    const judge: Script["judge"] = (c) => (c.id === "rules.model_in_hook" || (c.placement && c.id === "rules.requires_forbidden") ? 0.95 : goodJudge(c));
    const { report } = await recommend({ writer: () => JSON.stringify({ target: "a PreToolUse hook", change: "Do not run npm: a PreToolUse hook asks a model whether each command uses npm.", falsifier: "npm keeps appearing" }), judge });
    expect(report.dropped).toEqual([]);
    expect(report.survivors[0]?.flags.sort()).toEqual(["placement: requires what a placement rule forbids", "puts a model call inside a hook"]);
    expect(report.survivors[0]?.checks.filter((c) => c.status === "fail").every((c) => c.role === "flag")).toBe(true);
  });

  it("an unanswered drop check drops (checked or not kept); the writer's budget refusal is a drop too", async () => {
    const lb = await loopback({ writer: () => GOOD_REPLY, judge: goodJudge });
    server = lb.server;
    const { createEngine } = await import("../../runtime/engine/index.js");
    const starved = createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: lb.server.url, model: "fake-judge", mode: "logprobs" }, callers: { "errata-coverage": { requests: 2 } }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const report = await runRulesRecommend({ v4Dir: fx.v4Dir, engine: starved, writer: { lane: lb.writer, offlineWhy: "" }, exchangeFiles: [fx.exchangesFile], upgradesFile: fx.upgradesFile, top: 3, today: "2026-12-01", nowMs: NOW, dryRun: false, file: false, warn: () => undefined });
    expect(report.dropped[0]?.dropped.some((d) => /not answered .*budget of caller errata-coverage exhausted/.test(d))).toBe(true);
  });

  it("--file files a survivor once: a re-run files nothing twice (claim hash), filed.jsonl records it", async () => {
    const first = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge }, { file: true });
    expect(first.report.filing?.filed).toHaveLength(1);
    const up = first.report.filing!.filed[0]!;
    expect(up).toMatchObject({ schema: "rule-upgrade/1", source: "errata", fix: "enforce_rule", bucket: `rule:${fx.ruleId}`, status: "open" });
    expect(up.exchange_ids.length).toBeGreaterThanOrEqual(5);
    expect(up.claim).not.toContain("npm again");
    await server?.close();
    // The open upgrade now carries the rule: no recommendation, and nothing filed again.
    const second = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge }, { file: true });
    expect(second.report.survivors).toEqual([]);
    expect(second.report.skipped).toEqual([{ cluster_id: `rule:${fx.ruleId}`, reason: `open upgrade ${up.id} already carries it` }]);
    // Even when the upgrade is no longer open, the same claim is not filed twice.
    const { appendFileSync } = await import("node:fs");
    appendFileSync(fx.upgradesFile, `${JSON.stringify({ schema: "upgrade-status/1", id: up.id, ts: "2026-12-01T13:00:00Z", status: "applied", applied_at: "2026-12-01T13:00:00Z", skill: null })}\n`);
    await server?.close();
    const third = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge }, { file: true });
    expect(third.report.survivors).toHaveLength(1);
    expect(third.report.filing).toMatchObject({ filed: [], existing: [{ upgrade_id: up.id }] });
    const queue = readFileSync(fx.upgradesFile, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { schema: string });
    expect(queue.filter((l) => l.schema === "rule-upgrade/1")).toHaveLength(1);
    expect(readFilings(fx.v4Dir)).toHaveLength(1);
  });

  it("without --file nothing reaches the queue; a dry run asks no model and writes nothing", async () => {
    const { report } = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge });
    expect(report.filing).toBeNull();
    const { existsSync } = await import("node:fs");
    expect(existsSync(fx.upgradesFile)).toBe(false);
    await server?.close();
    const dry = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge }, { dryRun: true, today: "2026-12-02" });
    expect(dry.report.planned).toEqual([{ cluster_id: `rule:${fx.ruleId}`, fix: "enforce_rule", rank: 1, score: 18 }]);
    expect(dry.server.chatCount()).toBe(0);
    expect(existsSync(join(fx.v4Dir, "recommendations-2026-12-02.jsonl"))).toBe(false);
  });

  it("rules recheck re-runs every current check on a stored list: a survivor the judge now calls done is dropped", async () => {
    const first = await recommend({ writer: () => GOOD_REPLY, judge: goodJudge });
    await server?.close();
    const lb = await loopback({ writer: () => "unused", judge: (c) => (c.id === "rules.already_done" ? 0.9 : goodJudge(c)) });
    server = lb.server;
    const re = await runRulesRecheck({ v4Dir: fx.v4Dir, engine: lb.engine, exchangeFiles: [fx.exchangesFile], upgradesFile: fx.upgradesFile, today: "2026-12-01", nowMs: NOW, dryRun: false, list: first.report.files.survivors, warn: () => undefined });
    expect(re.survivors).toEqual([]);
    expect(re.dropped[0]?.id).toBe(first.report.survivors[0]?.id);
    expect(re.dropped[0]?.dropped[0]).toMatch(/^already done/);
    expect(lb.writerBodies).toEqual([]);
  });

  it("the rules wing's claim hash is the upgrades queue's", () => {
    for (const c of ["rules enforce_rule bucket=rule:claude.tools.4e1a2b", "  Rules   ADD_RULE bucket=gap:x×y "]) expect(ruleClaimHash(c)).toBe(claimHash(c));
  });
});
