// The reviewer lane, configured by the engine config's `reviewer` key: against a local
// OpenAI-compatible server on loopback through the real openai SDK, each drafted proposal gets
// the reviewer's argument (redacted prompt, bounded tokens); a failure or a time-out leaves
// "reviewer failed: <reason>" and the proposal is drafted all the same; offline it is skipped
// and approvals and morning say so; a reviewer naming no lane is a bad config (exit 2).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { BudgetBook, OpenAILaneSchema } from "../../runtime/engine/index.js";
import { openRuleLedger, readProposals, reviewerOf, REVIEW_MAX_TOKENS } from "../../runtime/ladder/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { completion, startFakeOpenAI, type ChatHandler, type FakeServer } from "../engine/helpers/fake-openai.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { pnpm, writeSession } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
let server: FakeServer | null = null;
beforeEach(() => (tmp = tempDir("errata-ladder-review-")));
afterEach(async () => {
  await server?.close();
  server = null;
  tmp.cleanup();
});

const ledgerDir = () => join(tmp.dir, "ledger");
const ladder = () => join(ledgerDir(), "ladder");

async function cli(args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: ledgerDir(), HOME: tmp.dir }, cwd: tmp.dir, now: Date.parse("2026-11-26T03:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

function config(extra: Record<string, unknown>): void {
  mkdirSync(ledgerDir(), { recursive: true });
  writeFileSync(join(ledgerDir(), "errata-engine.json"), JSON.stringify(extra));
}

/** pnpm at rung 2, broken twice in view: the audit drafts one climb. The second correction carries a secret. */
function seed(): string[] {
  mkdirSync(ladder(), { recursive: true });
  writeFileSync(join(tmp.dir, "CLAUDE.md"), "- Use pnpm, never npm.\n");
  openRuleLedger(ladder()).append([{ ...pnpm, location: { kind: "text", file: join(tmp.dir, "CLAUDE.md"), section: null } }]);
  const loads = ["a", "b"].map((s) => JSON.stringify({ v: 1, ts: "t", session_id: s, file_path: join(tmp.dir, "CLAUDE.md"), memory_type: "Project", load_reason: "session_start", globs: null, trigger_file_path: null, parent_file_path: null }));
  writeFileSync(join(ladder(), "instructions-loaded.jsonl"), `${loads.join("\n")}\n`);
  const slip = (said: string) => [
    { prompt: "add lodash", tools: [{ name: "Bash", input: { command: "npm install lodash" } }], reply: "Installed with npm." },
    { prompt: said, reply: "Redone." },
  ];
  return [
    writeSession(tmp.dir, "a", "2026-11-20T10:00:00Z", slip("No, that's wrong. I told you to use pnpm, not npm.")),
    writeSession(tmp.dir, "b", "2026-11-24T10:00:00Z", slip("No, that's wrong. I told you to use pnpm, not npm. DB_PASSWORD=hunter22x")),
  ];
}

async function withServer(chat: ChatHandler, lane: Record<string, unknown> = {}): Promise<FakeServer> {
  server = await startFakeOpenAI({ chat });
  config({ lanes: { rev: { kind: "openai", baseURL: server.url, model: "fake-reviewer", maxRetries: 0, ...lane } }, reviewer: "rev" });
  return server;
}

const pending = () => [...readProposals(ladder()).values()].map((s) => s.proposal);

describe("the reviewer lane", () => {
  it("argues against each drafted proposal; approvals and morning show it; a retried night asks nothing again", async () => {
    const s = await withServer(() => ({ json: completion(JSON.stringify({ against: "Two slips in a week are thin evidence; a deny on every npm call also blocks npx." })) }));
    const [t1, t2] = seed();
    const a = await cli(["rules", "audit", "--transcript", t1!, t2!, "--json"]);
    expect(a.code).toBe(0);
    const [p] = pending();
    expect(p!.review).toBe("reviewer rev (fake-reviewer) argues against: Two slips in a week are thin evidence; a deny on every npm call also blocks npx.");
    expect(s.chatCount()).toBe(1);
    const body = JSON.parse(s.requests.find((r) => r.path === "/v1/chat/completions")!.body) as { max_tokens: number; model: string; messages: Array<{ content: string }> };
    expect(body).toMatchObject({ model: "fake-reviewer", max_tokens: REVIEW_MAX_TOKENS });
    const prompt = body.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain(`Proposal ${p!.id}: climb of rule claude.tools.pnpm01, rung 2 -> 3`);
    expect(prompt).not.toContain("hunter22x");
    expect(prompt).toContain("The change: install check ladder-claude.tools.pnpm01 (shadow) in checks.json");
    expect(prompt).not.toContain(tmp.dir);
    expect((await cli(["rules", "approvals"])).out).toContain("    review: reviewer rev (fake-reviewer) argues against: Two slips");
    const morning = (await cli(["rules", "morning"])).out;
    expect(morning).toContain("    review: reviewer rev (fake-reviewer) argues against: Two slips");
    expect(morning).not.toContain("reviewer lane skipped");
    expect((await cli(["rules", "audit", "--transcript", t1!, t2!])).code).toBe(0);
    expect(s.chatCount()).toBe(1);
  });

  it("a failing server leaves 'reviewer failed' and the proposal is drafted all the same", async () => {
    await withServer(() => ({ status: 400, json: { error: { message: "model not loaded", type: "invalid_request_error" } } }));
    const [t1, t2] = seed();
    expect((await cli(["rules", "audit", "--transcript", t1!, t2!])).code).toBe(0);
    const [p] = pending();
    expect(p!.type).toBe("climb");
    expect(p!.review).toMatch(/^reviewer failed: .*model not loaded/);
    expect((await cli(["rules", "morning", "--dry-run"])).out).toMatch(/ {4}review: reviewer failed: /);
  });

  it("a reviewer that answers too late is cut off by the deadline", async () => {
    await withServer(() => ({ delayMs: 3_000, json: completion(JSON.stringify({ against: "late" })) }), { timeoutMs: 300 });
    const [t1, t2] = seed();
    expect((await cli(["rules", "audit", "--transcript", t1!, t2!])).code).toBe(0);
    expect(pending()[0]!.review).toMatch(/^reviewer failed: .*(timed out|aborted)/i);
  });

  it("past the deadline the lane's retries stop: no request is sent after the review has failed", async () => {
    server = await startFakeOpenAI({ chat: () => ({ status: 503, json: { error: { message: "busy", type: "server_error" } } }) });
    const cfg = OpenAILaneSchema.parse({ baseURL: server.url, model: "m", maxRetries: 4, timeoutMs: 300 });
    // Each back-off sleeps 400 ms, past the 300 ms deadline: without the stop, the lane's loop would
    // wake after the review has failed and ask again (at about 400 and 800 ms).
    const r = reviewerOf("rev", cfg, "not-needed", new BudgetBook({}, {}, {}), { sleep: () => new Promise((done) => setTimeout(done, 400)), random: () => 0.5, now: () => 0 });
    const p = { kind: "proposal", v: 1, id: "pr-0000000001", at: "2026-11-26T03:00:00Z", type: "climb", rule_id: "r", from_rung: 1, to_rung: 2, diagnosis: "climb", why: "w", evidence: [], edit: null, review: "" } satisfies Proposal;
    expect(await r.review(p)).toBe("reviewer failed: request timed out: no complete reply within 300 ms, body included");
    const asked = server.chatCount();
    expect(asked).toBe(1);
    // Settle for longer than two more back-offs would take (2 x 400 ms), then count again.
    await new Promise((done) => setTimeout(done, 1_000));
    expect(server.chatCount()).toBe(asked);
  });

  it("the owner's loosening is reviewed too", async () => {
    await withServer(() => ({ text: JSON.stringify(completion("The rule was broken twice this month; loosening it invites a third slip.")) }));
    seed();
    const r = await cli(["rules", "loosen", pnpm.rule_id, "--why", "npm is fine in docs/"]);
    expect(r.code).toBe(0);
    expect(r.out).toContain("review: reviewer rev (fake-reviewer) argues against: The rule was broken twice this month");
    const prompt = JSON.parse(server!.requests.find((q) => q.path === "/v1/chat/completions")!.body).messages[1].content as string;
    expect(prompt).toContain("Why it is proposed: remove the rule's line from CLAUDE.md;");
    expect(prompt).not.toContain(tmp.dir);
  });

  it("offline (no reviewer key) it is skipped and says so; a reviewer naming no lane exits 2 and writes nothing", async () => {
    const [t1, t2] = seed();
    config({ reviewer: "nope" });
    const bad = await cli(["rules", "audit", "--transcript", t1!, t2!]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/reviewer lane nope is not in the engine config/);
    expect(existsSync(join(ladder(), "proposals.jsonl"))).toBe(false);
    expect(readFileSync(join(ladder(), "rules.jsonl"), "utf8").split("\n").filter(Boolean)).toHaveLength(1);
    config({});
    expect((await cli(["rules", "audit", "--transcript", t1!, t2!])).code).toBe(0);
    expect(pending()[0]!.review).toBe("reviewer lane skipped: offline (no second model family configured)");
    expect((await cli(["rules", "approvals"])).out).toContain("    review: reviewer lane skipped: offline");
    expect((await cli(["rules", "morning", "--dry-run"])).out).toContain("  reviewer lane skipped: offline (no second model family configured)");
  });
});
