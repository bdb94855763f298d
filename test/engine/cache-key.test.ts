import { describe, expect, it } from "vitest";
import { cacheKey, type CacheKeyFields } from "../../runtime/engine/base/cache-key.js";
import { exchangeHash } from "../../runtime/engine/base/hash.js";
import { promptHashFor } from "../../runtime/engine/base/prompt.js";
import type { Question } from "../../schemas/question.js";
import { makeExchange, unhappy } from "./helpers/fixtures.js";

const base: CacheKeyFields = {
  lane: "openai",
  model: "gpt-4o-mini",
  promptHash: "1f0c2b3a4d5e6f70",
  questionId: "detect.unhappy",
  questionVersion: 1,
  exchangeHash: "9a3e000011112222",
  sampling: { temperature: 0, maxTokens: 1, topLogprobs: 20 },
};

describe("cacheKey: each field that can change an answer changes the key", () => {
  const k0 = cacheKey(base);
  it("is 32 hex and stable", () => {
    expect(k0).toMatch(/^[0-9a-f]{32}$/);
    expect(cacheKey({ ...base, sampling: { ...base.sampling } })).toBe(k0);
  });
  it("lane", () => expect(cacheKey({ ...base, lane: "embedded" })).not.toBe(k0));
  it("model", () => expect(cacheKey({ ...base, model: "gpt-4o" })).not.toBe(k0));
  it("prompt hash", () => expect(cacheKey({ ...base, promptHash: "1f0c2b3a4d5e6f71" })).not.toBe(k0));
  it("question id", () => expect(cacheKey({ ...base, questionId: "detect.correction" })).not.toBe(k0));
  it("question version", () => expect(cacheKey({ ...base, questionVersion: 2 })).not.toBe(k0));
  it("exchange hash", () => expect(cacheKey({ ...base, exchangeHash: "9a3e000011112223" })).not.toBe(k0));
  it("sampling: temperature", () => expect(cacheKey({ ...base, sampling: { ...base.sampling, temperature: 0.7 } })).not.toBe(k0));
  it("sampling: max tokens", () => expect(cacheKey({ ...base, sampling: { ...base.sampling, maxTokens: 2 } })).not.toBe(k0));
  it("sampling: top_logprobs", () => expect(cacheKey({ ...base, sampling: { ...base.sampling, topLogprobs: 5 } })).not.toBe(k0));
  it("sampling: top_p", () => expect(cacheKey({ ...base, sampling: { ...base.sampling, topP: 0.9 } })).not.toBe(k0));
  it("sampling: seed", () => expect(cacheKey({ ...base, sampling: { ...base.sampling, seed: 7 } })).not.toBe(k0));
});

describe("what reaches the key from an exchange and a question", () => {
  const ex = makeExchange("k", { prompt: "No, that's wrong.", reply_end: "Here is the file.", previous_ask: "Open the file", tool_calls: [{ name: "Read", summary: "a.ts" }] });
  const h0 = exchangeHash(ex);
  it("the prompt's fields change the exchange hash: prompt, reply end, previous ask, tool calls", () => {
    expect(exchangeHash({ ...ex, prompt: "No, that's right." })).not.toBe(h0);
    expect(exchangeHash({ ...ex, reply_end: "Here is the other file." })).not.toBe(h0);
    expect(exchangeHash({ ...ex, previous_ask: "Open a file" })).not.toBe(h0);
    expect(exchangeHash({ ...ex, tool_calls: [{ name: "Read", summary: "b.ts" }] })).not.toBe(h0);
  });
  it("the question's text changes the prompt hash, and so does the answer mode", () => {
    expect(promptHashFor({ ...unhappy, text: `${unhappy.text} ` }, "logprobs")).not.toBe(promptHashFor(unhappy, "logprobs"));
    expect(promptHashFor(unhappy, "structured")).not.toBe(promptHashFor(unhappy, "logprobs"));
  });
});

describe("fields that must not change the key leave it alone", () => {
  const ex = makeExchange("n");
  const keyOf = (e: typeof ex): string => cacheKey({ ...base, exchangeHash: exchangeHash(e) });
  const k0 = keyOf(ex);
  it("exchange id", () => expect(keyOf({ ...ex, id: "ex-0000000000000000" })).toBe(k0));
  it("session id", () => expect(keyOf({ ...ex, session_id: "another-session" })).toBe(k0));
  it("turn", () => expect(keyOf({ ...ex, turn: 9 })).toBe(k0));
  it("corpus", () => expect(keyOf({ ...ex, corpus: "ab-redial" })).toBe(k0));
  it("timestamps", () => expect(keyOf({ ...ex, prompt_ts: "2026-11-30T12:00:00Z", reply_ts: "2026-11-30T11:59:00Z" })).toBe(k0));
  it("cwd, version and the host's model", () => expect(keyOf({ ...ex, cwd: "/tmp/x", version: "2.0.1", model: "claude" })).toBe(k0));
  it("captured and synthetic flags", () => expect(keyOf({ ...ex, captured: true, synthetic: false })).toBe(k0));
  it("source ref", () => expect(keyOf({ ...ex, source_ref: "a.jsonl:12" })).toBe(k0));
  it("the question's guidance and examples (not in the prompt)", () => {
    const edited: Question = { ...unhappy, guidance: "other guidance", positive: [...unhappy.positive].reverse() };
    expect(promptHashFor(edited, "logprobs")).toBe(promptHashFor(unhappy, "logprobs"));
  });
  it("key order of the sampling object, and absent optional settings", () => {
    expect(cacheKey({ ...base, sampling: { topLogprobs: 20, maxTokens: 1, temperature: 0 } })).toBe(cacheKey(base));
  });
});
