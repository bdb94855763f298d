import { existsSync } from "node:fs";
import { adjudicationReport, valueKey, type AdjudicationReport, type AgreementLabel, type Decision, type LabelValue } from "../../eval/index.js";
import { readAdjudications } from "../../runtime/pages/index.js";
import type { CommandContext } from "./command.js";
import { println, type Io } from "./io.js";
import { evalPaths, pure, resolveFrom } from "./eval-files.js";
import { withInterval } from "./eval-format.js";

/**
 * The adjudications the `eval` commands read: `--adjudications FILE`, else the eval folder's
 * `adjudications.jsonl` when it exists (none: an empty list, and the gold is the raw majority).
 *
 * Example: `loadAdjudications(ctx, undefined)` -> `{file: "<ledger>/eval/adjudications.jsonl", rows: [...]}`.
 */
export function loadAdjudications(ctx: CommandContext, file: string | undefined): { file: string | null; rows: Decision[] } {
  if (file) {
    const path = resolveFrom(ctx.io, file);
    return { file: path, rows: readAdjudications(path) };
  }
  const path = evalPaths(ctx.io).adjudications;
  return existsSync(path) ? { file: path, rows: readAdjudications(path) } : { file: null, rows: [] };
}

/** A label value as a sheet cell: yes / no, the number, the category. */
export const cellOf = (v: LabelValue): string => (typeof v === "boolean" ? (v ? "yes" : "no") : String(v));

/** The value among `given` whose cell is `cell` (yes/no, a number, a category), or null. */
export function valueFromCell(cell: string, given: readonly LabelValue[]): LabelValue | null {
  return given.find((v) => cellOf(v) === cell.trim()) ?? null;
}

/** Agreement before and after adjudication per question (questions with a disputed item only). */
export function adjudicationReports(labels: readonly AgreementLabel[], rows: readonly Decision[], questions: readonly string[], opts: { labelers?: string[] | undefined; sessionOf: ReadonlyMap<string, string>; resamples: number; seed: number; level: number }): AdjudicationReport[] {
  return questions
    .map((q) => pure(() => adjudicationReport(labels, rows, q, { sessionOf: opts.sessionOf, resamples: opts.resamples, seed: opts.seed, level: opts.level, ...(opts.labelers ? { labelers: opts.labelers } : {}) })))
    .filter((r) => r.disputed.tie + r.disputed.split > 0);
}

const k = (x: { kappa: number | null; lower: number | null; upper: number | null }): string => (x.kappa === null ? "— (undefined)" : withInterval(x.kappa, x.lower, x.upper));

export function printAdjudicationReport(io: Io, r: AdjudicationReport): void {
  const disputed = r.disputed.tie + r.disputed.split;
  println(io, `  adjudication: ${disputed} disputed items (${r.disputed.split} splits, ${r.disputed.tie} ties): ${r.decided.label} decided, ${r.decided.ambiguous} ambiguous, ${r.pending} pending${r.stale > 0 ? ` (${r.stale} stale: the labels changed since)` : ""}; ${r.overturned} overturned a majority, ${r.tiesResolved} ties resolved`);
  println(io, `    gold before: ${r.goldBefore.gold} items (${r.goldBefore.tie} ties, ${r.goldBefore.insufficient} too few labels); after: ${r.goldAfter.gold} items (${r.goldAfter.ambiguous} ambiguous, ${r.goldAfter.tie} unresolved ties, ${r.goldAfter.insufficient} too few labels)`);
  for (const l of r.labellers) println(io, `    ${l.labeler} vs the gold, Cohen's kappa: before ${k(l.before)} (${l.before.items} items), after ${k(l.after)} (${l.after.items} items)`);
}

/** Same value keys (for messages). */
export const sameValue = (a: LabelValue, b: LabelValue): boolean => valueKey(a) === valueKey(b);
