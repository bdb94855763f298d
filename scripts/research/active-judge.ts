#!/usr/bin/env node
// A model judge for AB-ReDial that never saw the items it judges, for the active-labelling
// replay (docs/eval.md, "Active labelling"): the dialogues are cut in two halves by a seeded
// hash (dev / report); the embedded lane's `detect.unhappy` recipe (the shipped features and
// L2) is fitted on the dev half only. Report items get the dev-half model's P(yes); dev items
// get out-of-fold P(yes) from 5 session-grouped folds inside the dev half. No report label is
// read to make any P(yes). Output: one JSON line per item {exchange_id, session_id, half, p_yes}.
//
//   npx tsc -p tsconfig.json && node dist/scripts/research/active-judge.js > test/fixtures/active/ab-redial-judge.jsonl
import { createHash } from "node:crypto";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { fitLogistic, predictLogistic } from "../../learn/index.js";
import { extractFeatures } from "../../runtime/engine/embedded/features.js";
import { readLabelledSet } from "../../runtime/engine/embedded/files.js";
import { buildItems } from "../../runtime/engine/embedded/items.js";
import { loadCaptureSignals } from "../../runtime/engine/embedded/signals.js";
import { loadShippedWeights } from "../../runtime/engine/index.js";
import { halfOf } from "../../test/helpers/active-data.js";


const root = resolve(fileURLToPath(new URL("../../..", import.meta.url)));
const set = readLabelledSet(resolve(root, "datasets/ab-redial/labels.jsonl"));
// The first three raters (r4 rated 120 items only), as every AB-ReDial figure in docs/engine.md.
const labels = set.labels.filter((l) => ["ab-redial:r1", "ab-redial:r2", "ab-redial:r3"].includes(l.labeler));
const items = buildItems(set.exchanges, labels).byQuestion.get("detect.unhappy") ?? [];
const weights = loadShippedWeights();
if (!weights) throw new Error("no shipped weights");
const key = Object.keys(weights.questions).find((k) => k.startsWith("detect.unhappy@"))!;
const l2 = weights.questions[key]?.l2 ?? 1;
const signals = weights.features.captureSignals ? await loadCaptureSignals() : null;
const feats = items.map((it) => extractFeatures(it.exchange, weights.features, signals));
const dim = 1 << weights.features.bits;
const half = items.map((it) => halfOf(it.exchange.session_id));
const dev = items.map((_, i) => i).filter((i) => half[i] === "dev");
const fit = (idx: readonly number[]) => fitLogistic(idx.map((i) => feats[i]!), idx.map((i) => items[i]!.yes / items[i]!.total), { l2, dim });
const p = new Array<number>(items.length).fill(NaN);
const whole = fit(dev);
for (let i = 0; i < items.length; i++) if (half[i] === "report") p[i] = predictLogistic(whole, feats[i]!);
const fold = (s: string): number => Number.parseInt(createHash("sha256").update(`active-fold/1:${s}`).digest("hex").slice(0, 8), 16) % 5;
for (let f = 0; f < 5; f++) {
  const m = fit(dev.filter((i) => fold(items[i]!.exchange.session_id) !== f));
  for (const i of dev) if (fold(items[i]!.exchange.session_id) === f) p[i] = predictLogistic(m, feats[i]!);
}
for (let i = 0; i < items.length; i++) {
  process.stdout.write(`${JSON.stringify({ exchange_id: items[i]!.exchange.id, session_id: items[i]!.exchange.session_id, half: half[i], p_yes: Number(p[i]!.toPrecision(7)) })}\n`);
}
process.stderr.write(`${items.length} items (${dev.length} dev), ${key} at L2 ${l2}\n`);
