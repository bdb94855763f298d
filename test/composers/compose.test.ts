import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  answerTable,
  compose,
  composeClasses,
  composeSeverity,
  MODE_NEEDS,
  parseCuts,
  v3Choice,
} from "../../composers/index.js";
import { bank, CLASS_IDS, COST_IDS } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";

const allIds = bank.map((q) => q.id);
const prob = fc.double({ min: 0, max: 1, noNaN: true });
/** A full answer table: every bank question scored. */
const fullTable = fc.tuple(...allIds.map(() => prob)).map((ps) => new Map(allIds.map((id, i) => [id, ps[i] as number])));
const cutsArb = fc.dictionary(fc.constantFrom(...allIds), prob, { maxKeys: 8 });

function table(entries: Record<string, number>): Map<string, number> {
  const t = new Map<string, number>(allIds.map((id) => [id, 0.1]));
  for (const [k, v] of Object.entries(entries)) t.set(k, v);
  return t;
}

describe("composers: worked examples", () => {
  it("a defect that stopped short and cost time", () => {
    const t = table({ "detect.unhappy": 0.9, "blame.assistant": 0.8, "mode.stopped_short": 0.9, "mode.claimed_false_success": 0.6, "cost.lost_time": 0.7 });
    expect(compose(t, {})).toEqual({
      is_failure: true,
      defect: true,
      reaction: [],
      blame: ["assistant"],
      primary_class: "incomplete_work",
      secondary_classes: ["false_success"],
      modes: ["stopped_short", "claimed_false_success"],
      class_basis: "cut",
      severity: 2,
    });
  });

  it("is_failure is detect.unhappy; the other detect answers describe the reaction; the world's fault is not a defect", () => {
    const changed = compose(table({ "detect.correction": 0.9, "blame.change_of_mind": 0.9 }), {});
    expect(changed).toMatchObject({ is_failure: false, defect: false, reaction: ["correction"], blame: ["change_of_mind"] });
    const world = compose(table({ "detect.unhappy": 0.9, "blame.world": 0.9 }), {});
    expect(world?.is_failure).toBe(true);
    expect(world?.defect).toBe(false);
  });

  it("a non-failure needs no other answer and has severity 0", () => {
    expect(compose(new Map([["detect.unhappy", 0.05]]), {})).toMatchObject({ is_failure: false, defect: false, severity: 0, primary_class: null, modes: [] });
  });

  it("a failure with only detect.unhappy answered: defect, class and severity unknown, never guessed", () => {
    expect(compose(new Map([["detect.unhappy", 0.8]]), {})).toMatchObject({
      is_failure: true, defect: null, primary_class: null, secondary_classes: null, modes: null, class_basis: null, severity: null,
    });
  });

  it("cuts move the verdict: the same answers under a lower cut become a failure", () => {
    const t = table({ "detect.unhappy": 0.3, "blame.assistant": 0.6 });
    expect(compose(t, {})?.is_failure).toBe(false);
    expect(compose(t, { "detect.unhappy": 0.25 })?.is_failure).toBe(true);
  });

  it("with no mode above its cut the primary class is the leading mode's, marked argmax", () => {
    const c = composeClasses(table({ "mode.wrong_language": 0.4 }), {});
    expect(c).toEqual({ primary_class: "wrong_language", secondary_classes: [], modes: [], basis: "argmax" });
  });
});

