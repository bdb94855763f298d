// Coverage, clusters and the leaderboard on synthetic rule scenarios (synthetic), with the
// offline rules model as the judge; and the decision rules on scripted answers.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { Engine } from "../../runtime/engine/base/types.js";
import { generateRuleScenarios, type ScenarioFailure } from "../../runtime/corpora/synthetic/rules.js";
import { buildIndex } from "../../runtime/rules/build.js";
import { clusterFailures } from "../../runtime/rules/cluster.js";
import { componentOf } from "../../runtime/rules/component.js";
import { coverFailures } from "../../runtime/rules/cover.js";
import type { RulesJudge } from "../../runtime/rules/judge.js";
import { mostBrokenRules } from "../../runtime/rules/leaderboard.js";
import { sourcesFromTexts } from "../../runtime/rules/sources.js";
import { heldOutQuality, trainRuleNouls, type RuleNoulWeights } from "../../runtime/rules/train-nouls.js";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import { repoRoot } from "./helpers.js";

const shipped = JSON.parse(readFileSync(join(repoRoot, "datasets", "weights", "rules-nouls.json"), "utf8")) as RuleNoulWeights;

function exchangeOf(f: ScenarioFailure, i: number): Exchange {
  return {
    schema: "exchange/1",
    id: `ex-${(i + 1).toString(16).padStart(16, "0")}`,
    corpus: "synthetic",
    session_id: f.session_id,
    turn: i,
    prompt: f.prompt,
    prompt_ts: f.date,
    reply_end: f.reply,
    reply_ts: f.date,
    previous_ask: null,
    tool_calls: f.tools,
    cwd: null,
    version: null,
    model: null,
    captured: false,
    synthetic: true,
    source_ref: f.id,
  };
}

function stubEngine(lane: "embedded" | "openai", answer?: (q: string) => number | null): Engine {
  return {
    lane,
    model: lane === "embedded" ? "embedded-test" : "scripted",
    stats: { calls: 0, cacheHits: 0, refused: 0 },
    async ask(pairs, opts) {
      expect(opts.caller).toBe("errata-coverage");
      return pairs.map((p) => {
        const v = answer?.(p.question.text) ?? null;
        const base = { schema: "answer/1", exchange_id: p.exchange.id, question_id: p.question.id, question_version: 1, lane, model: "scripted", prompt_hash: "h", raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-12-01T00:00:00.000Z" };
        return (v === null ? { ...base, status: "unscored", p_yes: null, computed_from: null, reason: "scripted: no answer" } : { ...base, status: "scored", p_yes: v, computed_from: "logprobs", reason: null }) as Answer;
      });
    },
  };
}

const judge = (engine: Engine, weights: RuleNoulWeights | null = shipped): RulesJudge => ({ engine, weights, now: () => "2026-12-01T00:00:00.000Z" });
const CUT = { value: 0.5, origin: "uncalibrated default" };

describe("the shipped rules model", () => {
  it("is what the trainer makes from its recorded seeds (reproducible)", () => {
    const r = shipped.record;
    expect(trainRuleNouls({ seeds: r.seeds, projects: r.projects, failuresPerProject: r.failures_per_project })).toEqual(shipped);
  });

  it("held-out synthetic seed 12: precision, recall and kappa against the plan at the default cut 0.5 (synthetic)", () => {
    const q = heldOutQuality(shipped, { seeds: [12], projects: 24, failuresPerProject: 14 });
    const r3 = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 1000);
    const table = Object.fromEntries(Object.entries(q).map(([k, v]) => [k, { pairs: v.pairs, positives: v.positives, precision: r3(v.precision), recall: r3(v.recall), kappa: r3(v.kappa) }]));
    console.log(`rules nouls, synthetic seed 12 (held out), cut 0.5: ${JSON.stringify(table)}`);
    expect(table).toEqual({
      rule_covers: { pairs: 1204, positives: 224, precision: 0.862, recall: 0.335, kappa: 0.422 },
      same_root_cause: { pairs: 1008, positives: 398, precision: 0.965, recall: 0.975, kappa: 0.95 },
    });
  });
});

