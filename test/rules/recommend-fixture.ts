// A v4 folder with one covered-rule cluster of six failures (six sessions) and its files, and a
// loopback OpenAI-compatible server whose writer and judge replies are scripted per test.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { recommendCheckQuestions } from "../../questions/index.js";
import { BudgetBook, createEngine, generativeLane, type Engine, type GenerativeLane } from "../../runtime/engine/index.js";
import { OpenAILaneSchema } from "../../runtime/engine/openai/config.js";
import { buildIndex } from "../../runtime/rules/build.js";
import { sourcesFromTexts } from "../../runtime/rules/sources.js";
import { writeRuleIndex, ruleIndexPath } from "../../runtime/rules/store.js";
import type { Exchange } from "../../schemas/exchange.js";
import type { CoverageRecord, RuleIndex } from "../../schemas/rules.js";
import { completion, logprobsCompletion, startFakeOpenAI, type ChatBody, type FakeServer } from "../engine/helpers/fake-openai.js";
import { makeExchange } from "../engine/helpers/fixtures.js";

export const RULES_TEXT = "# Tools\n\n- Use pnpm for every install; never npm.\n- You may add a changelog entry for small fixes.\n\n# Git\n\n- Never push to main.\n";

export function fixtureIndex(): RuleIndex {
  return buildIndex(sourcesFromTexts([{ path: "CLAUDE.md", text: RULES_TEXT }]), null, { today: "2026-11-01", projects: [] }).index;
}

export interface Fixture {
  v4Dir: string;
  exchangesFile: string;
  upgradesFile: string;
  index: RuleIndex;
  exchanges: Exchange[];
  ruleId: string;
}

/** Six npm failures (one per session) covered by the pnpm rule, all judged, dated in the last two weeks. */
export function writeFixture(dir: string): Fixture {
  const v4Dir = join(dir, "v4");
  mkdirSync(v4Dir, { recursive: true });
  const index = fixtureIndex();
  writeRuleIndex(ruleIndexPath(v4Dir), index);
  const rule = index.units.find((u) => u.text.includes("pnpm"));
  if (rule === undefined) throw new Error("fixture: no pnpm rule");
  const failures = Array.from({ length: 6 }, (_, i) =>
    makeExchange(`npm-${i}`, { prompt: `npm again?? we use pnpm (${i})`, reply_end: "Installed it with npm install zod.", tool_calls: [{ name: "Bash", summary: "npm install zod" }], prompt_ts: `2026-11-2${i}T10:00:00Z` }),
  );
  const fine = Array.from({ length: 14 }, (_, i) => makeExchange(`ok-${i}`, { prompt: "thanks, next one", prompt_ts: `2026-11-2${i % 8}T11:00:00Z` }));
  const exchanges = [...failures, ...fine];
  const exchangesFile = join(v4Dir, "exchanges.jsonl");
  writeFileSync(exchangesFile, exchanges.map((e) => `${JSON.stringify(e)}\n`).join(""));
  const judge = { lane: "openai", model: "fake-judge" };
  const coverage: CoverageRecord[] = failures.map((e) => ({
    schema: "rule-coverage/1",
    exchange_id: e.id,
    session_id: e.session_id,
    date: e.prompt_ts?.slice(0, 10) ?? null,
    failure_class: "broke_standing_rule",
    severity: 2,
    component: "npm",
    synthetic: true,
    candidates: [{ rule_id: rule.id, rank: 1, score: 3.2, status: "scored", p_yes: 0.92, reason: null }],
    covering: rule.id,
    fix: "enforce_rule",
    before_rule: false,
    cut: 0.5,
    cut_origin: "test",
    judge,
  }));
  writeFileSync(join(v4Dir, "coverage.jsonl"), coverage.map((r) => `${JSON.stringify(r)}\n`).join(""));
  const answers = exchanges.map((e) => ({
    schema: "answer/1", exchange_id: e.id, question_id: "detect.unhappy", question_version: 1, lane: "openai", model: "fake-judge", prompt_hash: "0".repeat(16),
    status: "scored", p_yes: 0.5, computed_from: "logprobs", raw: "", reason: null, latency_ms: 0, cost_usd: 0, ts: "2026-11-30T00:00:00.000Z",
  }));
  writeFileSync(join(v4Dir, "answers.jsonl"), answers.map((a) => `${JSON.stringify(a)}\n`).join(""));
  const cluster = { id: `rule:${rule.id}`, bucket: `rule:${rule.id}`, kind: "rule", rule_id: rule.id, failure_class: null, component: null, exchange_ids: failures.map((e) => e.id), sessions: 6, mean_severity: 2 };
  writeFileSync(join(v4Dir, "clusters.json"), JSON.stringify({ schema: "rule-clusters/1", judge, cut: 0.5, cut_origin: "test", clusters: [cluster] }));
  return { v4Dir, exchangesFile, upgradesFile: join(dir, "upgrades.jsonl"), index, exchanges, ruleId: rule.id };
}

/** Which check a judge request asks, and over what: read from the question text it carries. */
export function askedCheck(body: ChatBody): { id: string | null; placement: boolean; user: string } {
  const user = String(body?.messages?.at(-1)?.content ?? "");
  const q = recommendCheckQuestions.find((x) => user.includes(x.text));
  return { id: q?.id ?? null, placement: user.includes("A check that runs in the assistant's tool path is deterministic"), user };
}

export type Script = { writer: () => string; judge: (check: { id: string | null; placement: boolean; user: string }) => number };

/** Good answers: not done, not prose, addresses the failure, contradicts nothing, no flag. */
export const goodJudge: Script["judge"] = (c) => (c.id === "rules.addresses_failure" ? 0.9 : 0.1);

export const GOOD_REPLY = JSON.stringify({
  target: "a PreToolUse check on Bash",
  change: "Do not run `npm install` or `npm i`: a PreToolUse check denies them and says to use pnpm.",
  falsifier: "npm installs keep appearing in the tool calls after the check is installed",
});

export async function loopback(script: Script): Promise<{ server: FakeServer; engine: Engine; writer: GenerativeLane; writerBodies: ChatBody[] }> {
  const writerBodies: ChatBody[] = [];
  const server = await startFakeOpenAI({
    chat: (body) => {
      if (body?.response_format?.type === "json_object") {
        writerBodies.push(body);
        return { json: completion(script.writer(), {}, { prompt_tokens: 400, completion_tokens: 80 }) };
      }
      return { json: logprobsCompletion(script.judge(askedCheck(body))) };
    },
  });
  const deps = { sleep: async () => undefined, random: () => 0.5 };
  const engine = createEngine({ lane: "openai", apiKey: "test-key", openai: { baseURL: server.url, model: "fake-judge", mode: "logprobs" }, deps });
  const cfg = OpenAILaneSchema.parse({ baseURL: server.url, model: "fake-writer", serviceTier: "flex" });
  const writer = generativeLane(cfg, "test-key", new BudgetBook({}), { ...deps, now: () => 0 });
  return { server, engine, writer, writerBodies };
}
