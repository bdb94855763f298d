import { describe, expect, it } from "vitest";
import {
  clopperPearsonUpper,
  judgeShadowLog,
  mulberry32,
  opportunitiesNeeded,
  sequentialEvidence,
  sequentialOpportunitiesNeeded,
  sequentialPassTable,
  type ShadowEvent,
} from "../../calibration/index.js";

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

  it("a check earns its place after 88 clean sessions over a week (sequential), not after the 59 one look would need", () => {
    const events = Array.from({ length: 88 }, (_, i) => clean(`s${i}`, i % 9));
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v).toMatchObject({ opportunities: 88, falseAlarmSessions: 0, earned: true, needed: 88, neededSingleLook: 59 });
    expect(v.threshold).toBeCloseTo(20, 9);
    expect(v.evidence).toBeCloseTo(20.296, 3);
    const at59 = judgeShadowLog(events.slice(0, 59), "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(at59.upperBound).toBeCloseTo(0.0495, 4);
    expect(at59.earned).toBe(false);
    expect(at59.reasons[0]).toMatch(/evidence \d+\.\d+ < 20 \(0 false alarms in 59 sessions; needs 88\)/);
  });
  it("counts distinct sessions, not moments: 200 moments in 58 sessions do not earn it", () => {
    const events = Array.from({ length: 200 }, (_, i) => clean(`s${i % 58}`, i % 9));
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v.opportunities).toBe(58);
    expect(v.cleanMoments).toBe(200);
    expect(v.earned).toBe(false);
    expect(v.reasons[0]).toMatch(/not below 0.05/);
  });
  it("one false alarm needs 134 sessions under repeated looks (93 for one look); a short watch is named", () => {
    const events = [clean("s0", 0, true), ...Array.from({ length: 133 }, (_, i) => clean(`s${i + 1}`, 2))];
    const v = judgeShadowLog(events, "lang", { falseAlarmRate: 0.05, confidence: 0.95 });
    expect(v.falseAlarmSessions).toBe(1);
    expect(v.needed).toBe(134);
    expect(v.neededSingleLook).toBe(93);
    expect(v.upperBound!).toBeLessThan(0.05);
    expect(v.evidence).toBeGreaterThanOrEqual(20);
    expect(v.earned).toBe(false);
    expect(v.reasons).toEqual(["watched 2.0 days, needs 7"]);
    expect(judgeShadowLog(events.slice(0, 133), "lang", { falseAlarmRate: 0.05, confidence: 0.95, minDays: 0 }).earned).toBe(false);
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

/**
 * The gate is read as the log grows (issue 18). Checked after every new session up to 2,000,
 * a check whose true false-alarm rate is exactly the 5% target must earn its place at most 5%
 * of the time. The single-look rule (Clopper-Pearson bound below 5%) read that way earns it
 * far more often (the issue measured 0.274); the sequential rule does not.
 */
describe("the shadow gate under repeated looks (seeded simulation)", () => {
  const CHECKS = 4000;
  const SESSIONS = 2000;
  const RATE = 0.05;
  const allowed = sequentialPassTable(RATE, 0.95, SESSIONS);
  // Single-look rule as a table too: most alarms x with clopperPearsonUpper(x, n) < 0.05.
  const singleLook = new Int32Array(SESSIONS + 1).fill(-1);
  for (let n = 1, x = -1; n <= SESSIONS; n++) {
    while (x + 1 <= n && clopperPearsonUpper(x + 1, n, 0.95) < RATE) x++;
    singleLook[n] = x;
  }

  function simulate(seed: number, trueRate: number): { sequential: number; single: number } {
    const random = mulberry32(seed);
    let sequential = 0;
    let single = 0;
    for (let c = 0; c < CHECKS; c++) {
      let alarms = 0;
      let passedSeq = false;
      let passedSingle = false;
      for (let n = 1; n <= SESSIONS && !(passedSeq && passedSingle); n++) {
        if (random() < trueRate) alarms++;
        if (alarms <= allowed[n]!) passedSeq = true;
        if (alarms <= singleLook[n]!) passedSingle = true;
      }
      if (passedSeq) sequential++;
      if (passedSingle) single++;
    }
    return { sequential: sequential / CHECKS, single: single / CHECKS };
  }

  it("the tables are the gate's own rule: they agree with sequentialEvidence and with judgeShadowLog", () => {
    for (const n of [1, 59, 87, 88, 134, 500, 2000]) {
      const x = allowed[n]!;
      if (x >= 0) expect(sequentialEvidence(x, n, RATE)).toBeGreaterThanOrEqual(20);
      if (x + 1 <= n) expect(sequentialEvidence(x + 1, n, RATE)).toBeLessThan(20);
    }
    expect(allowed[87]).toBe(-1);
    expect(allowed[88]).toBe(0);
    expect(sequentialOpportunitiesNeeded(RATE, 0.95, 1)).toBe(134);
    // One simulated log, read after every session by the real reader, passes exactly when the table says.
    const random = mulberry32(99);
    const events: ShadowEvent[] = [];
    let alarms = 0;
    for (let n = 1; n <= 300; n++) {
      const fired = random() < 0.02;
      if (fired) alarms++;
      events.push({ check: "c", session_id: `s${n}`, ts: new Date(Date.UTC(2026, 0, 1) + n * 3_600_000).toISOString(), eligible: true, violation: false, fired });
      const v = judgeShadowLog(events, "c", { falseAlarmRate: RATE, confidence: 0.95, minDays: 0 });
      expect(v.earned, `after ${n} sessions, ${alarms} alarms`).toBe(alarms <= allowed[n]!);
    }
  });

  it("at a true rate of 5%, 4,000 checks read after every session up to 2,000: the sequential gate passes at most 5%", () => {
    const r = simulate(2026, RATE);
    expect(r.sequential).toBeLessThanOrEqual(0.05);
    // The single-look bound read after every session is the failure the issue measured.
    expect(r.single).toBeGreaterThan(0.2);
    expect(r.single).toBeLessThan(0.35);
  });

  it("it still passes good checks: at a true rate of 1%, most checks earn their place within 2,000 sessions", () => {
    expect(simulate(7, 0.01).sequential).toBeGreaterThan(0.9);
  });
});
