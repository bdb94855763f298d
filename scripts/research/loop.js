// The research loop: the corpus and the engine once (the engine on its own part of the
// sessions), then one track per corpus on the other part (its own ledger folder, gold set,
// labels, cuts, heads, check and promotion). See scripts/research.js.
import { join } from "node:path";
import { cliRunner } from "./cli.js";
import { LEFT_OUT, prepareCorpora } from "./corpus.js";
import { loadDist } from "./dist.js";
import { ENGINE_SALT, shippedEngine, trainFitEngine } from "./engine.js";
import { runTrack } from "./track.js";

export async function runLoop(opts, { repoRoot, log }) {
  const root = opts.dir;
  const dist = await loadDist(repoRoot);
  const commands = [];
  const S = { steps: [], leftOut: LEFT_OUT, tracks: {}, commands };
  let n = 0;
  async function step(name, fn) {
    n++;
    log(`\n[${n}] ${name}`);
    const t0 = Date.now();
    const result = await fn();
    S.steps.push({ n, name, seconds: Math.round((Date.now() - t0) / 100) / 10 });
    return result;
  }
  // `errata exchanges` writes into the ledger of the track that reads the transcripts.
  const cliFor = (name) => cliRunner({ repoRoot, dir: root, cwd: join(root, name), ledgerDir: join(root, name, "ledger"), log, commands });

  const corpus = await step("corpus -> exchanges", () => prepareCorpora({ cliFor, opts, repoRoot, work: join(root, "corpus"), sharedDatasets: opts.sharedDatasets, log }));
  let research = corpus;
  const engine = await step(opts.engine === "shipped" ? "engine: the shipped weights" : "engine: the embedded lane, trained on its own part of the sessions", async () => {
    if (opts.engine === "shipped") {
      const e = shippedEngine({ dist, log });
      research = keepOnly(corpus, e.keep);
      log(`  the research loop runs on the ${research.exchanges.length} of ${corpus.exchanges.length} exchanges (${sessions(research.exchanges)} sessions) the shipped weights never saw`);
      return e;
    }
    const toEngine = (e) => dist.split.hashUnit(`${ENGINE_SALT}\u0000${e.session_id}`) < opts.engineShare;
    const part = keepOnly(corpus, toEngine);
    research = keepOnly(corpus, (e) => !toEngine(e));
    log(`  sessions split by ${ENGINE_SALT} (share ${opts.engineShare}): the engine trains on ${part.exchanges.length} exchanges (${sessions(part.exchanges)} sessions), the research loop runs on the other ${research.exchanges.length} (${sessions(research.exchanges)} sessions)`);
    return trainFitEngine({ dist, exchanges: part.exchanges, labels: part.labels, work: join(root, "engine"), log });
  });
  S.engine = { ...engine, keep: undefined, config: undefined };
  S.corpora = corpus.corpora;
  for (const name of opts.corpora) {
    const { exchanges, labels } = keepOnly(research, (e) => e.corpus === name);
    S.tracks[name] = await runTrack({ name, exchanges, labels, engine, dist, opts, repoRoot, root, log, step, commands });
  }
  return S;
}

function keepOnly(corpus, keep) {
  const exchanges = corpus.exchanges.filter(keep);
  const ids = new Set(exchanges.map((e) => e.id));
  return { ...corpus, exchanges, labels: corpus.labels.filter((l) => ids.has(l.exchange_id)) };
}

const sessions = (exchanges) => new Set(exchanges.map((e) => e.session_id)).size;
