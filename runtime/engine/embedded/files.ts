import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CodedError } from "../../../core/errors.js";
import type { z } from "zod";
import { ExchangeSchema, type Exchange } from "../../../schemas/exchange.js";
import { LabelSchema, type Label } from "../../../schemas/label.js";
import { QuestionSchema, type Question } from "../../../schemas/question.js";
import type { TrainingSet } from "./train.js";
import { firstError, parseJsonlText, reportProblems, warnOnStderr } from "../../files/index.js";

/**
 * Reading the files the engine's commands take: exchanges, labels and questions (JSONL, each
 * line parsed with its schema; a bad line is an error naming the file and line, a torn last
 * line is skipped with a warning), and a labelled
 * set as `datasets/<set>/labels.jsonl` beside its `exchanges.jsonl`.
 *
 * Example: `readLabelledSet("datasets/ab-redial/labels.jsonl")` -> `{name: "ab-redial",
 * exchanges: [...], labels: [...], exchangesSha256: "…", labelsSha256: "…"}`.
 */
export class EngineInputError extends CodedError {
  declare readonly code: "BAD_INPUT";
  declare readonly expected: string;
  declare readonly found: string;
  constructor(message: string, expected: string, found: string) {
    super("input", "BAD_INPUT", message, { expected, found });
    this.name = "EngineInputError";
  }
}

function readText(path: string): string {
  if (!existsSync(path)) throw new EngineInputError(`file not found: ${path}`, "an existing file", "nothing");
  return readFileSync(path, "utf8");
}

/**
 * Parses one input file's JSONL under the module's policy (runtime/files/jsonl.ts): the first
 * line that is not JSON or does not fit the schema is refused with its file and line; a torn
 * last line is skipped with a warning.
 */
export function parseJsonl<T>(text: string, schema: z.ZodType<T>, name: string, warn: (line: string) => void = warnOnStderr): T[] {
  const r = parseJsonlText(text, name, schema);
  const bad = firstError(r.problems);
  if (bad) throw new EngineInputError(`${name} line ${bad.line} ${bad.code === "malformed-json" ? "is not JSON" : "does not match its schema"}`, bad.expected, bad.found);
  reportProblems(r.problems, warn);
  return r.rows;
}

export function readExchanges(path: string): Exchange[] {
  return parseJsonl(readText(path), ExchangeSchema, path);
}

/** Questions from a JSONL file or a JSON array. */
export function readQuestions(path: string): Question[] {
  const text = readText(path).trim();
  if (text.startsWith("[")) {
    let arr: unknown;
    try {
      arr = JSON.parse(text);
    } catch (e) {
      throw new EngineInputError(`${path} is not valid JSON`, "a JSON array of questions or JSONL", (e as Error).message);
    }
    return parseJsonl((arr as unknown[]).map((q) => JSON.stringify(q)).join("\n"), QuestionSchema, path);
  }
  return parseJsonl(text, QuestionSchema, path);
}

const sha = (text: string): string => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * A labelled set: the labels file and the exchanges file beside it (`exchanges.jsonl`), or the
 * one given. The set's name is its folder's name.
 */
export function readLabelledSet(labelsPath: string, exchangesPath?: string): TrainingSet {
  const exPath = exchangesPath ?? join(dirname(labelsPath), "exchanges.jsonl");
  const labelsText = readText(labelsPath);
  const exText = readText(exPath);
  return {
    name: basename(dirname(labelsPath)),
    labels: parseJsonl<Label>(labelsText, LabelSchema, labelsPath),
    exchanges: parseJsonl<Exchange>(exText, ExchangeSchema, exPath),
    labelsSha256: sha(labelsText),
    exchangesSha256: sha(exText),
  };
}
