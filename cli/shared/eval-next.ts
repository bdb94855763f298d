import { existsSync } from "node:fs";
import { activeInclusion, DEFAULT_ERROR_MODEL, majorityVote, mulberry32, recalibrate } from "../../eval/index.js";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { LabelSchema } from "../../schemas/label.js";
import { PredictionSchema } from "../../schemas/prediction.js";
import type { CommandContext } from "./command.js";
import { badInput } from "../../core/errors.js";
import { printJson, println } from "./io.js";
import { readJsonlStrict, readText, resolveFrom } from "./eval-files.js";
import { writeAtomic } from "./research-files.js";

/**
 * `errata eval sample --next K`: the next round of active labelling (`eval/active.ts`). Every
 * exchange not yet labelled gets an inclusion probability proportional to the square root of
 * its expected squared error (the judge's P(yes), `p_failure` of `--failure-detector` in
 * `--failures`; the error learned from the labels so far in five equal-count bins of P(yes),
 * `DEFAULT_ERROR_MODEL`), summing to K; a seeded Poisson draw picks
 * the items, proposed in order of probability. The round (every open item's probability, the
 * prediction the estimator uses, and whether it was drawn) is appended to `active.jsonl`, so the
 * estimate can be made unbiased later.
 *
 * Example: `errata eval sample --next 20 --failures v4.jsonl --exchanges ex.jsonl` → "round 1:
 * proposed 19 items (expected 20) of 597 open ..., written to <ledger>/eval/active.jsonl".
 */
export interface NextFlags {
  next: string;
  failures?: string;
  failureDetector: string;
  exchanges: string[];
  labels?: string[];
  detectQuestion: string;
  seed: number;
  outDir: string;
  dryRun?: boolean;
  json?: boolean;
}

export interface ActiveRecord {
  schema: "active-draw/1";
  round: number;
  seed: number;
  exchange_id: string;
  p_yes: number;
  /** The prediction the round's difference estimator uses for this item (the judge's P(yes) under the default error model, clamped to [0.005, 0.995]). */
  f: number;
  pi: number;
  drawn: boolean;
  /** Labelled before the round (so drawn with probability 1, and not proposed). Absent in rows of older files. */
  labelled?: boolean;
}

/**
 * A round's proposed items, in the order to label them: drawn and not labelled before the
 * round, highest inclusion probability first (ties by id). Rows of older files carry no
 * `labelled`; there an item drawn with probability 1 is taken as labelled.
 */
export function proposedOf(rows: readonly ActiveRecord[]): ActiveRecord[] {
  return rows.filter((r) => r.drawn && !(r.labelled ?? r.pi >= 1)).sort((a, b) => b.pi - a.pi || a.exchange_id.localeCompare(b.exchange_id));
}

/** The last round of an `active.jsonl` (null when the file is absent or empty). */
export function lastActiveRound(file: string): { round: number; rows: ActiveRecord[]; all: ActiveRecord[] } | null {
  if (!existsSync(file)) return null;
  const all = readText(file).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as ActiveRecord);
  if (all.length === 0) return null;
  const round = all.reduce((m, r) => Math.max(m, r.round), 0);
  return { round, rows: all.filter((r) => r.round === round), all };
}

