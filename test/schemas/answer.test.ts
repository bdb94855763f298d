import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { baseAnswer, scored, unscored } from "../../runtime/engine/base/answers.js";
import { AnswerSchema } from "../../schemas/answer.js";
import { makeExchange, unhappy } from "../engine/helpers/fixtures.js";

const base = baseAnswer({ exchange: makeExchange("a"), question: unhappy }, "openai", "m", "h", "2026-11-30T00:00:00.000Z");

describe("AnswerSchema: a closed union on status", () => {
  it("takes what the writers write", () => {
    expect(AnswerSchema.parse(scored(base, 0.83, "logprobs", "Yes", 12, 0.0001))).toMatchObject({ status: "scored", p_yes: 0.83, reason: null });
    expect(AnswerSchema.parse(unscored(base, "gave up after 3 attempts: HTTP 503"))).toMatchObject({ status: "unscored", p_yes: null, computed_from: null });
  });

  it("refuses the issue's two rows and their kin, saying which field", () => {
    const ok = scored(base, 0.5, "logprobs", "", 0, 0);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ ...ok, p_yes: null }, "p_yes"],
      [{ ...ok, status: "unscored", p_yes: 0.3, reason: null }, "p_yes"],
      [{ ...ok, status: "unscored", p_yes: null, computed_from: null, reason: null }, "reason"],
      [{ ...ok, status: "unscored", p_yes: null, computed_from: null, reason: "" }, "reason"],
      [{ ...ok, reason: "but why" }, "reason"],
      [{ ...ok, computed_from: null }, "computed_from"],
      [{ ...ok, status: "maybe" }, "status"],
    ];
    for (const [row, field] of bad) {
      const r = AnswerSchema.safeParse(row);
      expect(r.success, JSON.stringify(row)).toBe(false);
      expect(r.error?.issues[0]?.path).toEqual([field]);
    }
  });

  it("property: a scored p_yes is accepted exactly when it is a finite number in [0, 1]", () => {
    const ok = scored(base, 0.5, "logprobs", "", 0, 0);
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.constantFrom(0, 1, -0, Number.MIN_VALUE, 1 + Number.EPSILON, NaN, Infinity, -Infinity)), (p) => {
        expect(AnswerSchema.safeParse({ ...ok, p_yes: p }).success).toBe(Number.isFinite(p) && p >= 0 && p <= 1);
      }),
    );
  });

  it("scored() clamps to [0, 1], and a P(yes) that is not a finite number is unscored with that reason", () => {
    expect(scored(base, 1.2, "structured", "", 0, 0).p_yes).toBe(1);
    expect(scored(base, -0.1, "structured", "", 0, 0).p_yes).toBe(0);
    expect(scored(base, NaN, "logprobs", "raw", 5, 0.01)).toMatchObject({ status: "unscored", p_yes: null, reason: "the judge's P(yes) is not a finite number (found NaN)", raw: "raw", latency_ms: 5, cost_usd: 0.01 });
    expect(unscored(base, "").reason).toBe("(the judge gave no reason)");
  });
});
