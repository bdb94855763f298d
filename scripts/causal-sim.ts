#!/usr/bin/env node
// The full simulation that docs/causal.md quotes: the group-sequential permutation falsifier
// on histories with no change, a halving and a doubling of the slip rate; the holdout
// interval's coverage; and how many sessions one rule needs to see a halving 80% of the time.
// Synthetic: the assumptions are calibration/rate-change-sim.ts' PILOT_ASSUMPTIONS.
// Compiled with the rest to dist/scripts/causal-sim.js:
//   npm run build && nice -n 10 node dist/scripts/causal-sim.js [--quick]
// Prints markdown to stdout and progress to stderr.
import { simulateFalsifier, simulateHoldout, PILOT_ASSUMPTIONS, type SimRate } from "../calibration/rate-change-sim.js";

const quick = process.argv.includes("--quick");
const k = quick ? 0.1 : 1;
const n = (x: number) => Math.max(5, Math.round(x * k));
const pct = (r: SimRate) => `${r.hits}/${r.of} = ${(100 * r.rate).toFixed(1)}% [${(100 * r.low).toFixed(1)}, ${(100 * r.high).toFixed(1)}]`;
const log = (s: string) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${s}\n`);
const out: string[] = [];
out.push(`Assumptions: ${JSON.stringify(PILOT_ASSUMPTIONS)}; alpha 0.05 two-sided, 4 weekly looks, 999 permutations a look.`, "");
out.push("| history | seed | per rule: holds | per rule: fires | pooled (6 rules): holds | pooled: fires |", "|---|---|---|---|---|---|");
for (const [name, factor, reps, seed] of [["no change", 1, 1000, 101], ["halving", 0.5, 500, 102], ["doubling", 2, 300, 103]] as const) {
  log(`falsifier: ${name}, ${n(reps)} histories`);
  const s = simulateFalsifier({ reps: n(reps), factorAfter: factor, seed });
  out.push(`| ${name} | ${seed} | ${pct(s.perRule.holds)} | ${pct(s.perRule.fires)} | ${pct(s.pooled.holds)} | ${pct(s.pooled.fires)} |`);
}
out.push("", "One rule alone, a halving, more sessions a day (the same four weeks each side):", "", "| sessions a day | chances each side (about) | holds |", "|---|---|---|");
for (const [perDay, seed] of [[12, 104], [24, 105], [36, 106], [48, 107]] as const) {
  log(`one rule, ${perDay} sessions a day`);
  const s = simulateFalsifier({ reps: n(200), factorAfter: 0.5, seed, assumptions: { rules: 1, sessionsPerDay: perDay } });
  out.push(`| ${perDay} | ${Math.round(perDay * 28 * 1.5)} | ${pct(s.perRule.holds)} |`);
}
out.push("", "The holdout interval (1-in-N sessions held out, four weeks, one rule):", "", "| held out | treated slip factor | true difference | covered | mean width | seed |", "|---|---|---|---|---|---|");
for (const [oneIn, factor, seed] of [[5, 0.1, 108], [5, 1, 109], [4, 0.5, 110], [10, 0.1, 111]] as const) {
  log(`holdout 1-in-${oneIn}, factor ${factor}`);
  const h = simulateHoldout({ reps: n(2000), oneIn, factorTreated: factor, seed });
  out.push(`| 1 in ${oneIn} | ${factor} | ${h.trueDifference.toFixed(4)} | ${pct(h.covered)} | ${h.meanWidth.toFixed(3)} | ${seed} |`);
}
process.stdout.write(out.join("\n") + "\n");
