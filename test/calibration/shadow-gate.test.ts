import { describe, expect, it } from "vitest";
import { clopperPearsonUpper, judgeShadowLog, opportunitiesNeeded, type ShadowEvent } from "../../calibration/index.js";

describe("shadow gate arithmetic", () => {
  it("59 clean opportunities bound the false-alarm rate at 4.95% < 5% (one-sided exact 95%)", () => {
    expect(opportunitiesNeeded(0.05, 0.95)).toBe(59);
    expect(clopperPearsonUpper(0, 59, 0.95)).toBeCloseTo(0.0495076, 6);
    expect(clopperPearsonUpper(0, 58, 0.95)).toBeGreaterThan(0.05);
  });
  it("matches textbook values: 0 in n at 95% is 1 − 0.05^(1/n); other targets", () => {
    expect(opportunitiesNeeded(0.01, 0.95)).toBe(299); // the 'rule of three' gives ≈ 300
    expect(opportunitiesNeeded(0.05, 0.99)).toBe(90);
    expect(opportunitiesNeeded(0.1, 0.95)).toBe(29);
    // jstat's beta quantile agrees with the closed form 1 − (1 − c)^(1/n) for x = 0 ...
    for (const n of [1, 20, 59, 300]) expect(clopperPearsonUpper(0, n, 0.95)).toBeCloseTo(1 - Math.pow(0.05, 1 / n), 10);
    // ... and with a known value for x > 0: 1 false alarm in 100 at 95% one-sided is 0.04656.
    expect(clopperPearsonUpper(1, 100, 0.95)).toBeCloseTo(0.046559, 5);
    expect(opportunitiesNeeded(0.05, 0.95, 1)).toBe(93);
  });
  it("refuses nonsense", () => {
    expect(() => clopperPearsonUpper(0, 0, 0.95)).toThrow(/at least one opportunity/);
    expect(() => opportunitiesNeeded(0, 0.95)).toThrow(/false-alarm rate/);
    expect(() => clopperPearsonUpper(0, 10, 1)).toThrow(/confidence/);
  });

  const day = (d: number) => new Date(Date.UTC(2026, 10, 1 + d)).toISOString();
  const clean = (session: string, d: number, fired = false): ShadowEvent => ({ check: "lang", session_id: session, ts: day(d), eligible: true, violation: false, fired });

  it("a check earns its place after 59 clean sessions over a week", () => {
    const events = Array.from({ length: 59 }, (_, i) => clean(`s${i}`, i % 9));
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v).toMatchObject({ opportunities: 59, falseAlarmSessions: 0, earned: true, needed: 59 });
    expect(v.upperBound).toBeCloseTo(0.0495, 4);
  });
  it("counts distinct sessions, not moments: 200 moments in 58 sessions do not earn it", () => {
    const events = Array.from({ length: 200 }, (_, i) => clean(`s${i % 58}`, i % 9));
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v.opportunities).toBe(58);
    expect(v.cleanMoments).toBe(200);
    expect(v.earned).toBe(false);
    expect(v.reasons[0]).toMatch(/not below 0.05/);
  });
  it("one false alarm needs 93 sessions; a short watch is named", () => {
    const events = [clean("s0", 0, true), ...Array.from({ length: 92 }, (_, i) => clean(`s${i + 1}`, 2))];
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v.falseAlarmSessions).toBe(1);
    expect(v.needed).toBe(93);
    expect(v.upperBound!).toBeLessThan(0.05);
    expect(v.earned).toBe(false);
    expect(v.reasons).toEqual(["watched 2.0 days, needs 7"]);
  });
  it("violations are not opportunities; other checks and ineligible moments are ignored", () => {
    const events: ShadowEvent[] = [
      { ...clean("a", 0), violation: true, fired: true },
      { ...clean("b", 1), check: "other" },
      { ...clean("c", 1), eligible: false, fired: true },
      clean("d", 8),
    ];
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v).toMatchObject({ opportunities: 1, violations: 1, caught: 1, falseAlarmSessions: 0 });
  });
});
