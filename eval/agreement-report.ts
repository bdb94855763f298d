import { categoriesOf, countsPerUnit, valueKey, type LabelValue } from "./categories.js";
import { cohenStatistic } from "./cohen-kappa.js";
import { combineStatistics } from "./combine-statistics.js";
import { EvalInputError } from "./errors.js";
import { fleissStatistic } from "./fleiss-kappa.js";
import { alphaStatistic, type AlphaMetric } from "./krippendorff-alpha.js";
import { majorityVote } from "./majority.js";
import { rawAgreementStatistic } from "./raw-agreement.js";
import { sessionBlockBootstrap, sumItems, type BlockStatistic, type BootstrapResult } from "./session-block-bootstrap.js";

/**
 * Agreement per question from label rows (one labeller's answer to one question for one
 * item): raw agreement, Fleiss' kappa over every item with 2+ labels (variable raters) and
 * over the items every listed labeller answered (fixed raters), Krippendorff's alpha
 * (nominal; plus interval for numeric rating scales), Cohen's kappa for every pair of
 * labellers, the 2-of-3 majority with ties counted, and session-block bootstrap intervals
 * for every kappa and alpha from one paired resampling per question.
 *
 * Policy: a duplicate (item, labeller, question) or a question mixing value types throws
 * BAD_VALUE; a figure that is undefined (one labeller, no shared items, no variation) is
 * `null` with a reason, never 0.
 *
 * Example: AB-ReDial with its first three raters r1, r2, r3 → "satisfaction" fleissFixed
 * 0.2191 over 599 items, "detect.unhappy" fleissFixed 0.3449, 3 Cohen pairs each; with all
 * raters, fleissVariable 0.2321 and 0.3763 over 600 items, satisfaction alpha.interval 0.4450.
 */
export interface AgreementLabel {
  exchange_id: string;
  labeler: string;
  question: string;
  value: LabelValue;
}

export interface AgreementOptions {
  /** Labellers to use, in this order; default every labeller seen, sorted. */
  labelers?: readonly string[];
  /** Questions to report; default every question seen, sorted. */
  questions?: readonly string[];
  /** Session of each item for block resampling; items without one are their own block. */
  sessionOf?: ReadonlyMap<string, string>;
  resamples: number;
  seed: number;
  level?: number;
  /** Votes a majority needs (default 2: the 2-of-3 rule). */
  minVotes?: number;
}

export interface Figure {
  value: number | null;
  lower: number | null;
  upper: number | null;
  emptyReplicates: number;
  /** Items (or units) that entered the point figure. */
  items: number;
  reason: string | null;
}

export interface QuestionAgreement {
  question: string;
  kind: "yes/no" | "rating" | "category";
  labelers: string[];
  /** Items with at least one label from the listed labellers. */
  items: number;
  raw: { pairwise: number | null; unanimous: number | null; items: number };
  fleissVariable: Figure & { po: number | null; pe: number | null };
  fleissFixed: Figure & { po: number | null; pe: number | null };
  alpha: { nominal: Figure; interval: Figure | null };
  cohen: (Figure & { a: string; b: string; po: number | null })[];
  majority: { majority: number; tie: number; insufficient: number; minVotes: number };
  /**
   * The intervals, named for what they resample: "session-block percentile bootstrap" when
   * every item has a session; "item percentile bootstrap" when none has (items resampled one
   * by one: too narrow when items of a session are correlated); "session-block percentile
   * bootstrap, N items alone" in between.
   */
  bootstrap: (Omit<BootstrapResult, "figures" | "items" | "method"> & { method: string; itemsWithoutSession: number }) | null;
}

function kindOf(question: string, values: readonly LabelValue[]): QuestionAgreement["kind"] {
  const types = new Set(values.map((v) => typeof v));
  if (types.size > 1) throw new EvalInputError("BAD_VALUE", `labels of question ${question} mix value types`, "one type per question", [...types].join(" and "));
  const t = [...types][0];
  return t === "boolean" ? "yes/no" : t === "number" ? "rating" : "category";
}

function fig(value: number | null | undefined, items: number, reason: string): Figure {
  const v = value === undefined || value === null || !Number.isFinite(value) ? null : value;
  return { value: v, lower: null, upper: null, emptyReplicates: 0, items, reason: v === null ? reason : null };
}

