import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../calibration/random.js";
import {
  assertSameBank,
  classDistribution,
  CombinerBankError,
  detectProbability,
  fitClassHead,
  fitDetectHead,
  pickL2,
  rawFeatures,
  sessionFolds,
  type HeadItem,
} from "../../combiner/index.js";

const Q = ["detect.unhappy", "detect.correction", "mode.wrong_language", "mode.invented_fact"];

/** Synthetic exchanges with a known truth: failure iff a latent score > 0; the judge sees it noisily. */
function corpus(n: number, seed: number) {
  const r = mulberry32(seed);
  const sig = (z: number) => 1 / (1 + Math.exp(-z));
  return Array.from({ length: n }, (_, i) => {
    const latent = r() * 4 - 2;
    const y: 0 | 1 = latent > 0 ? 1 : 0;
    const cls = r() < 0.5 ? "wrong_language" : "fabrication";
    const table = new Map<string, number | null>([
      ["detect.unhappy", sig(1.5 * latent + (r() - 0.5))],
      ["detect.correction", i % 17 === 0 ? null : sig(0.5 * latent + 2 * (r() - 0.5))],
      ["mode.wrong_language", sig((cls === "wrong_language" ? 2 : -2) + 2 * (r() - 0.5))],
      ["mode.invented_fact", sig((cls === "fabrication" ? 1.5 : -1.5) + 2 * (r() - 0.5))],
    ]);
    return { id: `e${i}`, session: `s${Math.floor(i / 3)}`, table, weight: 1 + (i % 3), y, cls } satisfies HeadItem & { y: 0 | 1; cls: string };
  });
}

describe("combiner features and folds", () => {
  it("p, logit and a missing flag per question; missing is never a 'no'", () => {
    const f = rawFeatures(new Map([["detect.unhappy", 0.9], ["blame.world", null]]), ["detect.unhappy", "blame.world", "cost.risky"]);
    expect(f[0]).toBe(0.9);
    expect(f[1]).toBeCloseTo(Math.log(9), 12);
    expect(f.slice(2)).toEqual([0, 0.5, 0, 1, 0.5, 0, 1]);
  });
  it("folds keep sessions whole and depend only on the seed", () => {
    const sessions = Array.from({ length: 60 }, (_, i) => `s${i % 13}`);
    const a = sessionFolds(sessions, 5, 3);
    expect(a).toEqual(sessionFolds(sessions, 5, 3));
    for (let i = 0; i < 60; i++) for (let j = 0; j < 60; j++) if (sessions[i] === sessions[j]) expect(a[i]).toBe(a[j]);
    expect(new Set(a).size).toBe(5);
    expect(sessionFolds(sessions, 5, 4)).not.toEqual(a);
  });
  it("pickL2 takes the lowest loss, ties to the stronger penalty", () => {
    expect(pickL2([{ l2: 0.1, loss: 0.5 }, { l2: 1, loss: 0.4 }, { l2: 10, loss: 0.45 }])).toBe(1);
    expect(pickL2([{ l2: 0.1, loss: 0.4 }, { l2: 10, loss: 0.4 }])).toBe(10);
  });
});

describe("detect head", () => {
  const items = corpus(300, 1);
  const head = fitDetectHead(items, { questions: Q, seed: 1 });
  it("learns that detect.unhappy carries the signal, and detects held-out exchanges well", () => {
    const j = Q.indexOf("detect.unhappy") * 3;
    expect(head.coef[j]! + head.coef[j + 1]!).toBeGreaterThan(1);
    expect(head.cv.map((c) => c.l2)).toEqual([0.01, 0.1, 1, 10, 100]);
    expect(head.outOfFold!.kappa!).toBeGreaterThan(0.6);
    const test = corpus(300, 2);
    let right = 0;
    for (const t of test) if ((detectProbability(head, t.table) >= head.cut ? 1 : 0) === t.y) right++;
    expect(right / test.length).toBeGreaterThan(0.85);
  });
  it("reproduces the same weights from the same data and seed; another seed changes only the folds", () => {
    const again = fitDetectHead(items, { questions: Q, seed: 1 });
    expect(again).toEqual(head);
    const other = fitDetectHead(items, { questions: Q, seed: 2 });
    expect(other.cv).not.toEqual(head.cv);
  });
  it("refuses a fit with one kind of gold verdict", () => {
    expect(() => fitDetectHead(items.map((i) => ({ ...i, y: 1 as const })), { questions: Q, seed: 1 })).toThrow(/failures and non-failures/);
  });
});

describe("class head", () => {
  const failures = corpus(400, 3).filter((i) => i.y === 1);
  const head = fitClassHead(failures, { questions: Q, seed: 1 });
  it("names the class from the mode probabilities", () => {
    expect(head.classes).toEqual(["fabrication", "wrong_language"]);
    const test = corpus(400, 4).filter((i) => i.y === 1);
    let right = 0;
    for (const t of test) if (classDistribution(head, t.table)[0]!.cls === t.cls) right++;
    expect(right / test.length).toBeGreaterThan(0.85);
    const d = classDistribution(head, test[0]!.table);
    expect(d.reduce((s, x) => s + x.p, 0)).toBeCloseTo(1, 12);
  });
  it("is reproducible from the same data and seed", () => {
    expect(fitClassHead(failures, { questions: Q, seed: 1 })).toEqual(head);
  });
});

describe("bank hash", () => {
  it("refuses heads fitted under another bank, saying both hashes", () => {
    expect(() => assertSameBank({ bank_hash: "aaaa" }, "bbbb")).toThrow(CombinerBankError);
    expect(() => assertSameBank({ bank_hash: "aaaa" }, "bbbb")).toThrow(/fitted under bank aaaa, not the current bank bbbb/);
    expect(() => assertSameBank({ bank_hash: "aaaa" }, "aaaa")).not.toThrow();
  });
});
