// errata rules: build (every flag), show, search, cover (--all), bad input, nothing written on
// a dry run or an unchanged index.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { setV4EngineFactory } from "../../cli/shared/v4-pass.js";
import type { Engine } from "../../runtime/engine/base/types.js";
import type { Answer } from "../../schemas/answer.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { claudeMdDir, repoRoot } from "../rules/helpers.js";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => {
  setV4EngineFactory(null);
  t.cleanup();
});

async function cli(argv: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(t.dir, "ledger"), HOME: join(t.dir, "home") }, cwd: t.dir });
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}
const index = () => JSON.parse(readFileSync(join(t.dir, "ledger", "v4", "rules.json"), "utf8")) as { units: Array<{ id: string; source: string; dates_from: string }>; sources: Array<{ source: string; project: string | null; path: string }> };

describe("errata rules build", () => {
  it("--home brings the user's files, --no-home leaves them out; --managed adds a policy file; --project names the working folder", async () => {
    mkdirSync(join(t.dir, "me", ".claude"), { recursive: true });
    writeFileSync(join(t.dir, "me", ".claude", "CLAUDE.md"), "- Answer tersely.\n");
    writeFileSync(join(t.dir, "policy.md"), "- Never upload customer data to a third party.\n");
    const uv = join(claudeMdDir, "astral-sh__uv");
    let r = await cli(["rules", "build", "--root", uv, "--project", "/projects/uv", "--home", join(t.dir, "me"), "--managed", join(t.dir, "policy.md"), "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(index().sources.map((s) => [s.source.startsWith("managed-") ? "managed" : s.source, s.project])).toEqual([
      ["managed", null],
      ["user-claude", null],
      ["claude", "/projects/uv"],
      ["agents", "/projects/uv"],
    ]);
    expect(index().sources[0]?.path.endsWith("policy.md")).toBe(true);
    const units1 = index().units;
    r = await cli(["rules", "build", "--root", uv, "--no-home", "--json"]);
    expect(r.code, r.err).toBe(0);
    // A build adds and never replaces (issue 32): the user's and the policy's files stay indexed,
    // and the same files under another project (none named: the root's own) are a second project
    // whose slugs do not rename the first's.
    const firstIds = units1.map((u) => u.id);
    const named = (): Array<[string, string | null]> => index().sources.map((s) => [s.source.startsWith("managed-") ? "managed" : s.source, s.project === null || s.project === "/projects/uv" ? s.project : "root"]);
    expect(named()).toEqual([
      ["managed", null],
      ["user-claude", null],
      ["claude", "/projects/uv"],
      ["agents", "/projects/uv"],
      ["astral-sh-uv-claude", "root"],
      ["astral-sh-uv-agents", "root"],
    ]);
    expect((JSON.parse(r.out) as { vanished: number }).vanished).toBe(0);
    // Every id the first build gave is still there, on the same text.
    const byId = new Map(index().units.map((u) => [u.id, u]));
    for (const u of units1) expect(byId.get(u.id)?.source, u.id).toBe(u.source);
    expect(firstIds.length).toBeGreaterThan(20);
    // Building the first project again renames nothing, adds nothing and writes nothing.
    r = await cli(["rules", "build", "--root", uv, "--project", "/projects/uv", "--no-home", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out) as { changed: boolean; added: number; vanished: number }).toMatchObject({ changed: false, added: 0, vanished: 0 });
    expect(named().map((x) => x[0])).toEqual(["managed", "user-claude", "claude", "agents", "astral-sh-uv-claude", "astral-sh-uv-agents"]);
  });

  it("dates from git blame by default; --no-git dates by the index's history", async () => {
    if (spawnSync("git", ["--version"]).status !== 0) {
      console.log("skipped: git is not installed");
      return;
    }
    const repo = join(t.dir, "repo");
    mkdirSync(repo);
    writeFileSync(join(repo, "CLAUDE.md"), "- Use pnpm.\n");
    const env = { ...process.env, GIT_AUTHOR_DATE: "2026-02-03T10:00:00Z", GIT_COMMITTER_DATE: "2026-02-03T10:00:00Z", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.invalid", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.invalid" };
    for (const args of [["init", "-q"], ["add", "."], ["commit", "-qm", "x"]]) spawnSync("git", args, { cwd: repo, env });
    expect((await cli(["rules", "build", "--root", repo, "--no-home"])).code).toBe(0);
    expect(index().units[0]?.dates_from).toBe("git");
    const ledger2 = join(t.dir, "ledger");
    spawnSync("rm", ["-rf", join(ledger2, "v4")]);
    expect((await cli(["rules", "build", "--root", repo, "--no-home", "--no-git"])).code).toBe(0);
    expect(index().units[0]?.dates_from).toBe("index");
  });

  it("a second build with no change writes nothing and says so; --dry-run writes nothing", async () => {
    const root = join(claudeMdDir, "2anki__server");
    let r = await cli(["rules", "build", "--root", root, "--no-home", "--dry-run"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/dry run: would write/);
    expect(existsSync(join(t.dir, "ledger", "v4", "rules.json"))).toBe(false);
    expect((await cli(["rules", "build", "--root", root, "--no-home"])).code).toBe(0);
    const file = join(t.dir, "ledger", "v4", "rules.json");
    const before = statSync(file).mtimeMs;
    r = await cli(["rules", "build", "--root", root, "--no-home"]);
    expect(r.out).toMatch(/unchanged: nothing written/);
    expect(statSync(file).mtimeMs).toBe(before);
    expect(r.out).toMatch(/@src\/lib\/parser\/FEATURE.md: not found/);
  });

  it("without --root, the roots and sources named in the ledger's daily.json are indexed", async () => {
    mkdirSync(join(t.dir, "ledger"), { recursive: true });
    writeFileSync(join(t.dir, "extra.md"), "- Never touch the billing tables.\n");
    writeFileSync(join(t.dir, "ledger", "daily.json"), JSON.stringify({ rules: { roots: [{ root: join(claudeMdDir, "astral-sh__uv"), project: "/projects/uv" }], sources: [join(t.dir, "extra.md")] } }));
    const r = await cli(["rules", "build", "--no-home", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(index().sources.map((s) => [s.path.replace(/^.*\//, ""), s.project])).toEqual([
      ["CLAUDE.md", "/projects/uv"],
      ["AGENTS.md", "/projects/uv"],
      ["extra.md", "/projects/uv"],
    ]);
    writeFileSync(join(t.dir, "ledger", "daily.json"), JSON.stringify({ rules: { roots: [{ path: "x" }] } }));
    const bad = await cli(["rules", "build", "--no-home"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/invalid .*daily.json/);
  });

  it("bad input: more --project than --root; show and search before any build name the command that builds", async () => {
    expect((await cli(["rules", "build", "--project", "/a", "--project", "/b"])).code).toBe(2);
    const s = await cli(["rules", "search", "npm"]);
    expect(s.code).toBe(2);
    expect(s.err).toMatch(/no rule index .*errata rules build/);
    expect((await cli(["rules", "search", "npm", "--limit", "0"])).code).toBe(2);
  });
});

describe("errata rules cover", () => {
  function scripted(): Engine {
    return {
      lane: "openai",
      model: "scripted",
      stats: { calls: 0, cacheHits: 0, refused: 0 },
      async ask(pairs, opts) {
        return pairs.map((p) => {
          const yes = opts.caller === "errata-coverage" ? (/Rule: .*\b(never|Never)\b/.test(p.question.text) ? 0.9 : 0.1) : 0.95;
          return { schema: "answer/1", exchange_id: p.exchange.id, question_id: p.question.id, question_version: p.question.version, lane: "openai", model: "scripted", prompt_hash: "h", status: "scored", p_yes: yes, computed_from: "logprobs", reason: null, raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-12-01T00:00:00.000Z" } as Answer;
        });
      },
    };
  }

  it("covers each diagnosed failure once; --all covers them again", async () => {
    setV4EngineFactory(async () => scripted());
    const ex = join(repoRoot, "datasets", "synthetic", "exchanges.jsonl");
    for (const argv of [["v4", "detect", "--exchanges", ex, "--limit", "12"], ["v4", "diagnose", "--exchanges", ex]]) expect((await cli(argv)).code).toBe(0);
    const projects = join(repoRoot, "datasets", "synthetic", "projects");
    const roots = ["invoice-api", "weather-cli", "shop-frontend", "log-pipeline", "blog-engine", "sales-report"].flatMap((p) => ["--root", join(projects, p), "--project", `/home/dev/projects/${p}`]);
    expect((await cli(["rules", "build", "--no-home", ...roots])).code).toBe(0);
    let r = await cli(["rules", "cover", "--exchanges", ex, "--json"]);
    expect(r.code, r.err).toBe(0);
    const first = JSON.parse(r.out) as { failures: number; covered: number; enforce_rule: number; add_rule: number; cut_origin: string };
    expect(first.failures).toBeGreaterThan(0);
    expect(first.covered).toBe(first.failures);
    expect(first.enforce_rule).toBeGreaterThan(0);
    expect(first.enforce_rule + first.add_rule).toBe(first.covered);
    expect(first.cut_origin).toBe("uncalibrated default 0.5");
    r = await cli(["rules", "cover", "--exchanges", ex, "--json"]);
    expect((JSON.parse(r.out) as { covered: number; already_covered: number }).covered).toBe(0);
    r = await cli(["rules", "cover", "--exchanges", ex, "--all", "--json"]);
    expect((JSON.parse(r.out) as { covered: number }).covered).toBe(first.failures);
    const lines = readFileSync(join(t.dir, "ledger", "v4", "coverage.jsonl"), "utf8").trim().split("\n");
    expect(lines).toHaveLength(2 * first.failures);
    r = await cli(["rules", "cluster", "--exchanges", ex, "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(join(t.dir, "ledger", "v4", "clusters.json"))).toBe(true);
    // The pairs go to the generic calibration loop.
    r = await cli(["rules", "pairs", "--exchanges", ex, "--out", "pairs.jsonl", "--json"]);
    expect(r.code, r.err).toBe(0);
    const pairs = readFileSync(join(t.dir, "pairs.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { question: string; shown: Record<string, string>; p_yes: number | null });
    expect(pairs.length).toBe((JSON.parse(r.out) as { pairs: number }).pairs);
    expect(pairs.every((p) => p.question === "rules.rule_covers" && typeof p.shown["rule"] === "string" && !("p_yes" in p.shown))).toBe(true);
    r = await cli(["calibrate", "draw", "--items", "pairs.jsonl", "--question", "rules.rule_covers", "--n", "10", "--per-session", "3", "--json"]);
    expect(r.code, r.err).toBe(0);
  });
});
