// The data the active-labelling figures run on (test/eval/active.test.ts and
// scripts/research/active-compare.ts): simulated judges and AB-ReDial replayed.
import { createHash } from "node:crypto";
import { mulberry32 } from "../../eval/index.js";

/** The half of an AB-ReDial dialogue: sha256("active-half/1:" + session_id), first 8 hex, even = dev. */
export function halfOf(sessionId: string): "dev" | "report" {
  return Number.parseInt(createHash("sha256").update(`active-half/1:${sessionId}`).digest("hex").slice(0, 8), 16) % 2 === 0 ? "dev" : "report";
}

/** Beta(a, b) draws through two gammas (Marsaglia-Tsang; a < 1 boosted). */
export function beta(r: () => number, a: number, b: number): number {
  const gamma = (k: number): number => {
    if (k < 1) return gamma(k + 1) * Math.pow(r(), 1 / k);
    const d = k - 1 / 3, c = 1 / Math.sqrt(9 * d);
    for (;;) {
      let x: number, v: number;
      do { x = Math.sqrt(-2 * Math.log(r() || 1e-300)) * Math.cos(2 * Math.PI * r()); v = 1 + c * x; } while (v <= 0);
      v = v * v * v;
      if (Math.log(r()) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
    }
  };
  const x = gamma(a), y = gamma(b);
  return x / (x + y);
}

/** A calibrated simulated judge: P(yes) ~ Beta(a, b), truth Bernoulli(P(yes)), from mulberry32(seed). */
export function simulatedJudge(seed: number, n: number, a: number, b: number): { p: number[]; y: number[] } {
  const r = mulberry32(seed);
  const p = Array.from({ length: n }, () => beta(r, a, b));
  return { p, y: p.map((q) => (r() < q ? 1 : 0)) };
}

/**
 * AB-ReDial replayed, one half of its dialogues (the half recorded in the judge fixture, made by
 * scripts/research/active-judge.ts). Judge "rater1": rater 1's satisfaction through a fixed map
 * (1→.85, 2→.6, 3→.2, 4→.06, 5→.03), target the share of raters 2 and 3 unhappy; judge "model":
 * the embedded recipe's P(yes) fitted without the item (fixture), target the 2-of-3 majority of
 * raters 1-3 on detect.unhappy. Items in exchange-id order.
 */
export function abRedialReplay(labelsText: string, judgeText: string, judge: "rater1" | "model", half: "dev" | "report" | "all"): { p: number[]; y: number[] } {
  const by = new Map<string, Record<string, number | boolean>>();
  for (const line of labelsText.trim().split("\n")) {
    const x = JSON.parse(line) as { exchange_id: string; labeler: string; question: string; value: number | boolean };
    by.set(x.exchange_id, { ...(by.get(x.exchange_id) ?? {}), [`${x.labeler}:${x.question}`]: x.value });
  }
  const rows = judgeText.trim().split("\n").map((l) => JSON.parse(l) as { exchange_id: string; half: string; p_yes: number }).sort((a, b) => a.exchange_id.localeCompare(b.exchange_id));
  const map: Record<number, number> = { 1: 0.85, 2: 0.6, 3: 0.2, 4: 0.06, 5: 0.03 };
  const p: number[] = [];
  const y: number[] = [];
  for (const j of rows) {
    if (half !== "all" && j.half !== half) continue;
    const m = by.get(j.exchange_id) ?? {};
    const u = [1, 2, 3].map((k) => m[`ab-redial:r${k}:detect.unhappy`]);
    const s1 = m["ab-redial:r1:satisfaction"];
    if (u.some((v) => typeof v !== "boolean") || typeof s1 !== "number") continue;
    if (judge === "rater1") {
      p.push(map[s1]!);
      y.push((Number(u[1]) + Number(u[2])) / 2);
    } else {
      p.push(j.p_yes);
      y.push(u.filter(Boolean).length >= 2 ? 1 : 0);
    }
  }
  return { p, y };
}