export function runNext(ctx: CommandContext, flags: NextFlags): void {
  const k = Number(flags.next);
  if (!Number.isInteger(k) || k < 1) throw badInput("bad --next", "a whole number of items >= 1", JSON.stringify(flags.next));
  if (!flags.failures) throw badInput("--next needs the judge's P(yes)", "--failures FILE with prediction/1 rows carrying p_failure", "no --failures");
  const preds = readJsonlStrict(resolveFrom(ctx.io, flags.failures), PredictionSchema, "prediction/1").filter((p) => p.detector === flags.failureDetector && p.detected !== null);
  const exchanges = new Set(flags.exchanges.flatMap((f) => readJsonlStrict(f, ExchangeSchema, "exchange/1")).map((e) => e.id));
  const pOf = new Map<string, number>();
  for (const p of preds) if (exchanges.has(p.exchange_id)) pOf.set(p.exchange_id, typeof p.p_failure === "number" ? p.p_failure : p.detected ? 1 : 0);
  if (pOf.size === 0) throw badInput(`no scored predictions of ${flags.failureDetector} for the exchanges`, "prediction/1 rows with p_failure or detected", "none");
  const labelFiles = (flags.labels ?? []).map((f) => resolveFrom(ctx.io, f)).filter((f) => existsSync(f));
  const votes = new Map<string, (boolean | number | string)[]>();
  for (const f of labelFiles) for (const l of readJsonlStrict(f, LabelSchema, "label/1")) if (l.question === flags.detectQuestion) votes.set(l.exchange_id, [...(votes.get(l.exchange_id) ?? []), l.value]);
  const y = new Map<string, number>();
  for (const [id, v] of votes) {
    const m = majorityVote(v, 2);
    if (m.status === "majority" && typeof m.value === "boolean") y.set(id, m.value ? 1 : 0);
  }
  const activeFile = `${flags.outDir}/active.jsonl`;
  const earlier = existsSync(activeFile) ? readText(activeFile).split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as ActiveRecord) : [];
  const round = earlier.reduce((m, r) => Math.max(m, r.round), 0) + 1;
  const weightOf = new Map<string, number>();
  for (const r of earlier) if (r.drawn) weightOf.set(r.exchange_id, 1 / r.pi);
  const ids = [...pOf.keys()].sort();
  const open = ids.filter((id) => !y.has(id));
  if (open.length === 0) throw badInput("nothing left to propose", "exchanges without a majority label", `all ${ids.length} labelled`);
  if (k > open.length) throw badInput("bad --next", `at most the ${open.length} open items`, String(k));
  const labelled = ids.filter((id) => y.has(id));
  const cal = recalibrate(labelled.map((id) => pOf.get(id)!), labelled.map((id) => y.get(id)!), labelled.map((id) => weightOf.get(id) ?? 1));
  const known = new Set(labelled.map((id) => ids.indexOf(id)));
  const { pi, f } = activeInclusion(ids.map((id) => pOf.get(id)!), k, cal, 0.2, { p: labelled.map((id) => pOf.get(id)!), y: labelled.map((id) => y.get(id)!), w: labelled.map((id) => weightOf.get(id) ?? 1) }, known);
  const seed = (flags.seed + round * 0x9e3779b1) >>> 0;
  const rnd = mulberry32(seed);
  const rows: ActiveRecord[] = ids.map((id, i) => {
    const isKnown = known.has(i);
    const drawn = isKnown || rnd() < pi[i]!;
    return { schema: "active-draw/1", round, seed, exchange_id: id, p_yes: pOf.get(id)!, f: f[i]!, pi: pi[i]!, drawn, labelled: isKnown };
  });
  const proposed = proposedOf(rows);
  if (!flags.dryRun) writeAtomic(activeFile, [...earlier, ...rows].map((r) => JSON.stringify(r)).join("\n") + "\n");
  const summary = { round, seed, expected: k, proposed: proposed.map((r) => ({ exchange_id: r.exchange_id, pi: r.pi, p_yes: r.p_yes })), open: open.length, labelled: labelled.length, errorModel: DEFAULT_ERROR_MODEL, calibration: cal, file: activeFile, written: !flags.dryRun };
  if (flags.json) {
    printJson(ctx.io, summary);
    return;
  }
  println(ctx.io, `round ${round}: proposed ${proposed.length} items (expected ${k}) of ${open.length} open; ${labelled.length} labelled so far; ${labelled.length === 0 ? "expected squared error P(yes)(1 - P(yes)) before any label" : `the judge's expected squared error learned from them in ${DEFAULT_ERROR_MODEL.bins} equal-count bins of P(yes)`}`);
  for (const r of proposed) println(ctx.io, `  ${r.exchange_id}  pi ${r.pi.toFixed(4)}  P(yes) ${r.p_yes.toFixed(3)}`);
  println(ctx.io, `${flags.dryRun ? "would append" : "appended"} the round's inclusion probabilities (${rows.length} items) to ${activeFile}`);
}
