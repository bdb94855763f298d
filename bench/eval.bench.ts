/**
 * The cost of the scorer's intervals: 10,000 paired session-block resamples over 300 gold
 * items in 100 sessions (at most 3 per session, as `eval sample` draws) and 4 detectors,
 * against one pass of the point metrics over the same items (the baseline, measured in the
 * same run with tinybench). Reported: the wall time of the 10,000 resamples (median of 5
 * runs), the mean time of one point pass, and their ratio. A replicate costs
 * O(sessions x sums), not O(items), because item sums are folded per session once.
 */
import { Bench } from "tinybench";
import { detectorMetricsStatistic, mulberry32, pointFigures, sessionBlockBootstrap, type DetectorPrediction, type ScoredGoldItem } from "../eval/index.js";

function fixture(seed: number) {
  const r = mulberry32(seed);
  const items: ScoredGoldItem[] = [];
  const sessions: string[] = [];
  for (let i = 0; i < 300; i++) {
    const failure = i < 180 ? r() < 0.8 : r() < 0.1;
    items.push({ goldFailure: r() < 0.03 ? null : failure, goldClass: failure ? `c${Math.floor(r() * 5)}` : null, weight: i < 180 ? 1 + r() : 20 + 10 * r() });
    sessions.push(`s${Math.floor(i / 3)}`);
  }
  const detectors = ["regex", "v3", "v4", "combiner"];
  const noise = [0.45, 0.3, 0.15, 0.1];
  const preds: DetectorPrediction[][] = detectors.map((_, d) =>
    items.map((g) => {
      const t = g.goldFailure ?? false;
      const detected = r() < 0.02 ? null : r() < (noise[d] as number) ? !t : t;
      return { detected, class: detected ? (r() < 0.7 && g.goldClass ? g.goldClass : "c9") : null };
    }),
  );
  return { items, sessions, detectors, preds };
}

export async function run(): Promise<void> {
  const { items, sessions, detectors, preds } = fixture(7);
  const stat = detectorMetricsStatistic(items, detectors, preds);
  const resamples = 10_000;

  const bench = new Bench({ name: "eval", time: 1500, warmupTime: 300 });
  bench.add("point metrics, one pass (baseline)", () => {
    pointFigures(stat);
  });
  await bench.run();
  const pointMs = (bench.tasks[0]?.result as { latency?: { mean: number } } | undefined)?.latency?.mean ?? Number.NaN;

  // The bootstrap is long enough to time directly: 1 warm-up, then the median of 5 runs.
  sessionBlockBootstrap(stat, sessions, { resamples: 500, seed: 1 });
  const walls: number[] = [];
  let figures = 0;
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    const b = sessionBlockBootstrap(stat, sessions, { resamples, seed: 100 + k });
    walls.push(performance.now() - t0);
    figures = b.figures.length;
  }
  walls.sort((a, b) => a - b);
  const wallMs = walls[2] as number;
  const out = (s: string): boolean => process.stdout.write(`${s}\n`);
  out(`items 300, sessions ${new Set(sessions).size}, detectors ${detectors.length}, figures per replicate ${figures} (5 metrics x 4 detectors + 5 x 6 differences)`);
  out(`one pass of the point metrics (tinybench mean): ${(pointMs * 1000).toFixed(1)} us`);
  out(`${resamples} paired session-block resamples: wall ${wallMs.toFixed(0)} ms (median of 5; min ${walls[0]?.toFixed(0)} ms, max ${walls[4]?.toFixed(0)} ms), ${((wallMs * 1000) / resamples).toFixed(1)} us per resample`);
  out(`ratio bootstrap / one point pass: ${(wallMs / pointMs).toFixed(0)}x (one resample costs ${(wallMs / resamples / pointMs).toFixed(2)} point passes: it folds 100 session rows of ${stat.width} sums instead of 300 items)`);
}
