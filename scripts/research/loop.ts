// The research loop: the corpus and the engine once (the engine on its own part of the
// sessions), then one track per corpus on the other part (its own ledger folder, gold set,
// labels, cuts, heads, check and promotion). See scripts/research.ts.
import { join } from "node:path";
import { hashUnit } from "../../eval/split.js";
import type { Exchange } from "../../schemas/exchange.js";
import { cliRunner } from "./cli.js";
import { type CorpusRows, LEFT_OUT, prepareCorpora } from "./corpus.js";
import { ENGINE_SALT, type LoopEngine, shippedEngine, trainFitEngine } from "./engine.js";
import type { EngineSummary, LoopSummary, ResearchOptions, StepTime, Track } from "./summary.js";
import { runTrack } from "./track.js";

/** Runs one named step: logs its number and name, times it, returns what `fn` returns. */
export type Step = <T>(name: string, fn: () => Promise<T> | T) => Promise<T>;

export interface LoopOptions extends ResearchOptions {
  /** The loop's folder (fresh): one ledger per corpus, <dir>/<corpus>/ledger. */
  dir: string;
  /** Where the raw AB-ReDial CSV may be (its re-import is checked when present). */
  sharedDatasets: string;
}

export interface LoopContext {
  repoRoot: string;
  log: (line: string) => void;
  /** The environment the commands inherit (minus ERRATA_* settings). */
  env: Record<string, string | undefined>;
  /** Milliseconds since the epoch, for the step timings. */
  now: () => number;
  /** Called as each step starts (the progress bar). */
  onStep?: (n: number, name: string) => void;
}

export async function runLoop(opts: LoopOptions, { repoRoot, log, env, now, onStep }: LoopContext): Promise<LoopSummary> {
  const root = opts.dir;
  const commands: string[] = [];
  const steps: StepTime[] = [];
  let n = 0;
  const step: Step = async (name, fn) => {
    n++;
    const k = n;
    log(`\n[${k}] ${name}`);
    onStep?.(k, name);
    const t0 = now();
    const result = await fn();
    steps.push({ n: k, name, seconds: Math.round((now() - t0) / 100) / 10 });
    return result;
  };
  // `errata exchanges` writes into the ledger of the track that reads the transcripts.
  const cliFor = (name: string) => cliRunner({ repoRoot, dir: root, cwd: join(root, name), ledgerDir: join(root, name, "ledger"), log, env, commands });

  const corpus = await step("corpus -> exchanges", () => prepareCorpora({ cliFor, opts, repoRoot, work: join(root, "corpus"), sharedDatasets: opts.sharedDatasets, log }));
  let research: CorpusRows = corpus;
  const engine = await step(opts.engine === "shipped" ? "engine: the shipped weights" : "engine: the embedded lane, trained on its own part of the sessions", async (): Promise<LoopEngine> => {
    if (opts.engine === "shipped") {
      const e = shippedEngine({ log });
      research = keepOnly(corpus, e.keep);
      log(`  the research loop runs on the ${research.exchanges.length} of ${corpus.exchanges.length} exchanges (${sessions(research.exchanges)} sessions) the shipped weights never saw`);
      return e;
    }
    const toEngine = (e: Exchange): boolean => hashUnit(`${ENGINE_SALT}\u0000${e.session_id}`) < opts.engineShare;
    const part = keepOnly(corpus, toEngine);
    research = keepOnly(corpus, (e) => !toEngine(e));
    log(`  sessions split by ${ENGINE_SALT} (share ${opts.engineShare}): the engine trains on ${part.exchanges.length} exchanges (${sessions(part.exchanges)} sessions), the research loop runs on the other ${research.exchanges.length} (${sessions(research.exchanges)} sessions)`);
    return trainFitEngine({ exchanges: part.exchanges, labels: part.labels, work: join(root, "engine"), log });
  });
  const tracks: Record<string, Track> = {};
  for (const name of opts.corpora) {
    const { exchanges, labels } = keepOnly(research, (e) => e.corpus === name);
    tracks[name] = await runTrack({ name, exchanges, labels, engine, opts, repoRoot, root, log, env, step, commands });
  }
  return { steps, leftOut: LEFT_OUT, tracks, commands, engine: engineSummary(engine), corpora: corpus.corpora };
}

/** The engine without what the summary cannot hold (the session filter) or need not (the ledger config). */
function engineSummary(engine: LoopEngine): EngineSummary {
  if (engine.mode === "train") {
    const { config: _config, ...rest } = engine;
    return rest;
  }
  const { keep: _keep, ...rest } = engine;
  return rest;
}

function keepOnly<C extends CorpusRows>(corpus: C, keep: (e: Exchange) => boolean): C {
  const exchanges = corpus.exchanges.filter(keep);
  const ids = new Set(exchanges.map((e) => e.id));
  return { ...corpus, exchanges, labels: corpus.labels.filter((l) => ids.has(l.exchange_id)) };
}

const sessions = (exchanges: readonly Exchange[]): number => new Set(exchanges.map((e) => e.session_id)).size;
