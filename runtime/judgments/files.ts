import { existsSync } from "node:fs";
import { join } from "node:path";
import type { z } from "zod";
import { badInput, describeFound } from "../../core/errors.js";
import { appendJsonl, readJsonl, reportProblems, warnOnStderr, type JsonlProblem } from "../files/index.js";
import { redactForWrite } from "../privacy/index.js";
import { type Answer, AnswerSchema } from "../../schemas/answer.js";
import { type Exchange, ExchangeSchema } from "../../schemas/exchange.js";
import { type Label, LabelSchema } from "../../schemas/label.js";

/**
 * The v4 folder: `exchanges.jsonl` (input, written by `errata exchanges`) and
 * `answers.jsonl` (every raw judge answer, `answer/1` rows, appended, never rewritten), so a
 * new set of cuts recomposes without asking again.
 *
 * Example: `v4Files("/tmp/l/v4").answers` → "/tmp/l/v4/answers.jsonl".
 */
export function v4Files(v4Dir: string): { exchanges: string; answers: string } {
  return { exchanges: join(v4Dir, "exchanges.jsonl"), answers: join(v4Dir, "answers.jsonl") };
}

export interface Read<T> {
  rows: T[];
  /** Lines that could not be read (a torn trailing line, a foreign row): skipped, never fatal. */
  skipped: number;
  /** Each of them: file, line, what was expected and what was found (runtime/files/jsonl.ts). */
  problems: JsonlProblem[];
}

export interface ReadOptions {
  /** Where unreadable lines are reported, one line each, at most ten (default: stderr). */
  warn?: (line: string) => void;
}

function read<S extends z.ZodType>(file: string, schema: S, what: string, opts: ReadOptions): Read<z.output<S>> {
  const r = readJsonl(file, schema, { what });
  reportProblems(r.problems, opts.warn ?? warnOnStderr);
  return { rows: r.rows, skipped: r.problems.length, problems: r.problems };
}

/** Reads exchanges from one or more files; a missing file is bad input. Duplicate ids keep the first. */
export function readExchanges(files: readonly string[], opts: ReadOptions = {}): Read<Exchange> {
  const seen = new Set<string>();
  const rows: Exchange[] = [];
  const problems: JsonlProblem[] = [];
  for (const file of files) {
    if (!existsSync(file)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(file));
    const r = read(file, ExchangeSchema, "an exchange/1 row", opts);
    problems.push(...r.problems);
    for (const ex of r.rows) {
      if (seen.has(ex.id)) continue;
      seen.add(ex.id);
      rows.push(ex);
    }
  }
  return { rows, skipped: problems.length, problems };
}

/**
 * Reads the stored answers; no file yet means none. A row that fits neither side of the
 * answer union (say `status: "scored"` with `p_yes: null`) is a problem with its line, not an
 * answer: it is skipped, never read as one side or the other.
 */
export function readAnswers(file: string, opts: ReadOptions = {}): Read<Answer> {
  return read(file, AnswerSchema, "an answer/1 row", opts);
}

/** Reads label rows (e.g. a corpus's labels.jsonl); a missing file is bad input. */
export function readLabels(file: string, opts: ReadOptions = {}): Read<Label> {
  if (!existsSync(file)) throw badInput("no labels file", "a labels.jsonl of label/1 rows", describeFound(file));
  return read(file, LabelSchema, "a label/1 row", opts);
}

/**
 * Appends answers as whole lines in one write (validated first, so a bad row writes nothing;
 * a torn tail left by a crashed run is set apart first).
 */
export function appendAnswers(file: string, answers: readonly Answer[]): void {
  if (answers.length === 0) return;
  // An unscored answer's reason can quote a server's error, which can quote a key.
  appendJsonl(
    file,
    answers.map((a) => redactForWrite(AnswerSchema.parse(a)).value),
  );
}
