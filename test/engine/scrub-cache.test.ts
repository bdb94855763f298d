import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openAnswerCache } from "../../runtime/engine/base/cache.js";
import { judgePrompt } from "../../runtime/engine/base/prompt.js";
import { scrubForJudge } from "../../runtime/engine/base/scrub.js";
import type { Answer, ScoredAnswer } from "../../schemas/answer.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";

let dir: string | null = null;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

const answer = (id: string, status: "scored" | "unscored" = "scored"): Answer => ({
  schema: "answer/1",
  exchange_id: id,
  question_id: "detect.unhappy",
  question_version: 1,
  lane: "openai",
  model: "m",
  prompt_hash: "p",
  ...(status === "scored" ? { status, p_yes: 0.3, computed_from: "logprobs", reason: null } : { status, p_yes: null, computed_from: null, reason: "HTTP 500" }),
  raw: "",
  latency_ms: 1,
  cost_usd: 0,
  ts: "2026-11-30T12:00:00.000Z",
});
const key = (n: number): string => n.toString(16).padStart(32, "0");

describe("scrubForJudge", () => {
  it("replaces home folders, erratum ids, exchange ids, uuids and the session id", () => {
    expect(scrubForJudge("see /home/ana/repo/x.ts in er-20261130-3fa9c1", { home: "/home/ana" })).toBe("see ~/repo/x.ts in <erratum>");
    expect(scrubForJudge("C:\\Users\\Ana\\app and /Users/bob/x and /root/.ssh")).toBe("~\\app and ~/x and ~/.ssh");
    expect(scrubForJudge("/srv/data/home2/ok stays")).toBe("/srv/data/home2/ok stays");
    expect(scrubForJudge("id ex-0123456789abcdef, run 3f2a9c1e-0d4b-4e8f-9a7c-1b2c3d4e5f60")).toBe("id <exchange>, run <id>");
    expect(scrubForJudge("session F1#1 said", { sessionId: "F1#1" })).toBe("session <session> said");
    expect(scrubForJudge("/opt/work/home/ana", { home: "/opt/work" })).toBe("~/home/ana");
  });
  it("is applied to every field of the prompt", () => {
    const ex = makeExchange("s", { session_id: "sess-42", previous_ask: "fix /home/ana/a.ts (sess-42)", reply_end: "edited /home/ana/a.ts", prompt: "still broken in /home/ana/a.ts", tool_calls: [{ name: "Edit", summary: "/home/ana/a.ts" }] });
    const text = judgePrompt(ex, unhappy, "logprobs", { home: "/home/ana" }).messages.map((m) => m.content).join("\n");
    expect(text).not.toContain("/home/ana");
    expect(text).not.toContain("sess-42");
    expect(text).toContain(unhappy.text);
  });
});

describe("answer cache file", () => {
  it("round-trips scored answers, skips unscored ones, and the latest row for a key wins", () => {
    dir = mkdtempSync(join(tmpdir(), "errata-cache-"));
    const path = join(dir, "c.jsonl");
    const c = openAnswerCache(path, { flushEvery: 1 });
    c.put(key(1), answer("ex-1"));
    c.put(key(2), answer("ex-2", "unscored"));
    c.put(key(1), { ...(answer("ex-1") as ScoredAnswer), p_yes: 0.7 });
    const again = openAnswerCache(path);
    expect(again.size).toBe(1);
    expect(again.get(key(1))?.p_yes).toBe(0.7);
    expect(again.get(key(2))).toBeUndefined();
    expect(readFileSync(path, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("tolerates a torn last line and starts the next row on a fresh line", () => {
    dir = mkdtempSync(join(tmpdir(), "errata-cache-"));
    const path = join(dir, "c.jsonl");
    writeFileSync(path, `${JSON.stringify({ schema: "engine-cache/1", key: key(1), answer: answer("ex-1") })}\n`);
    appendFileSync(path, `{"schema":"engine-cache/1","key":"${key(2)}","answer":{"schema":"ans`);
    const c = openAnswerCache(path);
    expect(c.size).toBe(1);
    expect(c.skippedLines).toBe(1);
    c.put(key(3), answer("ex-3"));
    c.flush();
    const again = openAnswerCache(path);
    expect(again.size).toBe(2);
    expect(again.skippedLines).toBe(1);
    expect(again.get(key(3))?.exchange_id).toBe("ex-3");
  });
});
