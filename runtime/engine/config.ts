import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { CodedError } from "../../core/errors.js";
import type { ErrataPaths } from "../paths.js";
import { BudgetBook } from "./base/budget.js";
import { openAnswerCache } from "./base/cache.js";
import { createEngine } from "./core.js";
import { parseWeights } from "./embedded/weights.js";
import { BudgetSchema, OpenAILaneSchema, type OpenAILaneConfig } from "./openai/config.js";
import type { OpenAIEngine } from "./openai/engine.js";
import { readAnswersFile } from "./replay/replay.js";
import { reportProblems, warnOnStderr } from "../files/index.js";
import type { Engine } from "./base/types.js";

/**
 * The engine's configuration: `errata-engine.json` in the ledger folder (or `--config FILE`),
 * then the environment on top. Named lanes, budgets per named caller, the cache switch.
 *
 * ```json
 * {"schema": "engine-config/1", "lane": "low",
 *  "lanes": {"low": {"kind": "openai", "baseURL": "http://127.0.0.1:8000/v1", "model": "qwen2.5-7b-instruct",
 *                    "serviceTier": null, "concurrency": 16, "budget": {"requests": 50000}},
 *            "max": {"kind": "openai", "model": "gpt-4.1", "serviceTier": "flex", "apiKeyEnv": "OPENAI_API_KEY"}},
 *  "reviewer": "low",
 *  "callers": {"errata-triage": {"requests": 20000, "tokens": 20000000}, "errata-coverage": {"requests": 5000}}}
 * ```
 *
 * Environment: ERRATA_ENGINE_LANE picks the lane; ERRATA_OPENAI_BASE_URL, ERRATA_OPENAI_MODEL,
 * ERRATA_OPENAI_API_KEY, ERRATA_OPENAI_SERVICE_TIER, ERRATA_OPENAI_TIMEOUT_MS, ERRATA_OPENAI_CALL_BUDGET_MS,
 * ERRATA_OPENAI_CONCURRENCY, ERRATA_OPENAI_MODE override (or create) the lane named "openai".
 * No key is needed for a server on loopback (vLLM, Ollama, llama.cpp); any other server needs one.
 *
 * Example: `loadEngineSettings(paths, {ERRATA_OPENAI_BASE_URL: "http://127.0.0.1:8000/v1",
 * ERRATA_OPENAI_MODEL: "m"}).lanes.openai.model` -> "m".
 */
export const ENGINE_CONFIG_FILE = "errata-engine.json";

const EmbeddedLaneFileSchema = z.strictObject({ kind: z.literal("embedded"), weights: z.string().optional() });
const ReplayLaneFileSchema = z.strictObject({ kind: z.literal("replay"), answers: z.string(), model: z.string().optional(), promptHash: z.string().optional() });
const LaneFileSchema = z.discriminatedUnion("kind", [OpenAILaneSchema.extend({ kind: z.literal("openai") }), EmbeddedLaneFileSchema, ReplayLaneFileSchema]);

export const EngineFileSchema = z.strictObject({
  schema: z.literal("engine-config/1").optional(),
  /** The lane `engine ask` and the daily run use unless told otherwise. */
  lane: z.string().default("embedded"),
  lanes: z.record(z.string(), LaneFileSchema).default({}),
  /** The OpenAI lane that writes text (the rules wing's recommendations): a "max" lane, flex tier. Absent lane = offline. */
  generative: z.string().default("max"),
  /**
   * The ladder's reviewer (docs/ladder.md): the OpenAI lane, of another model family than the
   * assistant whose rules it reviews, that argues against each drafted proposal. null = none
   * (offline: the review is skipped and the approval table and morning report say so).
   */
  reviewer: z.string().nullable().default(null),
  callers: z.record(z.string(), BudgetSchema).default({}),
  defaultCallerBudget: BudgetSchema.default({}),
  /** Cache model answers under the state folder. */
  cache: z.boolean().default(true),
});
export type EngineSettings = z.infer<typeof EngineFileSchema>;
export type LaneSettings = z.infer<typeof LaneFileSchema>;

/** An engine configuration that cannot be used: code BAD_CONFIG, kind `config` (exit 2). */
export class EngineConfigError extends CodedError {
  declare readonly code: "BAD_CONFIG";
  declare readonly expected: string;
  declare readonly found: string;
  constructor(message: string, expected: string, found: string) {
    super("config", "BAD_CONFIG", message, { expected, found });
    this.name = "EngineConfigError";
  }
}

function num(env: Record<string, string | undefined>, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === "") return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new EngineConfigError(`${name} must be a number`, "a number", JSON.stringify(v));
  return n;
}