describe("coverage", () => {
  const [project] = generateRuleScenarios({ seed: 12, projects: 1, failuresPerProject: 14 });
  if (project === undefined) throw new Error("no project");
  const index = buildIndex(sourcesFromTexts(project.files), null, { today: "2026-12-01", projects: [], lineDates: () => project.files[0]?.lineDates ?? null }).index;
  const failures = project.failures.map((f, i) => ({ exchange: exchangeOf(f, i), failureClass: f.cls, severity: 2 }));

  it("code decides the fix type from the answers: covered -> enforce_rule, all judged and none -> add_rule, a missing answer -> none", async () => {
    const pnpmRule = index.units.find((u) => /pnpm|npm/.test(u.text));
    // Scripted lane: yes (0.9) to the first candidate only when it is asked about the npm rule.
    const engine = stubEngine("openai", (text) => (pnpmRule !== undefined && text.endsWith(`Rule: ${pnpmRule.text}`) ? 0.9 : 0.1));
    const records = await coverFailures(index, failures, judge(engine), { cut: CUT });
    expect(records).toHaveLength(failures.length);
    for (const r of records) {
      expect(r.candidates.length).toBeLessThanOrEqual(4);
      if (r.candidates.some((c) => c.rule_id === pnpmRule?.id)) {
        expect(r).toMatchObject({ covering: pnpmRule?.id, fix: "enforce_rule" });
      } else expect(r).toMatchObject({ covering: null, fix: "add_rule" });
      expect(r.cut_origin).toBe("uncalibrated default");
    }
    const silent = await coverFailures(index, failures.slice(0, 3), judge(stubEngine("openai", () => null)), { cut: CUT });
    for (const r of silent) if (r.candidates.length > 0) expect(r).toMatchObject({ covering: null, fix: null });
  });

  it("a failure dated on or before its covering rule's first-seen date broke no rule (as the plan says)", async () => {
    const records = await coverFailures(index, failures, judge(stubEngine("embedded")), { cut: CUT });
    const byUnit = new Map(index.units.map((u) => [u.id, u]));
    let checked = 0;
    let before = 0;
    records.forEach((r, i) => {
      const plan = project.failures[i];
      const planned = project.rules.find((x) => x.key === plan?.covering);
      const u = r.covering === null ? undefined : byUnit.get(r.covering);
      if (plan === undefined || planned === undefined || u === undefined || !u.text.includes(planned.text)) return;
      checked++;
      if (plan.before_rule) before++;
      expect(r.before_rule, plan.id).toBe(plan.before_rule);
    });
    expect(checked).toBeGreaterThan(0);
    console.log(`before-rule check: ${checked} correctly covered failures, ${before} of them before their rule`);
  });

  it("the offline judge without weights answers unscored, saying why", async () => {
    const [r] = await coverFailures(index, failures.slice(0, 1), judge(stubEngine("embedded"), null), { cut: CUT });
    expect(r?.fix).toBeNull();
    expect(r?.candidates[0]?.reason).toMatch(/no weights for rules.rule_covers/);
  });

  it("clusters: a rule bucket stays whole; the leaderboard counts sessions and what was looked at", async () => {
    const records = await coverFailures(index, failures, judge(stubEngine("embedded")), { cut: CUT });
    const exchanges = new Map(failures.map((f) => [f.exchange.id, f.exchange]));
    const clusters = await clusterFailures(records, exchanges, judge(stubEngine("embedded")), 0.5);
    const covered = records.filter((r) => r.covering !== null && !r.before_rule);
    for (const c of clusters.filter((x) => x.kind === "rule")) {
      expect(c.exchange_ids.sort()).toEqual(covered.filter((r) => `rule:${r.covering}` === c.bucket).map((r) => r.exchange_id).sort());
    }
    const inClusters = clusters.flatMap((c) => c.exchange_ids);
    expect(new Set(inClusters).size).toBe(inClusters.length);
    const board = mostBrokenRules(records, index, failures.map((f) => f.exchange), new Set(failures.map((f) => f.exchange.id)), 10);
    for (let i = 1; i < board.rows.length; i++) {
      const a = board.rows[i - 1];
      const b = board.rows[i];
      expect(a !== undefined && b !== undefined && (a.sessions > b.sessions || (a.sessions === b.sessions && a.count >= b.count))).toBe(true);
    }
    for (const row of board.rows) expect(row.judged_in_view).toBe(failures.length);
    expect(board.rows.reduce((n, r) => n + r.count, 0)).toBe(covered.length);
  });
});

describe("components", () => {
  it("from the tool calls first, then paths and quoted names in the text", () => {
    expect(componentOf({ tools: [{ name: "Edit", summary: "src/routes/invoices.ts" }], prompt: "npm again", reply: null })).toBe("routes/invoices.ts");
    expect(componentOf({ tools: [{ name: "Bash", summary: "git push origin main" }], prompt: "x", reply: null })).toBe("git");
    expect(componentOf({ tools: [], prompt: "the docs/setup.md page is wrong", reply: null })).toBe("docs/setup.md");
    expect(componentOf({ tools: [], prompt: "no", reply: "Use `Decimal.roundSafe()` here" })).toBe("decimal.roundsafe()");
    expect(componentOf({ tools: [], prompt: "no", reply: null })).toBe("unknown");
  });
});

describe("the rules model file", () => {
  it("the shipped file fits its schema; a damaged one is refused with what was expected", async () => {
    const { loadRuleNoulWeights } = await import("../../runtime/jobs/rules/index.js");
    const { RuleNoulWeightsSchema } = await import("../../schemas/rules.js");
    expect(RuleNoulWeightsSchema.safeParse(shipped).success).toBe(true);
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { tempDir } = await import("../helpers/io.js");
    const t = tempDir();
    try {
      mkdirSync(join(t.dir, "weights"));
      writeFileSync(join(t.dir, "weights", "rules-nouls.json"), JSON.stringify({ ...shipped, rule_covers: { ...shipped.rule_covers, coef: [1] } }));
      expect(() => loadRuleNoulWeights(t.dir)).toThrow(/is not a rules model \(expected an errata-rule-nouls\/1 file; found rule_covers: one coefficient per feature\)/);
      expect(loadRuleNoulWeights(join(t.dir, "none"))).toBeNull();
    } finally {
      t.cleanup();
    }
  });
});
