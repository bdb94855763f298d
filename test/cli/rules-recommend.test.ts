// errata rules recommend|act|recheck|report and errata weekly's rules stage through the CLI:
// the offline path on the demo data (the synthetic projects and exchanges, the cuts recorded
// with the shipped weights, as scripts/demo.js runs them), the generative lane from the
// engine config on a loopback server, bad input, and the weekly M7b stage.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { repoRoot } from "../rules/helpers.js";
import { GOOD_REPLY, goodJudge, askedCheck, writeFixture } from "../rules/recommend-fixture.js";
import { completion, logprobsCompletion, startFakeOpenAI, type FakeServer } from "../engine/helpers/fake-openai.js";

const NOW = Date.parse("2026-12-01T12:00:00Z");

function cliIn(dir: string, ledger = join(dir, "ledger")) {
  return async (argv: string[]) => {
    const m = memoryIo({ env: { ERRATA_DIR: ledger, HOME: join(dir, "home") }, cwd: dir, now: NOW });
    const code = await run(argv, m.io);
    return { code, out: m.out(), err: m.err() };
  };
}

describe("errata rules recommend offline, on the demo data", () => {
  const t = tempDir();
  const cli = cliIn(t.dir);
  const ex = join(repoRoot, "datasets", "synthetic", "exchanges.jsonl");
  beforeAll(async () => {
    const weights = JSON.parse(readFileSync(join(repoRoot, "datasets", "weights", "embedded.json"), "utf8")) as { questions: Record<string, { cut?: number }> };
    const cuts = Object.fromEntries(Object.entries(weights.questions).filter(([, q]) => typeof q.cut === "number").map(([k, q]) => [k.replace(/@\d+$/, ""), q.cut]));
    writeFileSync(join(t.dir, "cuts.json"), JSON.stringify(cuts));
    const projects = readdirSync(join(repoRoot, "datasets", "synthetic", "projects")).sort();
    for (const argv of [
      ["v4", "detect", "--exchanges", ex, "--cuts", "cuts.json", "--json"],
      ["v4", "diagnose", "--exchanges", ex, "--cuts", "cuts.json", "--json"],
      ["rules", "build", "--no-home", "--no-git", ...projects.flatMap((p) => ["--root", join(repoRoot, "datasets", "synthetic", "projects", p), "--project", `/home/dev/projects/${p}`]), "--json"],
      ["rules", "cover", "--exchanges", ex, "--cuts", "cuts.json", "--json"],
      ["rules", "cluster", "--exchanges", ex, "--cuts", "cuts.json", "--json"],
    ]) {
      const r = await cli(argv);
      if (r.code !== 0) throw new Error(`${argv.join(" ")}: ${r.err}`);
    }
  });
  afterAll(() => t.cleanup());

  it("writes the computed target and falsifier with change: null and says why, plainly", async () => {
    const r = await cli(["rules", "recommend", "--exchanges", ex, "--top", "2", "--days", "7", "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { writer: { lane: string; why: string }; survivors: Array<Record<string, unknown> & { change: null; change_reason: string; target: string; bucket: string; falsifier: { statement: string; window_days: number; baseline: { denominator: number } }; checks: Array<{ status: string }>; synthetic: boolean; exchange_ids: string[] }>; dropped: unknown[] };
    expect(out.writer).toEqual({ lane: "offline", why: "no generative lane: the engine config has no lane named max" });
    expect(out.dropped).toEqual([]);
    expect(out.survivors.length).toBeGreaterThan(0);
    for (const s of out.survivors) {
      expect(s.change).toBeNull();
      expect(s.change_reason).toMatch(/^offline \(no generative lane: .*\): code knows the target and the falsifier but cannot write the change/);
      expect(s.target).toBe(s.bucket.startsWith("rule:") ? s.bucket.slice(5) : s.bucket);
      expect(s.falsifier.window_days).toBe(7);
      expect(s.falsifier.statement).toMatch(new RegExp(`^wrong if the rate of ${s.bucket.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} over the 7 days after it is applied is not shown below`));
      expect(s.falsifier.baseline.denominator).toBeGreaterThan(0);
      expect(s.checks.every((c) => c.status === "skipped")).toBe(true);
      expect(s.synthetic).toBe(true);
      expect(s.exchange_ids.length).toBeGreaterThanOrEqual(5);
    }
    const text = await cli(["rules", "recommend", "--exchanges", ex, "--top", "2", "--days", "7"]);
    expect(text.out).toMatch(/change: none\. offline \(no generative lane/);
    // --file files nothing it could not check, and says so
    const filed = await cli(["rules", "act", "--exchanges", ex, "--file", "--offline", "--json"]);
    const f = JSON.parse(filed.out) as { filing: { filed: unknown[]; refused: Array<{ reason: string }> }; filed: unknown[] };
    expect(f.filing.filed).toEqual([]);
    expect(f.filing.refused[0]?.reason).toMatch(/^no change to file/);
    expect(existsSync(join(t.dir, "ledger", "upgrades.jsonl"))).toBe(false);
    const rep = await cli(["rules", "report", "--exchanges", ex, "--days", "7"]);
    expect(rep.code).toBe(0);
    expect(rep.out).toMatch(/none filed yet/);
  });

  it("--dry-run writes nothing; bad --top is bad input (exit 2)", async () => {
    const before = readdirSync(join(t.dir, "ledger", "v4")).sort();
    const r = await cli(["rules", "recommend", "--exchanges", ex, "--dry-run", "--json"]);
    expect(r.code).toBe(0);
    expect(readdirSync(join(t.dir, "ledger", "v4")).sort()).toEqual(before);
    expect((await cli(["rules", "recommend", "--exchanges", ex, "--top", "0"])).code).toBe(2);
    expect((await cli(["rules", "recheck", "--exchanges", ex, "--list", "nope.jsonl"])).code).toBe(2);
  });
});

describe("errata rules act on the generative lane named by the engine config, then recheck", () => {
  let server: FakeServer;
  const t = tempDir();
  beforeAll(async () => {
    server = await startFakeOpenAI({ chat: (body) => (body?.response_format?.type === "json_object" ? { json: completion(GOOD_REPLY) } : { json: logprobsCompletion(goodJudge(askedCheck(body))) }) });
  });
  afterAll(async () => {
    await server.close();
    t.cleanup();
  });

  it("writes, checks and files once; the report shows the filed cluster", async () => {
    const ledger = join(t.dir, "ledger");
    mkdirSync(ledger, { recursive: true });
    const fx = writeFixture(ledger);
    writeFileSync(join(ledger, "errata-engine.json"), JSON.stringify({ schema: "engine-config/1", lane: "judge", lanes: { judge: { kind: "openai", baseURL: server.url, model: "fake-judge", mode: "logprobs" }, max: { kind: "openai", baseURL: server.url, model: "fake-writer", serviceTier: "flex" } } }));
    const cli = cliIn(t.dir, ledger);
    const r = await cli(["rules", "act", "--file", "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { writer: { model: string; service_tier: string }; survivors: Array<{ id: string }>; filing: { filed: Array<{ id: string }> }; filed: Array<{ upgrade_id: string; bucket: string; falsifier: string; pending_why: string }> };
    expect(out.writer).toMatchObject({ model: "fake-writer", service_tier: "flex" });
    expect(out.filing.filed).toHaveLength(1);
    expect(out.filed).toEqual([expect.objectContaining({ upgrade_id: out.filing.filed[0]!.id, bucket: `rule:${fx.ruleId}`, falsifier: "pending", pending_why: "not applied yet" })]);
    const again = JSON.parse((await cli(["rules", "act", "--file", "--json"])).out) as { filing: { filed: unknown[] }; skipped: Array<{ reason: string }> };
    expect(again.filing.filed).toEqual([]);
    expect(again.skipped[0]?.reason).toMatch(/^open upgrade up-\d{8}-[0-9a-f]{6} already carries it$/);
    const re = await cli(["rules", "recheck", "--list", join(fx.v4Dir, "recommendations-2026-12-01.jsonl"), "--json"]);
    expect(re.code, re.err).toBe(0);
    expect(JSON.parse(re.out).survivors[0]?.id, re.out.slice(0, 2000)).toBe(out.survivors[0]!.id);
  });
});

describe("errata weekly ends with the M7b pass", () => {
  it("--json: a rules stage with the pass's counts and the rules report written; a failure there never changes the exit code", async () => {
    const t = tempDir();
    try {
      const ledger = join(t.dir, "ledger");
      mkdirSync(ledger, { recursive: true });
      const project = join(t.dir, "proj");
      cpSync(join(repoRoot, "datasets", "synthetic", "projects", "invoice-api"), project, { recursive: true });
      writeFileSync(join(ledger, "daily.json"), JSON.stringify({ schema: "daily-config/1", rules: { roots: [{ root: project, project: "/home/dev/projects/invoice-api" }] } }));
      mkdirSync(join(ledger, "v4"), { recursive: true });
      cpSync(join(repoRoot, "datasets", "synthetic", "exchanges.jsonl"), join(ledger, "v4", "exchanges.jsonl"));
      const cli = cliIn(t.dir, ledger);
      expect((await cli(["v4", "detect", "--limit", "40", "--json"])).code).toBe(0);
      const r = await cli(["weekly", "--json"]);
      expect(r.code, r.err).toBe(0);
      const out = JSON.parse(r.out) as { ok: boolean; stages: Array<{ name: string; ok: boolean; counts: Record<string, number>; notes: string[]; wrote: Record<string, string> }> };
      expect(out.stages.map((s) => s.name)).toEqual(["report", "rules"]);
      const rules = out.stages[1]!;
      expect(rules.ok).toBe(true);
      expect(rules.counts["rule_units"]).toBeGreaterThan(0);
      expect(rules.counts).toHaveProperty("failures");
      const runs = readFileSync(join(ledger, ".state", "runs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { loop: string; stage: string });
      expect(runs.map((x) => `${x.loop}/${x.stage}`)).toEqual(["weekly/report", "weekly/rules", "weekly/run"]);
      // A broken engine config (the generative lane is not an OpenAI lane) fails the rules stage only.
      writeFileSync(join(ledger, "errata-engine.json"), JSON.stringify({ lanes: { max: { kind: "embedded" } } }));
      const broken = await cli(["weekly", "--json"]);
      expect(broken.code).toBe(0);
      const b = JSON.parse(broken.out) as { ok: boolean; stages: Array<{ name: string; ok: boolean; error: { code: string } | null }> };
      expect(b.ok).toBe(true);
      expect(b.stages.find((s) => s.name === "rules")).toMatchObject({ ok: false, error: { code: "BAD_CONFIG" } });
    } finally {
      t.cleanup();
    }
  });
});
