/**
 * Files the program writes and reads back: JSONL (one bad-line policy for every reader and
 * appender, see jsonl.ts), cursor files checked by their schemas, atomic whole-file writes,
 * and the byte-offset line streamer they share with the transcript reader.
 *
 * Example: `readJsonl("v4/answers.jsonl", AnswerSchema, {what: "an answer/1 row"})` ->
 * `{rows: [...], problems: [{file, line, code, severity, expected, found}]}`.
 */
export {
  appendJsonl,
  countJsonl,
  firstError,
  formatProblem,
  iterateJsonl,
  parseJsonlText,
  readJsonl,
  reportProblems,
  warnOnStderr,
  type JsonlAppend,
  type JsonlIterateOptions,
  type JsonlProblem,
  type JsonlProblemCode,
  type JsonlRead,
  type JsonlReadOptions,
} from "./jsonl.js";
export { loadCursorFile, saveCursorFile } from "./cursor.js";
export { writeFileAtomic } from "./atomic.js";
export { readLines, type RawLine, type ReadLinesOptions } from "./lines.js";
export { acquireRunLock, withRunLock, waitMsFromFlag, RunLockError, LOCK_FILE, type LockHolder, type RunLock, type RunLockOptions } from "./lock.js";
export { appendWhole, AppendError, setAppendSeams, type AppendSeams, type WholeAppend } from "./append.js";
