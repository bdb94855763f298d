import type { ErrataPaths } from "../../paths.js";
import { loadDailyConfig, type ResolvedDailyConfig } from "./config.js";
import { cachedLedger, type StageContext } from "./context.js";
import type { DailyDeps } from "./daily.js";
import { openAiProseLane, type ProseLane } from "./enrich-openai.js";
import { dailyFiles } from "./files.js";
import { ledgerPort } from "./ledger-port.js";
import { storePort } from "./store-port.js";
import type { ErrataStore } from "../../stores/index.js";
import { readPromoted } from "../../judgments/index.js";
import { classHeadJudge } from "./promoted.js";
import { createEngine, type Engine } from "../../engine/index.js";
import { apiKeyFor, engineFromConfig, loadEngineSettings } from "../../engine/index.js";
import { engineEnricher, v3Judge, type ClassJudge } from "./enrich-embedded.js";
import { runDailyV4 } from "./v4-pass.js";
import { runMine } from "./mine-stage.js";
import { reviewerFromConfig } from "../../ladder/index.js";

/** The engine caller the daily run's judgments are paid by. */
export const CALLER = "errata-triage";

/**
 * Builds the stage context and the real dependencies (the store, mining, the engine, the
 * v4 pass, the promoted configuration) from paths, environment and clock. The CLI, the demo
 * and the benchmark call this; tests build their own deps to inject faults.
 *
 * Example: `const { ctx, deps } = wireDaily({paths, env, cwd, now: () => Date.now(), dryRun: false, log})`.
 */
export interface WireInput {
  paths: ErrataPaths;
  env: Record<string, string | undefined>;
  cwd: string;
  now: () => number;
  dryRun: boolean;
  log: (line: string) => void;
  /** Injected transport for the OpenAI lane (tests). */
  fetch?: typeof fetch;
  /**
   * A server's store and the tenant whose errata the run reads and patches (PostgreSQL for a
   * team); absent: the ledger in `paths`. Everything else the run keeps (state, receipts, the
   * v4 and ladder folders) stays in `paths` either way.
   */
  store?: { store: ErrataStore; tenant: string };
}

export function stageContext(input: WireInput, cfg: ResolvedDailyConfig = loadDailyConfig(input.paths, input.env, input.cwd)): StageContext {
  return {
    nowMs: input.now,
    dryRun: input.dryRun,
    files: dailyFiles(input.paths, input.env, input.cwd),
    cfg,
    ledger: cachedLedger(
      input.store
        ? storePort(input.store.store, input.store.tenant, { paths: input.paths, now: input.now, warn: input.log })
        : ledgerPort(input.paths, { now: input.now, warn: input.log }),
    ),
    log: input.log,
  };
}

/**
 * The OpenAI lane for enrichment prose: the daily config's own `openai` section when it has
 * one (and its key variable is set), else the engine config's lane (see `enrich_lane`),
 * else none (offline). A lane that cannot be built (no key for a remote server) is none,
 * and `problem` says why.
 */
export function proseLaneFor(cfg: ResolvedDailyConfig, fetchImpl?: typeof fetch, engine?: { paths: ErrataPaths; env: Record<string, string | undefined> }): ProseLane | null {
  return proseLaneWithReason(cfg, fetchImpl, engine).lane;
}

