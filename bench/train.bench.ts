/**
 * The embedded lane's training: the cross-validated L2 search (`chooseL2`: 5 session-grouped
 * folds x 5 grid points per question, warm-started along the grid, fits stopped at CV_TOL)
 * against the search it replaced, measured in the same run on the same rows: every fit from
 * zero at fitLogistic's default tolerance (test/engine/helpers/cold-l2.ts). Prints CPU seconds
 * of each and their ratio (lower is better; about 0.65 when it was written), and that both
 * pick the same L2 for every question.
 */
import { loadCaptureSignals } from "../runtime/engine/embedded/signals.js";
import { DEFAULT_FEATURES, extractFeatures } from "../runtime/engine/embedded/features.js";
import { buildItems } from "../runtime/engine/embedded/items.js";
import { syntheticTrainingSet } from "../runtime/engine/embedded/sets.js";
import { splitBucket } from "../runtime/engine/embedded/split.js";
import { chooseL2 } from "../runtime/engine/embedded/train.js";
import { coldChoice } from "../test/engine/helpers/cold-l2.js";
import { mustSucceed } from "./fail.js";

const out = (line: string): void => void process.stdout.write(`${line}\n`);

export async function run(): Promise<void> {
  const signals = await loadCaptureSignals();
  const set = await syntheticTrainingSet(101, 40);
  const dim = 1 << DEFAULT_FEATURES.bits;
  const problems = [...buildItems(set.exchanges, set.labels).byQuestion]
    .map(([qid, items]) => ({ qid, items }))
    .filter(({ items }) => items.filter((it) => it.majority === 1).length >= 5 && items.filter((it) => it.majority === 0).length >= 5)
    .map(({ qid, items }) => ({
      qid,
      rows: items.map((it) => extractFeatures(it.exchange, DEFAULT_FEATURES, signals)),
      y: items.map((it) => it.yes / it.total),
      fold: items.map((it) => splitBucket(it.exchange.corpus, it.exchange.session_id) % 5),
    }));
  const cpu = (f: () => number[]): { s: number; picks: number[] } => {
    const c0 = process.cpuUsage();
    const picks = f();
    const d = process.cpuUsage(c0);
    return { s: (d.user + d.system) / 1e6, picks };
  };
  // Cold first, then warm, then cold again: the JIT is warm for both measured runs.
  cpu(() => problems.slice(0, 2).map((p) => coldChoice(p.rows, p.y, p.fold, dim)));
  const now = cpu(() => problems.map((p) => chooseL2(p.rows, p.y, p.fold, dim)));
  const before = cpu(() => problems.map((p) => coldChoice(p.rows, p.y, p.fold, dim)));
  const differ = problems.filter((_, i) => now.picks[i] !== before.picks[i]).map((p) => p.qid);
  mustSucceed(differ.length === 0, `chooseL2 picked another L2 than the cold search for ${differ.join(", ")}`);
  out(`L2 search over ${problems.length} questions of a generated set (seed 101, 40 sessions; capture signals ${signals ? "on" : "off"}): same L2 for all`);
  out(`  cold search, full tolerance (baseline)  ${before.s.toFixed(2)} CPU-s`);
  out(`  chooseL2 (warm start, CV_TOL)           ${now.s.toFixed(2)} CPU-s`);
  out(`  ratio ${(now.s / before.s).toFixed(2)} (lower is better)`);
}
