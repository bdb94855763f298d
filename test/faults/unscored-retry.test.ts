import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { doneAnswers, MAX_UNSCORED_ATTEMPTS } from "../../runtime/jobs/v4/index.js";
import type { Answer } from "../../schemas/answer.js";

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
