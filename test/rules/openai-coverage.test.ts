// Coverage through the OpenAI-compatible lane: the real SDK against a local server on
// loopback; the rule is in the question the judge reads, the caller is errata-coverage with its
// own budget (a spent coverage budget leaves detection's untouched).
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { buildIndex } from "../../runtime/rules/build.js";
import { coverFailures } from "../../runtime/rules/cover.js";
import { sourcesFromTexts } from "../../runtime/rules/sources.js";
import { logprobsCompletion, startFakeOpenAI, type ChatBody, type FakeServer } from "../engine/helpers/fake-openai.js";
import { makeExchange } from "../engine/helpers/fixtures.js";
import { detectQuestions } from "../../questions/index.js";

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const index = buildIndex(
  sourcesFromTexts([{ path: "CLAUDE.md", text: "# Tools\n\n- Use pnpm for every install; never npm.\n- Run the tests before you say done.\n\n# Git\n\n- Never push to main.\n" }]),
  null,
  { today: "2026-12-01", projects: [] },
).index;

/** The judge says yes only to the pnpm rule about the npm complaint. */
function judge(body: ChatBody) {
  const text = JSON.stringify(body?.messages ?? []);
  return { json: logprobsCompletion(/Rule: - Use pnpm/.test(text) && /npm again/.test(text) ? 0.92 : 0.08) };
}

describe("coverage on the OpenAI-compatible lane (loopback server, real SDK)", () => {
  it("asks rules.rule_covers with the rule in the question; code decides the fix type", async () => {
    server = await startFakeOpenAI({ chat: judge });
    const engine = createEngine({ lane: "openai", apiKey: "test-key", openai: { baseURL: server.url, model: "fake-judge" }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const failures = [
      { exchange: makeExchange("npm", { prompt: "npm again? we use pnpm", reply_end: "Installed it with npm install zod.", tool_calls: [{ name: "Bash", summary: "npm install zod" }] }), failureClass: "broke_standing_rule" as const, severity: 2 },
      { exchange: makeExchange("api", { prompt: "that function does not exist", reply_end: "Call Decimal.roundSafe() for it.", tool_calls: [] }), failureClass: "fabrication" as const, severity: 1 },
    ];
    const records = await coverFailures(index, failures, { engine, weights: null, now: () => "2026-12-01T00:00:00.000Z" }, { cut: { value: 0.5, origin: "test" } });
    expect(records[0]).toMatchObject({ fix: "enforce_rule", judge: { lane: "openai", model: "fake-judge" } });
    expect(index.units.find((u) => u.id === records[0]?.covering)?.text).toMatch(/pnpm/);
    expect(records[1]?.covering).toBeNull();
    expect(records[1]?.candidates.length).toBeGreaterThan(0);
    expect(records[1]?.fix).toBe("add_rule");
    const asked = server.requests.filter((r) => r.path === "/v1/chat/completions").map((r) => JSON.stringify(r.body));
    expect(asked.some((b) => b.includes("Does the rule below already say"))).toBe(true);
  });

  it("a spent errata-coverage budget leaves coverage unscored and detection still asks", async () => {
    server = await startFakeOpenAI({ chat: judge });
    const engine = createEngine({ lane: "openai", apiKey: "test-key", openai: { baseURL: server.url, model: "fake-judge" }, callers: { "errata-coverage": { requests: 0 } }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const ex = makeExchange("npm2", { prompt: "npm again? we use pnpm", reply_end: "Installed it with npm install zod.", tool_calls: [] });
    const [r] = await coverFailures(index, [{ exchange: ex, failureClass: "broke_standing_rule", severity: 2 }], { engine, weights: null, now: () => "2026-12-01T00:00:00.000Z" }, { cut: { value: 0.5, origin: "test" } });
    expect(r?.fix).toBeNull();
    expect(r?.candidates.every((c) => c.status === "unscored" && /budget/.test(c.reason ?? ""))).toBe(true);
    const [a] = await engine.ask([{ exchange: ex, question: detectQuestions[0]! }], { caller: "errata-triage" });
    expect(a?.status).toBe("scored");
  });
});
