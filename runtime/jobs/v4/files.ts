import { appendFileSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { badInput, describeFound } from "../../../core/errors.js";
import { type Answer, AnswerSchema } from "../../../schemas/answer.js";
import { type Exchange, ExchangeSchema } from "../../../schemas/exchange.js";
import { type Label, LabelSchema } from "../../../schemas/label.js";

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
  /** Lines that did not parse (a torn trailing line, a foreign row): skipped, never fatal. */
  skipped: number;
}

function readJsonl<T>(file: string, parse: (v: unknown) => T | null): Read<T> {
  const rows: T[] = [];
  let skipped = 0;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      skipped++;
      continue;
    }
    const row = parse(value);
    if (row === null) skipped++;
    else rows.push(row);
  }
  return { rows, skipped };
}

/** Reads exchanges from one or more files; a missing file is bad input. Duplicate ids keep the first. */
export function readExchanges(files: readonly string[]): Read<Exchange> {
  const seen = new Set<string>();
  const rows: Exchange[] = [];
  let skipped = 0;
  for (const file of files) {
    if (!existsSync(file)) throw badInput("no exchanges file", "an exchanges.jsonl written by `errata exchanges`", describeFound(file));
    const r = readJsonl(file, (v) => {
      const p = ExchangeSchema.safeParse(v);
      return p.success ? p.data : null;
    });
    skipped += r.skipped;
    for (const ex of r.rows) {
      if (seen.has(ex.id)) continue;
      seen.add(ex.id);
      rows.push(ex);
    }
  }
  return { rows, skipped };
}

/** Reads the stored answers; no file yet means none. */
export function readAnswers(file: string): Read<Answer> {
  if (!existsSync(file)) return { rows: [], skipped: 0 };
  return readJsonl(file, (v) => {
    const p = AnswerSchema.safeParse(v);
    return p.success ? p.data : null;
  });
}

/** Reads label rows (e.g. a corpus's labels.jsonl); a missing file is bad input. */
export function readLabels(file: string): Read<Label> {
  if (!existsSync(file)) throw badInput("no labels file", "a labels.jsonl of label/1 rows", describeFound(file));
  return readJsonl(file, (v) => {
    const p = LabelSchema.safeParse(v);
    return p.success ? p.data : null;
  });
}

/** Appends answers as whole lines in one write (validated first, so a bad row writes nothing). */
export function appendAnswers(file: string, answers: readonly Answer[]): void {
  if (answers.length === 0) return;
  const lines = answers.map((a) => JSON.stringify(AnswerSchema.parse(a))).join("\n");
  mkdirSync(dirname(file), { recursive: true });
  appendFileSync(file, `${lines}\n`);
}
