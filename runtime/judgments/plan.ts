import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import type { ModeId } from "../../questions/index.js";
import type { Exchange } from "../../schemas/exchange.js";
import { readLabels, type ReadOptions } from "./files.js";
import { planFromLabels } from "./report.js";

/**
 * The synthetic generator's plan for a set of exchanges, for the v4 report's planted found /
 * missed / false alarms. Read from the label files given, else from `labels.jsonl` beside each
 * exchanges file (where `errata import synthetic --out` writes it, and where the demo puts
 * it). Only synthetic exchanges are looked up; none means no plan is read at all.
 *
 * Example: the demo's v4 folder with datasets/synthetic/labels.jsonl copied beside its
 * exchanges -> `{planted: 112 exchanges, covered: 519, files: [".../v4/labels.jsonl"]}`.
 */
export function readPlan(
  exchanges: readonly Exchange[],
  exchangeFiles: readonly string[],
  labelFiles?: readonly string[],
  opts: ReadOptions = {},
): { planted: Map<string, ModeId[]>; covered: Set<string>; files: string[] } {
  const syntheticIds = new Set(exchanges.filter((e) => e.synthetic).map((e) => e.id));
  const files = syntheticIds.size === 0 ? [] : [...(labelFiles ?? exchangeFiles.map((f) => join(dirname(f), "labels.jsonl")).filter((f) => existsSync(f)))];
  const planted = new Map<string, ModeId[]>();
  const covered = new Set<string>();
  for (const f of files) {
    const plan = planFromLabels(readLabels(f, opts).rows, syntheticIds);
    for (const [k, v] of plan.planted) planted.set(k, v);
    for (const id of plan.covered) covered.add(id);
  }
  return { planted, covered, files };
}
