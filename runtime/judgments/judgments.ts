import { existsSync } from "node:fs";
import type { Answer } from "../../schemas/answer.js";
import type { Exchange } from "../../schemas/exchange.js";
import { appendAnswers, readAnswers, readExchanges, v4Files } from "./files.js";
import { composeAll, type Composed } from "./compose.js";
import { chooseCuts, type ChosenCuts, type CutsRequest } from "./cuts.js";
import { chooseJudge, judgedExchanges, type JudgeId } from "./judge.js";

/**
 * The v4 folder read once and judged once: the exchanges and every stored answer, whose
 * answers count (one judge), the cuts they compose under (the one chooser, with its origin),
 * and the composed exchanges. Every command and job that turns the folder into "the failures"
 * opens one of these; a pass that asks more appends through it, so its answers join the rows
 * already read and only the exchanges they touch are composed again.
 *
 * Example: `openJudgments({v4Dir, cuts: {promoted: {file}, v4Dir}})` on the demo's folder ->
 * `{judge: {lane: "embedded", …}, cuts: {source: "weights", …}, failures: [47 composed], …}`.
 */
export interface JudgmentsInput {
  v4Dir: string;
  /** Exchange files (default `<v4Dir>/exchanges.jsonl`; a missing one is bad input). */
  exchangeFiles?: readonly string[] | undefined;
  /** The answers file (default `<v4Dir>/answers.jsonl`; none yet is no answers). */
  answersFile?: string | undefined;
  /** Whose answers count: this judge (a pass's engine), else the filter's most frequent judge (default: all answers'). */
  judge?: JudgeId | undefined;
  filter?: { lane?: string | undefined; model?: string | undefined } | undefined;
  cuts: Omit<CutsRequest, "v4Dir">;
  /** Where unreadable lines are reported (default: stderr). */
  warn?: ((line: string) => void) | undefined;
  /** Read no answers (a report of exchanges only, or answers not wanted). */
  noAnswers?: boolean | undefined;
}

export interface Judgments {
  v4Dir: string;
  exchangeFiles: readonly string[];
  exchanges: readonly Exchange[];
  /** Every stored answer, of every judge, in file order. */
  answers: readonly Answer[];
  /** Unreadable lines skipped in the exchanges and answers files. */
  skipped: number;
  judge: JudgeId | null;
  cuts: ChosenCuts;
  /** Each exchange composed from the judge's answers under the cuts (in exchange order). */
  composed(): readonly Composed[];
  /** Composed failures (detect.unhappy yes), real and synthetic. */
  failures(): readonly Composed[];
  /** The failures the rules wing covers: defects of the assistant with a primary class. */
  coverable(): readonly Composed[];
  /** Exchanges whose detect.unhappy answer the judge scored (what was looked at). */
  judged(): ReadonlySet<string>;
  /** The same rows seen through another judge's answers (its own cuts); read nothing again. */
  forJudge(judge: JudgeId | null): Judgments;
  /** The view through the judge the answers name now (after appends), or the judge given at open. */
  rejudged(): Judgments;
  /** Appends new answers to answers.jsonl and to the rows held here. */
  append(answers: readonly Answer[]): void;
}

interface Rows {
  exchanges: Exchange[];
  answers: Answer[];
  skipped: number;
}

const keyOf = (j: JudgeId | null): string => (j === null ? "" : `${j.lane}\t${j.model}`);

export function openJudgments(input: JudgmentsInput): Judgments {
  const files = v4Files(input.v4Dir);
  const exchangeFiles = input.exchangeFiles && input.exchangeFiles.length > 0 ? input.exchangeFiles : [files.exchanges];
  const read = input.warn ? { warn: input.warn } : {};
  const ex = readExchanges(exchangeFiles, read);
  const answersFile = input.answersFile ?? files.answers;
  const an = input.noAnswers === true || !existsSync(answersFile) ? { rows: [], skipped: 0 } : readAnswers(answersFile, read);
  const rows: Rows = { exchanges: ex.rows, answers: an.rows, skipped: ex.skipped + an.skipped };
  const judge = input.judge ?? chooseJudge(rows.answers, input.filter ?? {});
  return view(input, exchangeFiles, rows, judge, new Map());
}

/** A view of the shared rows through one judge, and how to tell it which exchanges' answers changed. */
interface View {
  judgments: Judgments;
  touched(ids: readonly string[]): void;
}

function view(input: JudgmentsInput, exchangeFiles: readonly string[], rows: Rows, judge: JudgeId | null, views: Map<string, View>): Judgments {
  const cuts = chooseCuts({ ...input.cuts, v4Dir: input.v4Dir }, judge);
  let composed: Composed[] | null = null;
  // Exchanges whose answers changed since they were composed: only they are composed again.
  const dirty = new Set<string>();
  let judged: Set<string> | null = null;
  const current = (): Composed[] => {
    if (composed === null) {
      composed = composeAll(rows.exchanges, judge === null ? [] : rows.answers, judge ?? { lane: "-", model: "-" }, cuts.cuts);
      dirty.clear();
    } else if (dirty.size > 0 && judge !== null) {
      const again = rows.exchanges.filter((e) => dirty.has(e.id));
      const ids = new Set(again.map((e) => e.id));
      const fresh = new Map(composeAll(again, rows.answers.filter((a) => ids.has(a.exchange_id)), judge, cuts.cuts).map((c) => [c.exchange.id, c]));
      composed = composed.map((c) => fresh.get(c.exchange.id) ?? c);
      dirty.clear();
    }
    return composed;
  };
  const self: Judgments = {
    v4Dir: input.v4Dir,
    exchangeFiles,
    exchanges: rows.exchanges,
    answers: rows.answers,
    skipped: rows.skipped,
    judge,
    cuts,
    composed: current,
    failures: () => current().filter((c) => c.detect?.is_failure === true),
    coverable: () => current().filter((c) => c.composition?.defect === true && c.composition.primary_class !== null),
    judged: () => (judged ??= judge === null ? new Set<string>() : judgedExchanges(rows.answers, judge)),
    forJudge: (other) => views.get(keyOf(other))?.judgments ?? view(input, exchangeFiles, rows, other, views),
    rejudged: () => (input.judge !== undefined ? self : self.forJudge(chooseJudge(rows.answers, input.filter ?? {}))),
    append: (answers) => {
      if (answers.length === 0) return;
      appendAnswers(input.answersFile ?? v4Files(input.v4Dir).answers, answers);
      rows.answers.push(...answers);
      // Every view shares the rows: each composes the touched exchanges again when next asked.
      const ids = answers.map((a) => a.exchange_id);
      for (const v of views.values()) v.touched(ids);
    },
  };
  views.set(keyOf(judge), {
    judgments: self,
    touched: (ids) => {
      for (const id of ids) dirty.add(id);
      judged = null;
    },
  });
  return self;
}
