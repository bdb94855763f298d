import { readFileSync } from "node:fs";
import { parseJsonlText, type JsonlProblem } from "../../files/index.js";
import { AnswerSchema, type Answer } from "../../../schemas/answer.js";

/**
 * The replay lane: answers read back from a stored answers file (`answer/1` rows), matched by
 * exchange id, question id and version. When several rows match, the last one wins; a filter
 * on model or prompt hash narrows which stored answers count. A pair with no stored answer is
 * unscored.
 *
 * Example: `new ReplayLane(rows).answer("ex-…", "detect.unhappy", 1)` -> the stored answer with
 * `lane: "replay"`, or `{ok: false, reason: "no stored answer for ex-…/detect.unhappy@1"}`.
 */
export interface ReplayFilter {
  model?: string;
  promptHash?: string;
}

export type ReplayReading = { ok: true; answer: Answer } | { ok: false; reason: string };

export class ReplayLane {
  private readonly byKey = new Map<string, Answer>();
  readonly model: string;

  constructor(answers: readonly Answer[], filter: ReplayFilter = {}) {
    const models = new Set<string>();
    for (const a of answers) {
      if (filter.model !== undefined && a.model !== filter.model) continue;
      if (filter.promptHash !== undefined && a.prompt_hash !== filter.promptHash) continue;
      this.byKey.set(`${a.exchange_id}\u0000${a.question_id}@${a.question_version}`, a);
      models.add(a.model);
    }
    this.model = filter.model ?? (models.size === 1 ? ([...models][0]!) : models.size === 0 ? "replay/empty" : "replay/mixed");
  }

  get size(): number {
    return this.byKey.size;
  }

  answer(exchangeId: string, questionId: string, version: number): ReplayReading {
    const a = this.byKey.get(`${exchangeId}\u0000${questionId}@${version}`);
    if (!a) return { ok: false, reason: `no stored answer for ${exchangeId}/${questionId}@${version}` };
    return { ok: true, answer: { ...a, lane: "replay" } };
  }
}

/**
 * Reads an answers file through runtime/files/jsonl.ts: a torn line, a line that is not JSON
 * and a row that fits neither side of the answer union are skipped, counted and listed with
 * file and line in `problems`.
 */
export function readAnswersFile(path: string): { answers: Answer[]; skipped: number; problems: JsonlProblem[] } {
  // A missing file is an error here (the lane was pointed at it), so read it first.
  const r = parseJsonlText(readFileSync(path, "utf8"), path, AnswerSchema, { what: "an answer/1 row" });
  return { answers: r.rows, skipped: r.problems.length, problems: r.problems };
}