export function proseLaneWithReason(
  cfg: ResolvedDailyConfig,
  fetchImpl?: typeof fetch,
  engine?: { paths: ErrataPaths; env: Record<string, string | undefined> },
): { lane: ProseLane | null; problem: string | null } {
  const o = cfg.config.openai;
  if (!o) {
    if (!engine) return { lane: null, problem: null };
    try {
      const settings = loadEngineSettings(engine.paths, engine.env);
      const name = cfg.config.enrich_lane ?? (settings.lanes[settings.lane]?.kind === "openai" ? settings.lane : settings.lanes["openai"]?.kind === "openai" ? "openai" : null);
      if (name === null) return { lane: null, problem: null };
      const lane = settings.lanes[name];
      if (!lane || lane.kind !== "openai") return { lane: null, problem: `enrich_lane ${name} is not an OpenAI lane of the engine config: prose left empty` };
      return {
        lane: openAiProseLane({
          apiKey: apiKeyFor(lane, engine.env),
          model: lane.model,
          baseURL: lane.baseURL,
          ...(lane.timeoutMs !== undefined ? { timeoutMs: lane.timeoutMs } : {}),
          ...(lane.serviceTier !== null ? { serviceTier: lane.serviceTier } : {}),
          ...(fetchImpl !== undefined ? { fetch: fetchImpl } : {}),
        }),
        problem: null,
      };
    } catch (err) {
      return { lane: null, problem: `no OpenAI lane for enrichment (${(err as Error).message}): prose left empty` };
    }
  }
  if (cfg.openaiKey === null) return { lane: null, problem: `openai configured in daily.json but ${o.api_key_env} is not set: prose left empty` };
  return { lane: buildDailyLane(cfg, o, fetchImpl), problem: null };
}

function buildDailyLane(cfg: ResolvedDailyConfig, o: NonNullable<ResolvedDailyConfig["config"]["openai"]>, fetchImpl?: typeof fetch): ProseLane {
  return openAiProseLane({
    apiKey: cfg.openaiKey ?? "",
    model: o.model,
    timeoutMs: o.timeout_ms,
    ...(o.base_url !== undefined ? { baseURL: o.base_url } : {}),
    ...(o.service_tier !== undefined ? { serviceTier: o.service_tier } : {}),
    ...(fetchImpl !== undefined ? { fetch: fetchImpl } : {}),
  });
}

export function wireDaily(input: WireInput): { ctx: StageContext; deps: DailyDeps } {
  const cfg = loadDailyConfig(input.paths, input.env, input.cwd);
  const ctx = stageContext(input, cfg);
  const promoted = readPromoted(ctx.files.promoted);
  // One engine for the whole run, created on first use (the embedded lane, offline).
  let engine: Promise<Engine> | null = null;
  const getEngine = (): Promise<Engine> => (engine ??= Promise.resolve(createEngine({ lane: "embedded", now: input.now })));
  // The v4 pass runs on the engine config's default lane (the embedded one unless configured).
  let v4Engine: Promise<Engine> | null = null;
  const getV4Engine = (): Promise<Engine> => (v4Engine ??= Promise.resolve(engineFromConfig({ paths: input.paths, env: input.env, now: input.now }).engine));
  const prose = proseLaneWithReason(cfg, input.fetch, { paths: input.paths, env: input.env });
  if (prose.problem !== null) input.log(`errata daily: ${prose.problem}`);
  if (promoted.problem !== null) input.log(`errata daily: ${promoted.problem}`);
  const head = promoted.promoted?.class_level === "class_head" ? promoted.promoted.heads.class : null;
  const judge = async (): Promise<ClassJudge> => (head ? classHeadJudge(await getEngine(), CALLER, head) : v3Judge(await getEngine(), CALLER));
  const deps: DailyDeps = {
    mine: (req) => runMine(req, { paths: input.paths, ledger: ctx.ledger, env: input.env, nowMs: input.now }),
    embedded: async () => engineEnricher(await getEngine(), { caller: CALLER, classJudge: await judge() }),
    classJudge: judge,
    prose: prose.lane,
    v4: (req) => runDailyV4(req, { paths: input.paths, ledger: ctx.ledger, engine: getV4Engine, promoted: promoted.promoted, home: input.env["HOME"], nowMs: input.now }),
    promoted: promoted.describe,
    // The ladder's reviewer lane (engine config `reviewer`), made when the ladder stage runs: a bad config fails that advisory stage only.
    reviewer: () => reviewerFromConfig({ paths: input.paths, env: input.env }).reviewer,
  };
  return { ctx, deps };
}
