import { answerTable } from "../../composers/index.js";
import { assertSameBank, CombinerBankError, type HeadItem } from "../../combiner/index.js";
import { majorityVote } from "../../eval/index.js";
import { splitOfSession, type SplitSide } from "../../eval/index.js";
import { bank, bankHash, questionsInGroup } from "../../questions/index.js";
import type { Answer } from "../../schemas/answer.js";
import { CombinerSchema, type CombinerRecord } from "../../schemas/combiner.js";
import { DETECT_UNHAPPY } from "../../schemas/label.js";
import type { CommandContext } from "./command.js";
import { badInput } from "../../core/errors.js";
import { loadInputs, splitFrom, type ResearchInputs } from "./research-inputs.js";
import { readJson } from "./research-files.js";

/**
 * What `errata combiner fit|eval`, `classtier eval` and `promote` share: the labelled
 * exchanges joined with the engine's answers (one row per exchange, with its split side),
 * the heads' feature questions, and reading a combiner file fitted under the current bank.
 */
export interface GoldRow extends HeadItem {
  y: 0 | 1 | null;
  cls: string | null;
  side: SplitSide;
}

/** Joins answers (current bank versions) and labels into one row per labelled exchange. */
export function goldRows(inputs: ResearchInputs, opts: { target: string; classQuestion: string; holdoutShare: number; salt: string }): GoldRow[] {
  const byExchange = new Map<string, Answer[]>();
  for (const a of inputs.answers) {
    const l = byExchange.get(a.exchange_id);
    if (l) l.push(a);
    else byExchange.set(a.exchange_id, [a]);
  }
  const votes = new Map<string, { d: (boolean | number | string)[]; c: (boolean | number | string)[] }>();
  for (const l of inputs.labels) {
    if (l.question !== opts.target && l.question !== opts.classQuestion) continue;
    const v = votes.get(l.exchange_id) ?? { d: [], c: [] };
    (l.question === opts.target ? v.d : v.c).push(l.value);
    votes.set(l.exchange_id, v);
  }
  const rows: GoldRow[] = [];
  for (const id of [...votes.keys()].sort()) {
    // An exchanges or gold file defines the scope: labelled exchanges outside it are not used.
    if (inputs.sessionOf && !inputs.sessionOf.has(id)) continue;
    const v = votes.get(id)!;
    const d = majorityVote(v.d);
    const c = majorityVote(v.c);
    const y = d.status === "majority" && typeof d.value === "boolean" ? (d.value ? 1 : 0) : null;
    const cls = y === 1 && c.status === "majority" && typeof c.value === "string" && c.value !== "none" ? c.value : null;
    const session = inputs.sessionOf?.get(id) ?? id;
    const side = inputs.splitOf?.get(id) ?? (opts.holdoutShare > 0 ? splitOfSession(session, { holdoutShare: opts.holdoutShare, salt: opts.salt }) : "fit");
    rows.push({ id, session, table: answerTable(byExchange.get(id) ?? [], bank), weight: inputs.weightOf?.get(id) ?? 1, y, cls, side });
  }
  return rows;
}

export const DETECT_FEATURES = [...questionsInGroup("detect"), ...questionsInGroup("blame")].map((q) => q.id);
export const CLASS_FEATURES = [...questionsInGroup("mode"), ...questionsInGroup("cost")].map((q) => q.id);

/** Reads a combiner file and refuses one fitted under another bank (exit 2). */
export function loadCombiner(file: string, currentBank = bankHash): CombinerRecord {
  const model = readJson(file, CombinerSchema);
  try {
    assertSameBank(model, currentBank);
  } catch (err) {
    if (err instanceof CombinerBankError) throw badInput(`${file}: ${err.message}`, err.expected, err.found);
    throw err;
  }
  return model;
}

export interface CombinerOptions {
  answers?: string;
  labels?: string;
  gold?: string;
  exchanges?: string;
  weights?: string;
  holdoutShare?: string;
  splitSalt?: string;
  out?: string;
  dryRun?: boolean;
  json?: boolean;
  target?: string;
  classQuestion?: string;
  seed?: string;
  folds?: string;
  model?: string;
}

export function rowsFor(ctx: CommandContext, opts: CombinerOptions): GoldRow[] {
  const inputs = loadInputs(ctx.io.cwd, opts);
  const split = splitFrom(opts, inputs.sessionOf !== undefined);
  return goldRows(inputs, { target: opts.target ?? DETECT_UNHAPPY, classQuestion: opts.classQuestion ?? "class", holdoutShare: split?.holdoutShare ?? 0, salt: split?.salt ?? "" });
}
