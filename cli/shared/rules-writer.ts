/**
 * What the rules recommend commands share: the writer (the engine config's generative lane,
 * `"generative"`, default "max"; none = offline, with the reason), the upgrades queue's path,
 * a whole-number flag, and the lines that print a recommendation.
 */
import { join } from "node:path";
import { badInput, describeFound, ErrataError } from "../../core/errors.js";
import { EngineConfigError, generativeFromConfig } from "../../runtime/engine/index.js";
import type { RulesRecommendReport, Writer } from "../../runtime/jobs/index.js";
import type { ErrataPaths } from "../../runtime/paths.js";
import type { CommandContext } from "./command.js";
import { println } from "./io.js";

export function writerFor(ctx: CommandContext, paths: ErrataPaths, offline: boolean): Writer {
  if (offline) return { lane: null, offlineWhy: "--offline given" };
  try {
    const g = generativeFromConfig({ paths, env: ctx.io.env });
    return g.lane === null ? { lane: null, offlineWhy: g.reason } : { lane: g.lane, offlineWhy: "" };
  } catch (err) {
    if (err instanceof EngineConfigError) throw new ErrataError("BAD_CONFIG", err.message, { expected: err.expected, found: err.found });
    throw err;
  }
}

export function upgradesFileOf(paths: ErrataPaths): string {
  return join(paths.ledgerDir, "upgrades.jsonl");
}

export function wholeNumber(flag: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw badInput(`bad ${flag}`, `a whole number >= ${min}`, describeFound(value));
  return n;
}

export function printRecommendations(ctx: CommandContext, head: string, r: RulesRecommendReport): void {
  println(ctx.io, `${head}: ${r.survivors.length} kept, ${r.dropped.length} dropped, ${r.skipped.length} clusters without one`);
  for (const s of r.survivors) {
    println(ctx.io, `  ${s.fix} #${s.rank} ${s.bucket} (${s.failures} failures in ${s.sessions} sessions${s.synthetic ? ", synthetic" : ""})`);
    println(ctx.io, `    target: ${s.target ?? "none"}`);
    println(ctx.io, s.change === null ? `    change: none. ${s.change_reason ?? ""}` : `    change: ${s.change}`);
    println(ctx.io, `    falsifier: ${s.falsifier.statement}`);
    if (s.flags.length > 0) println(ctx.io, `    flags (not drops): ${s.flags.join("; ")}`);
  }
  for (const d of r.dropped) println(ctx.io, `  dropped ${d.fix} ${d.bucket}: ${d.dropped.join("; ")}`);
  for (const k of r.skipped.slice(0, 10)) println(ctx.io, `  no recommendation for ${k.cluster_id}: ${k.reason}`);
  if (r.filing !== null) {
    println(ctx.io, `  filed ${r.filing.filed.length} (${r.filing.existing.length} already in the queue, ${r.filing.refused.length} not fileable)`);
    for (const f of r.filing.refused) println(ctx.io, `    not filed ${f.recommendation_id}: ${f.reason}`);
  }
  if (r.written) println(ctx.io, `  wrote ${r.files.survivors} and ${r.files.dropped}`);
}
