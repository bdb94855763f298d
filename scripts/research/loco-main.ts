#!/usr/bin/env node
// Leave-one-corpus-out figures for the capture classifier and the embedded lane's
// `detect.unhappy` on every labelled corpus present (loco-data.ts), printed as one table per
// feature set; only aggregate figures leave the process (USS is local-only).
//
//   npx tsc -p tsconfig.json && node dist/scripts/research/loco-main.js [--cap 3000] [--l2 0.3,1,3]
//     [--train ab-redial,dbdc3,conture] [--spec JSON] [--resamples 1000] [--json FILE] [--sub N] [--dump-texts FILE] [--emb DIR]
//
// --dump-texts writes the prompts and reply ends an embedding model would read (a JSON array,
// local scratch: it holds USS text when USS is present); --emb DIR reads DIR/texts.json and
// DIR/vectors.f32 (512 float32 per text, the same order) and adds a run with the sentence
// embeddings of the prompt and the reply end as a dense block beside the hashed features.
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { captureSignals } from "../../runtime/engine/embedded/signals.js";
import { DEFAULT_FEATURES, extractFeatures, replyTail } from "../../runtime/engine/embedded/features.js";
import type { Item } from "../../runtime/engine/embedded/items.js";
import type { FeatureSpec } from "../../runtime/engine/base/schemas.js";
import type { Interval } from "../../runtime/engine/embedded/interval.js";
import { loadCorpora } from "./loco-data.js";
import { capItems, locoRun, type LocoOptions, type LocoRow } from "./loco.js";

const arg = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const repoRoot = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const shared = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");
const log = (s: string): void => void process.stderr.write(`${s}\n`);

// --sub N: every corpus cut to about N items (whole sessions, capItems), for a comparison
// whose embedding run must stay small (the texts are embedded outside this process).
const sub = arg("--sub");
const corpora = loadCorpora(repoRoot, shared).map((c) => (sub ? { ...c, items: capItems(c.items, Number(sub)) } : c));
for (const c of corpora) log(`${c.name}: ${c.items.length} items, ${c.items.filter((i) => i.majority === 1).length} majority-yes, crowd kappa ${c.crowdKappa?.toFixed(3) ?? "n/a"}`);

const textsOf = (it: Item): [string, string] => [it.exchange.prompt, replyTail(it.exchange, DEFAULT_FEATURES)];
const dump = arg("--dump-texts");
if (dump) {
  const all = new Set<string>();
  for (const c of corpora) for (const it of c.items) for (const t of textsOf(it)) all.add(t);
  writeFileSync(dump, JSON.stringify([...all]));
  log(`wrote ${all.size} texts to ${dump}`);
  process.exit(0);
}

// --spec '{"charNgrams": [], "wordNgrams": [1]}': other hashed features (merged over features/1).
const spec: FeatureSpec = { ...DEFAULT_FEATURES, ...(arg("--spec") ? (JSON.parse(arg("--spec")!) as Partial<FeatureSpec>) : {}) };
const HASHED_DIM = 1 << spec.bits;
const cache = new Map<string, { idx: Int32Array; val: Float64Array }>();
const hashed = (it: Item): { idx: Int32Array; val: Float64Array } => {
  let v = cache.get(it.exchange.id + it.exchange.corpus);
  if (!v) cache.set(it.exchange.id + it.exchange.corpus, (v = extractFeatures(it.exchange, spec, spec.captureSignals ? captureSignals : null)));
  return v;
};

const base: Omit<LocoOptions, "features" | "dim"> = {
  l2Grid: (arg("--l2") ?? "1").split(",").map(Number),
  resamples: Number(arg("--resamples") ?? 1000),
  ...(arg("--cap") ? { capPerCorpus: Number(arg("--cap")) } : {}),
  ...(arg("--train") ? { trainOn: arg("--train")!.split(",") } : {}),
};
const runs: { name: string; rows: LocoRow[] }[] = [];
const t0 = Date.now();
runs.push({ name: `hashed features ${JSON.stringify({ wordNgrams: spec.wordNgrams, charNgrams: spec.charNgrams, captureSignals: spec.captureSignals })}`, rows: locoRun(corpora, { ...base, features: hashed, dim: HASHED_DIM }, log) });
log(`hashed: ${((Date.now() - t0) / 1000).toFixed(1)} s`);

const embDir = arg("--emb");
if (embDir) {
  const texts = JSON.parse(readFileSync(resolve(embDir, "texts.json"), "utf8")) as string[];
  const buf = readFileSync(resolve(embDir, "vectors.f32"));
  const vectors = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
  const at = new Map(texts.map((t, i) => [t, i]));
  const EMB = 512;
  const withEmb = (it: Item): { idx: Int32Array; val: Float64Array } => {
    const h = hashed(it);
    const idx = new Int32Array(h.idx.length + 2 * EMB);
    const val = new Float64Array(h.idx.length + 2 * EMB);
    idx.set(h.idx);
    val.set(h.val);
    textsOf(it).forEach((t, block) => {
      const k = at.get(t);
      for (let j = 0; j < EMB; j++) {
        idx[h.idx.length + block * EMB + j] = HASHED_DIM + block * EMB + j;
        val[h.idx.length + block * EMB + j] = k === undefined ? 0 : vectors[k * EMB + j]!;
      }
    });
    return { idx, val };
  };
  const t1 = Date.now();
  runs.push({ name: "hashed + sentence embeddings of prompt and reply end (USE lite, 2 x 512)", rows: locoRun(corpora, { ...base, features: withEmb, dim: HASHED_DIM + 2 * EMB }, log) });
  log(`with embeddings: ${((Date.now() - t1) / 1000).toFixed(1)} s`);
}

const f = (x: number | null): string => (x === null ? "n/a" : x.toFixed(3).replace(/^(-?)0\./, "$1."));
const iv = (i: Interval): string => `[${f(i.low)}, ${f(i.high)}]`;
for (const run of runs) {
  process.stdout.write(`\n### ${run.name}\n\n| held out | trained on | items (yes) | judge AUC | judge P / R / F1 | judge kappa | cut (L2) | capture P / R / F1 | capture kappa | crowd kappa |\n|---|---|---|---|---|---|---|---|---|---|\n`);
  for (const r of run.rows) {
    process.stdout.write(
      `| ${r.target} | ${r.trainedOn.join(" + ")} | ${r.items} (${r.positives}) | ${f(r.judge.auc)} ${iv(r.judge.aucInterval)} | ${f(r.judge.precision)} / ${f(r.judge.recall)} / ${f(r.judge.f1)} ${iv(r.judge.f1Interval)} | ${f(r.judge.kappa)} ${iv(r.judge.kappaInterval)} | ${f(r.cut)} (${r.l2}) | ${f(r.capture.precision)} / ${f(r.capture.recall)} / ${f(r.capture.f1)} ${iv(r.capture.f1Interval)} | ${f(r.capture.kappa)} ${iv(r.capture.kappaInterval)} | ${f(r.crowdKappa)} (${r.crowdNote}) |\n`,
    );
  }
}
const json = arg("--json");
if (json) writeFileSync(json, `${JSON.stringify({ runs }, null, 1)}\n`);