describe("composers: properties", () => {
  it("a missing or unscored answer gives null wherever it is needed, never a guess", () => {
    // Field by field: a field known with answers missing equals that field under every completion of them.
    const fields = (c: ReturnType<typeof compose>) =>
      c === null
        ? null
        : { f: c.is_failure, d: c.defect, p: c.primary_class, s: c.secondary_classes, m: c.modes, b: c.class_basis, v: c.severity };
    fc.assert(
      fc.property(fullTable, cutsArb, fc.subarray(allIds, { minLength: 1 }), fc.boolean(), (t, cuts, drop, unscored) => {
        const partial = new Map<string, number | null>(t);
        for (const id of drop) {
          if (unscored) partial.set(id, null);
          else partial.delete(id);
        }
        const result = fields(compose(partial, cuts));
        const completions = [0, 1].map((p) => fields(compose(new Map([...partial, ...drop.map((id) => [id, p] as const)]), cuts)));
        completions.push(fields(compose(t, cuts)));
        if (drop.includes("detect.unhappy")) expect(result).toBeNull();
        if (result === null) return;
        for (const c of completions) {
          expect(c).not.toBeNull();
          for (const [k, v] of Object.entries(result)) if (v !== null) expect((c as Record<string, unknown>)[k], k).toEqual(v);
        }
        // A field whose completions differ must be unknown.
        for (const k of Object.keys(result)) {
          const vals = new Set(completions.map((c) => JSON.stringify((c as Record<string, unknown>)[k])));
          if (vals.size > 1) expect((result as Record<string, unknown>)[k], k).toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });

  it("a missing detect.unhappy nulls the composition; a missing mode answer nulls a failure's class only", () => {
    const t0 = table({});
    t0.delete("detect.unhappy");
    expect(compose(t0, {})).toBeNull();
    for (const id of MODE_NEEDS) {
      const t = table({ "detect.unhappy": 0.9, "blame.assistant": 0.9, "cost.blocked": 0.9 });
      t.delete(id);
      expect(compose(t, {}), id).toMatchObject({ is_failure: true, defect: true, primary_class: null, modes: null, severity: 2 });
    }
  });

  it("severity is monotone in every cost answer", () => {
    fc.assert(
      fc.property(fullTable, cutsArb, fc.constantFrom(...COST_IDS), prob, (t, cuts, id, bump) => {
        const before = composeSeverity(t, cuts);
        const raised = new Map(t);
        raised.set(id, Math.max(t.get(id) as number, bump));
        const after = composeSeverity(raised, cuts);
        expect(before).not.toBeNull();
        expect(after as number).toBeGreaterThanOrEqual(before as number);
        const full = compose(raised, cuts);
        if (full?.is_failure) expect(full.severity as number).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 400 },
    );
  });

  it("is deterministic and independent of the order answers arrive in", () => {
    fc.assert(
      fc.property(fullTable, cutsArb, (t, cuts) => {
        const reversed = new Map([...t.entries()].reverse());
        expect(compose(reversed, cuts)).toEqual(compose(t, cuts));
        expect(compose(t, cuts)).toEqual(compose(t, cuts));
      }),
      { numRuns: 200 },
    );
  });

  it("verdicts are well formed: class among the 14, secondaries exclude it, severity 0 iff not a failure", () => {
    fc.assert(
      fc.property(fullTable, cutsArb, (t, cuts) => {
        const c = compose(t, cuts);
        expect(c).not.toBeNull();
        if (c === null) return;
        expect(c.severity === 0).toBe(!c.is_failure);
        if (c.defect) expect(c.is_failure).toBe(true);
        if (c.is_failure) {
          expect(CLASS_IDS).toContain(c.primary_class);
          expect(c.secondary_classes).not.toContain(c.primary_class);
          expect(new Set(c.secondary_classes).size).toBe(c.secondary_classes?.length);
        } else expect(c.primary_class).toBeNull();
      }),
      { numRuns: 200 },
    );
  });
});

describe("answer table and cuts", () => {
  const base: Omit<Answer, "question_id" | "question_version" | "status" | "p_yes" | "computed_from" | "reason"> = {
    schema: "answer/1", exchange_id: "ex-0000000000000000", lane: "embedded", model: "m", prompt_hash: "h",
    raw: "", latency_ms: 0, cost_usd: 0, ts: "2026-01-01T00:00:00Z",
  };
  const yes = { computed_from: "model", reason: null } as const;
  const no = { computed_from: null, reason: "timed out" } as const;
  it("ignores stale question versions and lets a scored answer win over an unscored one", () => {
    const t = answerTable(
      [
        { ...base, question_id: "detect.unhappy", question_version: 99, status: "scored", p_yes: 0.9, ...yes },
        { ...base, question_id: "detect.repeat", question_version: 1, status: "unscored", p_yes: null, ...no },
        { ...base, question_id: "detect.confused", question_version: 1, status: "scored", p_yes: 0.2, ...yes },
        { ...base, question_id: "detect.confused", question_version: 1, status: "unscored", p_yes: null, ...no },
      ],
      bank,
    );
    expect(t.has("detect.unhappy")).toBe(false);
    expect(t.get("detect.repeat")).toBeNull();
    expect(t.get("detect.confused")).toBe(0.2);
  });
  it("parses both cuts shapes and rejects unknown ids and out-of-range values", () => {
    expect(parseCuts({ "detect.unhappy": 0.4 }, allIds)).toEqual({ ok: true, cuts: { "detect.unhappy": 0.4 } });
    expect(parseCuts({ schema: "cuts/1", cuts: { "cost.risky": 0.7 } }, allIds)).toEqual({ ok: true, cuts: { "cost.risky": 0.7 } });
    expect(parseCuts({ "detect.nope": 0.4 }, allIds).ok).toBe(false);
    expect(parseCuts({ "detect.unhappy": 1.5 }, allIds).ok).toBe(false);
    expect(parseCuts([], allIds).ok).toBe(false);
  });
});

describe("v3 single choice", () => {
  const t = (over: Record<string, number>) => new Map(CLASS_IDS.map((c) => [`class.${c}`, over[c] ?? 0.1]));
  it("takes the argmax over the 14 class questions, ties to the earlier class", () => {
    expect(v3Choice(t({ fabrication: 0.7, off_topic: 0.4 }))).toEqual({ class_id: "fabrication", p_yes: 0.7 });
    expect(v3Choice(t({ off_topic: 0.6, fabrication: 0.6 }))?.class_id).toBe("fabrication");
  });
  it("is null when any class answer is missing or unscored", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CLASS_IDS), fc.boolean(), (c, unscored) => {
        const m = new Map<string, number | null>(t({ [c]: 0.99 }));
        if (unscored) m.set(`class.${c}`, null);
        else m.delete(`class.${c}`);
        expect(v3Choice(m)).toBeNull();
      }),
    );
  });
});
