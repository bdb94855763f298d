import type { ErrataPaths } from "../paths.js";
import { BudgetBook } from "./base/budget.js";
import { apiKeyFor, EngineConfigError, loadEngineSettings } from "./config.js";
import { generativeLane, type GenerateDeps, type GenerativeLane } from "./openai/generate.js";

/**
 * The generative lane the engine config names (`"generative"`, default `"max"`), or null
 * with the reason when there is none (then the rules wing writes offline and says so). A
 * lane of that name that is not an OpenAI lane is a configuration error. The budget book is
 * shared with the judging engine when given, so every M7b call draws on `errata-coverage`'s
 * one budget.
 *
 * Example `errata-engine.json`: `{"lanes": {"max": {"kind": "openai", "model": "gpt-4.1",
 * "serviceTier": "flex", "apiKeyEnv": "OPENAI_API_KEY"}}, "callers": {"errata-coverage":
 * {"requests": 5000}}}` -> a lane writing with gpt-4.1 on the flex tier.
 */
export function generativeFromConfig(opts: {
  paths: Pick<ErrataPaths, "ledgerDir">;
  env: Record<string, string | undefined>;
  configPath?: string;
  budgets?: BudgetBook;
  deps?: Partial<GenerateDeps>;
}): { lane: GenerativeLane; name: string } | { lane: null; name: string; reason: string } {
  const settings = loadEngineSettings(opts.paths, opts.env, opts.configPath);
  const name = settings.generative;
  const lane = settings.lanes[name];
  if (lane === undefined) return { lane: null, name, reason: `no generative lane: the engine config has no lane named ${name}` };
  if (lane.kind !== "openai") throw new EngineConfigError(`the generative lane ${name} is not an OpenAI lane`, "a lane of kind openai", lane.kind);
  const book = opts.budgets ?? new BudgetBook(settings.callers, settings.defaultCallerBudget, lane.budget);
  const deps: GenerateDeps = {
    sleep: opts.deps?.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms))),
    random: opts.deps?.random ?? Math.random,
    now: opts.deps?.now ?? (() => Date.now()),
    ...(opts.deps?.fetch ? { fetch: opts.deps.fetch } : {}),
  };
  return { lane: generativeLane(lane, apiKeyFor(lane, opts.env), book, deps), name };
}
