import type { ErrataPaths } from "../paths.js";
import { loadDailyConfig, type ResolvedDailyConfig } from "./config.js";
import { cachedLedger, type StageContext } from "./context.js";
import type { DailyDeps } from "./daily.js";
import { openAiProseLane, type ProseLane } from "./enrich-openai.js";
import { dailyFiles } from "./files.js";
import { ledgerPort } from "./ledger-port.js";
import { classHeadJudge, promotedCuts, readPromoted } from "./promoted.js";
import { createEngine, type Engine } from "../../engine/index.js";
import { engineEnricher, v3Judge, type ClassJudge } from "./enrich-embedded.js";
import { runDailyV4 } from "./v4-pass.js";

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
}

export function stageContext(input: WireInput, cfg: ResolvedDailyConfig = loadDailyConfig(input.paths, input.env, input.cwd)): StageContext {
  return {
    nowMs: input.now,
    dryRun: input.dryRun,
    files: dailyFiles(input.paths, input.env, input.cwd),
    cfg,
    ledger: cachedLedger(ledgerPort(input.paths, { now: input.now, warn: input.log })),
    log: input.log,
  };
}

export function proseLaneFor(cfg: ResolvedDailyConfig, fetchImpl?: typeof fetch): ProseLane | null {
  const o = cfg.config.openai;
  if (!o || cfg.openaiKey === null) return null;
  return openAiProseLane({
    apiKey: cfg.openaiKey,
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
  const cuts = promotedCuts(promoted.promoted);
  if (promoted.problem !== null) input.log(`errata daily: ${promoted.problem}`);
  const head = promoted.promoted?.class_level === "class_head" ? promoted.promoted.heads.class : null;
  const judge = async (): Promise<ClassJudge> => (head ? classHeadJudge(await getEngine(), CALLER, head) : v3Judge(await getEngine(), CALLER));
  const deps: DailyDeps = {
    mine: null,
    embedded: async () => engineEnricher(await getEngine(), { caller: CALLER, classJudge: await judge() }),
    classJudge: judge,
    prose: proseLaneFor(cfg, input.fetch),
    v4: (req) => runDailyV4(req, { paths: input.paths, ledger: ctx.ledger, engine: getEngine, cuts, home: input.env["HOME"], nowMs: input.now }),
    promoted: promoted.describe,
  };
  return { ctx, deps };
}
