#!/usr/bin/env node
// Active vs uniform labelling at the same interval width (docs/eval.md, "Active labelling"):
// the simulations and AB-ReDial replayed (labels revealed as asked), each half of AB-ReDial's
// dialogues apart (dev: developed on; report: figures only), both error models, one round and
// three. Seeded: every comparison draws from mulberry32(9); prints one JSON line per row.
//
//   npx tsc -p tsconfig.json && node dist/scripts/research/active-compare.js [--reps 200] [--only NAME]
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { abRedialReplay, simulatedJudge } from "../../test/helpers/active-data.js";
import { allocationBound, compareBudgets, errorCurveBound, mulberry32, type ErrorModelOptions } from "../../eval/index.js";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const reps = Number(arg("--reps") ?? 200);
const only = arg("--only");
const read = (p: string): string => readFileSync(resolve(root, p), "utf8");

/** AUC of p against y >= 0.5 (ties count half); null without both classes. */
function aucOf(p: readonly number[], y: readonly number[]): number | null {
  let s = 0, n1 = 0, n0 = 0;
  for (let i = 0; i < p.length; i++) {
    if (y[i]! < 0.5) continue;
    n1++;
    for (let j = 0; j < p.length; j++) if (y[j]! < 0.5) s += p[i]! > p[j]! ? 1 : p[i]! === p[j]! ? 0.5 : 0;
  }
  for (const v of y) if (v < 0.5) n0++;
  return n1 > 0 && n0 > 0 ? s / (n1 * n0) : null;
}

const sets: { name: string; p: number[]; y: number[] }[] = [
  { name: "sim sharp Beta(0.3,2.5) seed 3", ...simulatedJudge(3, 4000, 0.3, 2.5) },
  { name: "sim soft Beta(0.5,4) seed 3", ...simulatedJudge(3, 4000, 0.5, 4) },
];
for (const judge of ["rater1", "model"] as const) for (const half of ["dev", "report"] as const) sets.push({ name: `ab-redial ${judge} ${half}`, ...abRedialReplay(read("datasets/ab-redial/labels.jsonl"), read("test/fixtures/active/ab-redial-judge.jsonl"), judge, half) });

const variants: Record<string, ErrorModelOptions> = {
  "fixed-bins": { model: "fixed-bins" },
  "default": {},
  "quantile-bins-learnF-prior5": { model: "quantile-bins", bins: 5, prior: 5, learnF: true },
  "q3-prior20": { model: "quantile-bins", bins: 3, prior: 20 },
  "q3-prior20-noF": { model: "quantile-bins", bins: 3, prior: 20, learnF: false },
  "q5-prior5-noF": { model: "quantile-bins", bins: 5, prior: 5, learnF: false },
};
const models: [string, ErrorModelOptions][] = (arg("--models") ?? "fixed-bins,default").split(",").map((k) => [k, variants[k]!]);
const roundsList = (arg("--rounds") ?? "1,3").split(",").map(Number);
for (const s of sets) {
  if (only && !s.name.includes(only)) continue;
  const N = s.p.length;
  const budget = N >= 1000 ? 400 : Math.round(N / 4);
  const grid = [0.5, 0.75, 1, 1.25, 1.5, 1.75, 2].map((k) => Math.round(k * budget)).filter((b) => b < N);
  const calibrated = allocationBound(s.p.map((q) => q * (1 - q)));
  const perItem = allocationBound(s.p.map((q, i) => (s.y[i]! - q) ** 2));
  const curve = errorCurveBound(s.p, s.y, 5);
  const auc = aucOf(s.p, s.y);
  for (const [mname, m] of models) for (const rounds of roundsList) {
    if (rounds === 1 && mname !== models[0]![0]) continue; // one round reads no label: both models are the same
    const c = compareBudgets(s.p, s.y, budget, grid, reps, mulberry32(9), { errorModel: m, ...(rounds > 1 ? { batch: budget / rounds } : {}) });
    const near = c.uniform.reduce((a, u) => (Math.abs(u.budget - budget) < Math.abs(a.budget - budget) ? u : a));
    process.stdout.write(`${JSON.stringify({ set: s.name, N, budget, model: rounds === 1 ? "none (one round)" : mname, rounds, reps, saving: c.saving, activeLabels: c.active.meanLabels, uniformLabels: c.uniformLabelsForActiveWidth, activeWidth: c.active.meanWidth, activeCoverage: c.active.coverage, uniformCoverageAtBudget: near.coverage, boundCalibratedJudge: calibrated, boundPerItemOracle: perItem, boundErrorCurve5: curve, auc })}\n`);
  }
}
