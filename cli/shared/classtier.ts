import { join, resolve } from "node:path";
import type { CachedAnswer } from "../../classtier/index.js";
import { EngineConfigError, engineFromConfig } from "../../runtime/engine/index.js";
import { createEngine, type Engine } from "../../runtime/engine/index.js";
import { AnswerSchema } from "../../schemas/answer.js";
import { ClassTierAnswerSchema } from "../../schemas/classtier.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { CommandContext } from "./command.js";
import { badInput, ErrataError } from "../../core/errors.js";
import { fileExists, readJsonl } from "./research-files.js";

/**
 * The files and engine of `errata classtier ask|eval`: answers cached in
 * `<v4>/classtier.jsonl`, the shipped level in `<v4>/classtier-level.json` (with the prompt
 * hash: the runtime uses the judge only while that hash is current).
 */
export function classTierFiles(ctx: CommandContext): { cache: string; level: string } {
  const v4 = resolvePaths(ctx.io.env, ctx.io.cwd).v4Dir;
  return { cache: join(v4, "classtier.jsonl"), level: join(v4, "classtier-level.json") };
}

export function readCache(file: string): CachedAnswer[] {
  return fileExists(file) ? readJsonl(file, ClassTierAnswerSchema).map((r) => ({ prompt_hash: r.prompt_hash, answer: r.answer })) : [];
}

/**
 * The engine `classtier ask` uses: `--replay FILE` answers from a stored answers file;
 * otherwise the lane the engine config names (`errata-engine.json`, ERRATA_ENGINE_LANE;
 * `--lane` overrides), which is the embedded lane with the shipped weights unless configured.
 */
export function classTierEngine(ctx: CommandContext, opts: { replay?: string; lane?: string }): Engine {
  if (opts.replay !== undefined && opts.lane !== undefined) throw badInput("--replay and --lane together", "one engine: --replay FILE or --lane NAME", `--replay ${opts.replay} --lane ${opts.lane}`);
  if (opts.replay !== undefined) return createEngine({ lane: "replay", answers: readJsonl(resolve(ctx.io.cwd, opts.replay), AnswerSchema) });
  try {
    return engineFromConfig({ paths: resolvePaths(ctx.io.env, ctx.io.cwd), env: ctx.io.env, now: ctx.io.now, ...(opts.lane !== undefined ? { lane: opts.lane } : {}) }).engine;
  } catch (err) {
    if (err instanceof EngineConfigError) throw new ErrataError("BAD_CONFIG", err.message, { expected: err.expected, found: err.found });
    throw err;
  }
}
