import { writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { createEngine } from "../../runtime/engine/index.js";
import { doneAnswers, MAX_UNSCORED_ATTEMPTS, runV4Stage } from "../../runtime/jobs/v4/index.js";
import type { Answer } from "../../schemas/answer.js";
import { defaultChat, startFakeOpenAI, type FakeServer } from "../engine/helpers/fake-openai.js";
import { makeExchange } from "../engine/helpers/fixtures.js";
import { tempDir } from "../helpers/io.js";

/** One answer row of the fake judge: scored or not, for exchange e and question q. */
function row(e: string, q: string, scored: boolean, model = "m"): Answer {
  const common = { schema: "answer/1" as const, exchange_id: e, question_id: q, question_version: 1, lane: "openai" as const, model, prompt_hash: "h", raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-11-30T12:00:00.000Z" };
  return scored ? { ...common, status: "scored", p_yes: 0.5, computed_from: "logprobs", reason: null } : { ...common, status: "unscored", p_yes: null, computed_from: null, reason: "timeout: gave up after 5 attempts" };
}
const judge = { lane: "openai", model: "m" };

describe("unscored answers are asked again on later runs, a bounded number of times", () => {
  it("a pair with fewer than 3 unscored answers is asked again; with 3 it is left; a scored answer ends it; another judge's rows do not count", () => {
    const rows = [row("e1", "q", false), row("e2", "q", false), row("e2", "q", false), row("e3", "q", false), row("e3", "q", false), row("e3", "q", false), row("e4", "q", false), row("e4", "q", true), row("e5", "q", false, "other")];
    const r = doneAnswers(rows, judge);
    expect(MAX_UNSCORED_ATTEMPTS).toBe(3);
    expect([...r.retried].map((k) => k.split("\t")[0]).sort()).toEqual(["e1", "e2"]);
    expect([...r.exhausted].map((k) => k.split("\t")[0])).toEqual(["e3"]);
    // Done: every scored row, and the unscored rows of a pair not asked again.
    expect(r.done.map((a) => `${a.exchange_id}:${a.status}`).sort()).toEqual(["e3:unscored", "e3:unscored", "e3:unscored", "e4:scored", "e4:unscored", "e5:unscored"]);
    const all = doneAnswers(rows, judge, { retryAll: true });
    expect([...all.retried].map((k) => k.split("\t")[0]).sort()).toEqual(["e1", "e2", "e3"]);
  });

  it("a deterministic lane's unscored answers (embedded, replay) are not asked again: the same question gets the same answer", () => {
    const rows = [{ ...row("e1", "q", false), lane: "embedded" as const }];
    const r = doneAnswers(rows, { lane: "embedded", model: "m" });
    expect([...r.retried]).toEqual([]);
    expect(r.exhausted.size).toBe(1);
    expect(doneAnswers(rows, { lane: "embedded", model: "m" }, { retryAll: true }).retried.size).toBe(1);
  });

  it("property: a pair is asked again iff it has no scored answer and fewer than the bound of unscored ones", () => {
    fc.assert(
      fc.property(fc.array(fc.record({ e: fc.constantFrom("a", "b", "c"), scored: fc.boolean() }), { maxLength: 30 }), fc.integer({ min: 1, max: 5 }), (spec, max) => {
        const rows = spec.map((s) => row(s.e, "q", s.scored));
        const r = doneAnswers(rows, judge, { max });
        for (const e of ["a", "b", "c"]) {
          const mine = spec.filter((s) => s.e === e);
          const unscored = mine.filter((s) => !s.scored).length;
          const expectRetry = mine.length > 0 && !mine.some((s) => s.scored) && unscored < max;
          expect([...r.retried].some((k) => k.startsWith(`${e}\t`))).toBe(expectRetry);
        }
      }),
    );
  });
});

let server: FakeServer | null = null;
let t = tempDir("errata-retry-");
afterEach(async () => {
  await server?.close();
  server = null;
  t.cleanup();
  t = tempDir("errata-retry-");
});

describe("a lane outage does not leave answers unscored for good", () => {
  it("a run during an outage (HTTP 503) stores unscored answers; the next run, the server back, asks them again and scores them", async () => {
    server = await startFakeOpenAI();
    let down = true;
    server.setChat((body) => (down && body.messages[1] ? { status: 503, json: { error: { message: "down", type: "server_error" } } } : defaultChat(body, 0)));
    const v4Dir = join(t.dir, "v4");
    const exchanges = join(t.dir, "exchanges.jsonl");
    writeFileSync(exchanges, [makeExchange("a", { prompt: "No, that's wrong." }), makeExchange("b", { prompt: "Thanks." })].map((e) => JSON.stringify(e)).join("\n") + "\n");
    const engine = () => createEngine({ lane: "openai", apiKey: "k", openai: { baseURL: server!.url, model: "m", maxRetries: 1 }, deps: { sleep: async () => undefined, random: () => 0.5 } });
    const first = await runV4Stage("detect", { engine: engine(), v4Dir, exchangeFiles: [exchanges], warn: () => undefined });
    expect(first).toMatchObject({ asked: 16, scored: 0, unscored: 16, retriedUnscored: 0 });
    down = false;
    const second = await runV4Stage("detect", { engine: engine(), v4Dir, exchangeFiles: [exchanges], warn: () => undefined });
    expect(second).toMatchObject({ asked: 16, scored: 16, unscored: 0, retriedUnscored: 16, exhaustedUnscored: 0 });
    const third = await runV4Stage("detect", { engine: engine(), v4Dir, exchangeFiles: [exchanges], warn: () => undefined });
    expect(third).toMatchObject({ asked: 0, alreadyAnswered: 16 });
  });
});
