import { resolveCuts } from "./cuts.js";
import type { Cuts } from "../../../composers/index.js";
import type { Engine } from "../../engine/index.js";
import { questionsInGroup, v3ClassQuestions } from "../../../questions/index.js";
import type { Exchange } from "../../../schemas/exchange.js";
import type { Question } from "../../../schemas/question.js";
import { askPlanned, type AskSummary, type JudgeId, planAsk } from "./ask.js";
import { composeAll } from "./compose-all.js";
import { appendAnswers, readAnswers, readExchanges, v4Files } from "./files.js";
import { regexVerdict } from "./predictions.js";

export type V4Stage = "detect" | "diagnose" | "v3";

export interface V4PassOptions {
  engine: Engine;
  v4Dir: string;
  /** Exchange files; default `<v4Dir>/exchanges.jsonl`. */
  exchangeFiles?: readonly string[] | undefined;
  /** The cuts composing which exchanges are failures; default: `resolveCuts` for this engine's judge (its calibrated cuts when it is the shipped embedded model). */
  cuts?: Cuts | undefined;
  /** Where `cuts` came from (printed); required with `cuts` to say so, else "given by the caller". */
  cutsOrigin?: string | undefined;
  limit?: number | undefined;
  dryRun?: boolean | undefined;
  /** Ask again where this judge's stored answer is unscored. */
  retryUnscored?: boolean | undefined;
  /** v3 only: also ask the exchanges the capture classifier caught (the seed's v3 input), not just composed failures. */
  regexCaught?: boolean | undefined;
  /** The owner's home folder, scrubbed from everything a judge sees. */
  home?: string | undefined;
  onProgress?: ((done: number, total: number) => void) | undefined;
  /** Where unreadable lines of the exchanges and answers files are reported (default: stderr). */
  warn?: ((line: string) => void) | undefined;
}

export interface V4PassResult extends AskSummary {
  stage: V4Stage;
  judge: JudgeId;
  /** Exchanges this stage applies to (all for detect; composed failures for diagnose and v3). */
  eligible: number;
  exchangesRead: number;
  skippedLines: number;
  /** Pairs the plan holds (asked unless dry-run). */
  planned: number;
  dryRun: boolean;
  /** Where the cuts this pass composed under came from. */
  cutsOrigin: string;
}

/** The questions each stage asks. */
export function stageQuestions(stage: V4Stage): Question[] {
  if (stage === "detect") return [...questionsInGroup("detect"), ...questionsInGroup("blame")];
  if (stage === "diagnose") return [...questionsInGroup("mode"), ...questionsInGroup("cost")];
  return [...v3ClassQuestions];
}

/**
 * One v4 stage: `detect` asks detect and blame of every exchange; `diagnose` asks mode and
 * cost only of exchanges whose stored answers compose to a failure (under the cuts);
 * `v3` asks the 14 class questions of the same failures (the single-choice comparison), and
 * with `regexCaught` also of what the capture classifier caught (what the seed's v3 sees).
 * Only pairs this judge has not answered are asked, so a re-run asks nothing new; answers
 * are appended raw to `<v4Dir>/answers.jsonl` as they arrive. `dryRun` plans and asks
 * nothing.
 *
 * Example: detect over 3 exchanges, fresh folder → `{asked: 24, alreadyAnswered: 0, …}`;
 * run again → `{asked: 0, alreadyAnswered: 24, …}`.
 */
export async function runV4Stage(stage: V4Stage, opts: V4PassOptions): Promise<V4PassResult> {
  const files = v4Files(opts.v4Dir);
  const read = opts.warn ? { warn: opts.warn } : {};
  const ex = readExchanges(opts.exchangeFiles ?? [files.exchanges], read);
  const existing = readAnswers(files.answers, read);
  const judge: JudgeId = { lane: opts.engine.lane, model: opts.engine.model };
  const cuts = opts.cuts !== undefined ? { cuts: opts.cuts, origin: opts.cutsOrigin ?? "given by the caller" } : resolveCuts({ judge });
  let eligible: Exchange[] = ex.rows;
  if (stage !== "detect") {
    eligible = composeAll(ex.rows, existing.rows, judge, cuts.cuts)
      .filter((c) => c.detect?.is_failure === true || (stage === "v3" && opts.regexCaught === true && regexVerdict(c.exchange).hit))
      .map((c) => c.exchange);
  }
  const done = opts.retryUnscored ? existing.rows.filter((a) => a.status === "scored") : existing.rows;
  const plan = planAsk(eligible, stageQuestions(stage), done, judge, { limit: opts.limit, home: opts.home });
  const base = { stage, judge, eligible: eligible.length, exchangesRead: ex.rows.length, skippedLines: ex.skipped + existing.skipped, cutsOrigin: cuts.origin };
  if (opts.dryRun) {
    return { ...base, exchanges: plan.exchanges, asked: 0, alreadyAnswered: plan.alreadyAnswered, scored: 0, unscored: 0, planned: plan.pairs.length, dryRun: true };
  }
  const summary = await askPlanned(opts.engine, plan, (answers) => appendAnswers(files.answers, answers), {
    caller: "errata-triage",
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
  return { ...base, ...summary, planned: plan.pairs.length, dryRun: false };
}