/** Reads the file (when present) and applies the environment. */
export function loadEngineSettings(paths: Pick<ErrataPaths, "ledgerDir">, env: Record<string, string | undefined>, configPath?: string): EngineSettings & { source: string | null } {
  const path = configPath ?? join(paths.ledgerDir, ENGINE_CONFIG_FILE);
  let raw: unknown = {};
  let source: string | null = null;
  if (existsSync(path)) {
    source = path;
    try {
      raw = JSON.parse(readFileSync(path, "utf8"));
    } catch (e) {
      throw new EngineConfigError(`${path} is not valid JSON`, "a JSON object", (e as Error).message);
    }
  } else if (configPath !== undefined) {
    throw new EngineConfigError(`config file not found: ${configPath}`, "an existing file", "nothing");
  }
  const parsed = EngineFileSchema.safeParse(raw);
  if (!parsed.success) {
    const i = parsed.error.issues[0];
    throw new EngineConfigError(`${path}: invalid engine config`, "engine-config/1", i ? `${i.path.join(".")}: ${i.message}` : "invalid");
  }
  const settings = parsed.data;
  const envLane: Record<string, unknown> = {};
  const set = (key: string, v: unknown): void => {
    if (v !== undefined && v !== "") envLane[key] = v;
  };
  set("baseURL", env["ERRATA_OPENAI_BASE_URL"]);
  set("model", env["ERRATA_OPENAI_MODEL"]);
  set("apiKey", env["ERRATA_OPENAI_API_KEY"]);
  set("serviceTier", env["ERRATA_OPENAI_SERVICE_TIER"]);
  set("timeoutMs", num(env, "ERRATA_OPENAI_TIMEOUT_MS"));
  set("callBudgetMs", num(env, "ERRATA_OPENAI_CALL_BUDGET_MS"));
  set("concurrency", num(env, "ERRATA_OPENAI_CONCURRENCY"));
  set("mode", env["ERRATA_OPENAI_MODE"]);
  if (Object.keys(envLane).length > 0) {
    const existing = settings.lanes["openai"];
    const merged = { ...(existing?.kind === "openai" ? existing : { kind: "openai" }), ...envLane };
    const r = LaneFileSchema.safeParse(merged);
    if (!r.success) {
      const i = r.error.issues[0];
      throw new EngineConfigError("the ERRATA_OPENAI_* settings do not make a valid lane", "a base URL and a model (ERRATA_OPENAI_MODEL)", i ? `${i.path.join(".")}: ${i.message}` : "invalid");
    }
    settings.lanes["openai"] = r.data;
  }
  if (env["ERRATA_ENGINE_LANE"]) settings.lane = env["ERRATA_ENGINE_LANE"];
  return { ...settings, source };
}

function isLoopback(url: string): boolean {
  try {
    const h = new URL(url).hostname;
    return h === "127.0.0.1" || h === "localhost" || h === "::1" || h === "[::1]";
  } catch {
    return false;
  }
}

export function apiKeyFor(lane: OpenAILaneConfig, env: Record<string, string | undefined>): string {
  const key = lane.apiKey ?? env[lane.apiKeyEnv] ?? env["OPENAI_API_KEY"];
  if (key) return key;
  if (isLoopback(lane.baseURL)) return "not-needed";
  throw new EngineConfigError(`no API key for ${lane.baseURL}`, `the key in ${lane.apiKeyEnv} (or OPENAI_API_KEY)`, "no key");
}

export interface EngineFromConfigOptions {
  paths: Pick<ErrataPaths, "ledgerDir" | "stateDir">;
  env: Record<string, string | undefined>;
  configPath?: string;
  /** Lane name; default the config's `lane`. "embedded" and "replay" need no entry. */
  lane?: string;
  /** Replay lane: the answers file (overrides the config). */
  answersPath?: string;
  /** Turn the cache off entirely (not the same as `noCache` on one ask, which still writes). */
  cache?: boolean;
  now?: () => number;
  /** Share budgets between engines made from the same config. */
  budgets?: BudgetBook;
  /** Where unreadable lines of a replay answers file are reported (default: stderr). */
  warn?: (line: string) => void;
}

/**
 * The engine the config names. The OpenAI lane caches under `<state>/engine-cache.jsonl`.
 * Example: `engineFromConfig({paths, env: process.env})` -> the embedded engine with shipped weights.
 */
export function engineFromConfig(opts: EngineFromConfigOptions): { engine: Engine | OpenAIEngine; laneName: string; settings: EngineSettings & { source: string | null }; cachePath: string | null } {
  const settings = loadEngineSettings(opts.paths, opts.env, opts.configPath);
  const laneName = opts.lane ?? settings.lane;
  const lane: LaneSettings | undefined = settings.lanes[laneName] ?? (laneName === "embedded" ? { kind: "embedded" } : undefined);
  const common = opts.now ? { now: opts.now } : {};
  const replayAnswers = (path: string) => {
    const r = readAnswersFile(path);
    reportProblems(r.problems, opts.warn ?? warnOnStderr);
    return r.answers;
  };
  if (lane === undefined && laneName === "replay" && opts.answersPath) {
    return { engine: createEngine({ lane: "replay", answers: replayAnswers(opts.answersPath), ...common }), laneName, settings, cachePath: null };
  }
  if (lane === undefined) {
    throw new EngineConfigError(`no lane named ${laneName}`, `one of: embedded${Object.keys(settings.lanes).length ? `, ${Object.keys(settings.lanes).join(", ")}` : ""}`, laneName);
  }
  if (lane.kind === "embedded") {
    const weights = lane.weights ? parseWeights(readFileSync(lane.weights, "utf8"), lane.weights) : undefined;
    return { engine: createEngine({ lane: "embedded", ...(weights ? { weights } : {}), ...common }), laneName, settings, cachePath: null };
  }
  if (lane.kind === "replay") {
    const filter = { ...(lane.model ? { model: lane.model } : {}), ...(lane.promptHash ? { promptHash: lane.promptHash } : {}) };
    return { engine: createEngine({ lane: "replay", answers: replayAnswers(opts.answersPath ?? lane.answers), filter, ...common }), laneName, settings, cachePath: null };
  }
  const useCache = (opts.cache ?? true) && settings.cache;
  const cachePath = useCache ? join(opts.paths.stateDir, "engine-cache.jsonl") : null;
  const home = opts.env["HOME"];
  const engine = createEngine({
    lane: "openai",
    openai: lane,
    apiKey: apiKeyFor(lane, opts.env),
    callers: settings.callers,
    defaultCallerBudget: settings.defaultCallerBudget,
    cache: cachePath ? openAnswerCache(cachePath) : null,
    ...(home ? { home } : {}),
    ...(opts.budgets ? { budgets: opts.budgets } : {}),
    ...common,
  });
  return { engine, laneName, settings, cachePath };
}