/** Agreement for one question's labels (already filtered to that question). */
export function questionAgreement(question: string, rows: readonly AgreementLabel[], opts: AgreementOptions): QuestionAgreement {
  const labelers = opts.labelers ? [...opts.labelers] : [...new Set(rows.map((r) => r.labeler))].sort();
  const lIndex = new Map(labelers.map((l, i) => [l, i]));
  const itemIndex = new Map<string, number>();
  const grid: (LabelValue | null)[][] = [];
  for (const r of rows) {
    const li = lIndex.get(r.labeler);
    if (li === undefined) continue;
    let ii = itemIndex.get(r.exchange_id);
    if (ii === undefined) {
      ii = grid.length;
      itemIndex.set(r.exchange_id, ii);
      grid.push(new Array<LabelValue | null>(labelers.length).fill(null));
    }
    const row = grid[ii]!;
    if (row[li] !== null) {
      throw new EvalInputError("BAD_VALUE", `duplicate label for question ${question}`, "one label per item and labeller", `two from ${r.labeler} for ${r.exchange_id}`);
    }
    row[li] = r.value;
  }
  const items = [...itemIndex.keys()];
  const units = grid.map((row) => row.filter((v): v is LabelValue => v !== null));
  const kind = kindOf(question, units.flat());
  const { values: cats, index } = categoriesOf(units);
  const counts = countsPerUnit(units, index);
  const zero = new Float64Array(cats.length);
  const complete = grid.map((row) => row.every((v) => v !== null));
  const fixedCounts = counts.map((c, i) => (complete[i] ? c : zero));
  const numeric = kind === "rating";
  const nominalValues = cats.map((_, i) => i);

  const parts: [string, BlockStatistic][] = [
    ["raw", rawAgreementStatistic(counts)],
    ["fleissVariable", fleissStatistic(counts)],
    ["fleissFixed", fleissStatistic(fixedCounts)],
    ["alphaNominal", alphaStatistic(counts, nominalValues, "nominal" as AlphaMetric)],
  ];
  if (numeric) parts.push(["alphaInterval", alphaStatistic(counts, cats as number[], "interval")]);
  const pairs: [number, number][] = [];
  for (let a = 0; a < labelers.length; a++) for (let b = a + 1; b < labelers.length; b++) pairs.push([a, b]);
  const idx = (v: LabelValue | null): number | null => (v === null ? null : (index.get(valueKey(v)) as number));
  for (const [a, b] of pairs) {
    parts.push([`cohen${a}_${b}`, cohenStatistic(grid.map((r) => idx(r[a] ?? null)), grid.map((r) => idx(r[b] ?? null)), cats.length)]);
  }
  const stat = combineStatistics(parts);
  const sums = sumItems(stat);
  const point = stat.finish(sums);
  const at = (name: string): number | null => point[stat.names.indexOf(name)] ?? null;

  const pairable = units.filter((u) => u.length >= 2).length;
  const completeN = complete.filter(Boolean).length;
  const oneCat = "no variation: every label is the same";
  const fv = { ...fig(at("fleissVariable.kappa"), pairable, pairable === 0 ? "no item has 2 or more labels" : oneCat), po: at("fleissVariable.po"), pe: at("fleissVariable.pe") };
  const ff = { ...fig(at("fleissFixed.kappa"), completeN, completeN === 0 ? "no item has a label from every listed labeller" : oneCat), po: at("fleissFixed.po"), pe: at("fleissFixed.pe") };
  const an = fig(at("alphaNominal.alpha"), pairable, pairable === 0 ? "no item has 2 or more labels" : oneCat);
  const ai = numeric ? fig(at("alphaInterval.alpha"), pairable, pairable === 0 ? "no item has 2 or more labels" : oneCat) : null;
  const cohen = pairs.map(([a, b]) => {
    const shared = grid.filter((r) => r[a] !== null && r[b] !== null).length;
    return {
      ...fig(at(`cohen${a}_${b}.kappa`), shared, shared === 0 ? "the two labellers share no item" : "chance agreement is 1: both used one and the same value"),
      a: labelers[a]!,
      b: labelers[b]!,
      po: at(`cohen${a}_${b}.po`),
    };
  });

  const minVotes = opts.minVotes ?? 2;
  const majority = { majority: 0, tie: 0, insufficient: 0, minVotes };
  for (const u of units) majority[majorityVote(u, minVotes).status]++;

  let bootstrap: QuestionAgreement["bootstrap"] = null;
  if (pairable > 0) {
    let without = 0;
    const sessions = items.map((id) => {
      const s = opts.sessionOf?.get(id);
      if (s === undefined) without++;
      return s === undefined ? `item:${id}` : `session:${s}`;
    });
    const boot = sessionBlockBootstrap(stat, sessions, { resamples: opts.resamples, seed: opts.seed, ...(opts.level !== undefined ? { level: opts.level } : {}) });
    const put = (f: Figure | null, name: string): void => {
      const b = boot.figures.find((x) => x.name === name);
      if (!f || !b) return;
      f.lower = b.lower;
      f.upper = b.upper;
      f.emptyReplicates = b.emptyReplicates;
    };
    put(fv, "fleissVariable.kappa");
    put(ff, "fleissFixed.kappa");
    put(an, "alphaNominal.alpha");
    put(ai, "alphaInterval.alpha");
    pairs.forEach(([a, b], k) => put(cohen[k] ?? null, `cohen${a}_${b}.kappa`));
    const { figures: _f, items: _i, method: _m, ...meta } = boot;
    const method = without === 0 ? "session-block percentile bootstrap" : without === items.length ? "item percentile bootstrap" : `session-block percentile bootstrap, ${without} items alone`;
    bootstrap = { ...meta, method, itemsWithoutSession: without };
  }
  return {
    question,
    kind,
    labelers,
    items: items.length,
    raw: { pairwise: at("raw.pairwise"), unanimous: at("raw.unanimous"), items: pairable },
    fleissVariable: fv,
    fleissFixed: ff,
    alpha: { nominal: an, interval: ai },
    cohen,
    majority,
    bootstrap,
  };
}

/** Agreement for every question in the labels (or the listed ones), in order. */
export function agreementReport(labels: readonly AgreementLabel[], opts: AgreementOptions): QuestionAgreement[] {
  const byQuestion = new Map<string, AgreementLabel[]>();
  for (const l of labels) {
    const list = byQuestion.get(l.question);
    if (list) list.push(l);
    else byQuestion.set(l.question, [l]);
  }
  const questions = opts.questions ? [...opts.questions] : [...byQuestion.keys()].sort();
  return questions.map((q) => {
    const rows = byQuestion.get(q);
    if (!rows) throw new EvalInputError("BAD_VALUE", `no labels for question ${q}`, "labels for every listed question", `questions ${[...byQuestion.keys()].join(", ")}`);
    return questionAgreement(q, rows, opts);
  });
}
