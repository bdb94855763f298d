/**
 * The end of a Claude Code transcript, read backwards from its last bytes (never the whole
 * file): the reply the person is reacting to, the tool calls of that turn, the typed prompt
 * before it (the ask) and its time, the model and the host version. zod-free: it runs in
 * the hook. Uses the transcript reader's zod-free line classifier and typed-prompt filter
 * (`runtime/transcripts/records.ts`, `typed.ts`).
 *
 * The hook may run after the current prompt was written to the transcript: the first typed
 * prompt met from the end whose text equals the current prompt is skipped once.
 *
 * Example: for a transcript ending "fix the test" -> assistant "Done, tests pass." ->
 * "that's wrong", `readTranscriptTail(path, "that's wrong")` ->
 * `{ reply: "Done, tests pass.", toolCalls: [{name: "Bash", summary: "npm test"}],
 *    previousPrompt: "fix the test", previousPromptTs: "2026-11-30T11:59:00.000Z",
 *    model: "claude-sonnet-4-5", version: "2.1.9" }`
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { assistantPart, classifyRecord } from "../transcripts/records.js";
import { summarizeToolCall } from "../transcripts/tool-summary.js";
import { typedPromptVerdict } from "../transcripts/typed.js";

export interface ToolCallSummary {
  name: string;
  summary: string;
}

export interface TranscriptTail {
  /** Text of the last assistant message that had text, or null. */
  reply: string | null;
  /** Tool calls since the previous typed prompt, oldest first (at most `maxToolCalls`). */
  toolCalls: ToolCallSummary[];
  previousPrompt: string | null;
  previousPromptTs: string | null;
  model: string | null;
  version: string | null;
}

export const TAIL_BYTES = 512 * 1024;

export function emptyTail(): TranscriptTail {
  return { reply: null, toolCalls: [], previousPrompt: null, previousPromptTs: null, model: null, version: null };
}

/**
 * Opens `path` for reading only when it is a regular file: opened non-blocking (a FIFO
 * nobody writes to would otherwise hold the open, and with it the host's prompt), then
 * checked on the descriptor (no window between a check and the open). A FIFO, a device
 * (`/dev/zero` never ends), a directory or a socket is refused with what it is.
 */
export function openRegularFile(path: string): { fd: number; size: number } {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    const what = st.isFIFO() ? "a FIFO" : st.isDirectory() ? "a directory" : st.isCharacterDevice() ? "a character device" : st.isBlockDevice() ? "a block device" : st.isSocket() ? "a socket" : "not a regular file";
    throw new Error(`${path} is not a regular file (expected a transcript .jsonl file; found ${what})`);
  }
  return { fd, size: st.size };
}

/** The last `maxBytes` (at most) of an open file of `size` bytes, without a first line that may be cut. */
function tailOfFd(fd: number, size: number, maxBytes: number): Buffer {
  const start = Math.max(0, size - maxBytes);
  const buf = Buffer.allocUnsafe(size - start);
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, start + got);
    if (n === 0) break;
    got += n;
  }
  const bytes = buf.subarray(0, got);
  if (start === 0) return bytes;
  const nl = bytes.indexOf(10);
  return nl < 0 ? bytes.subarray(0, 0) : bytes.subarray(nl + 1);
}

/** The last `maxBytes` of a regular file, without a first line that may be cut (see `openRegularFile`). */
export function readTailBytes(path: string, maxBytes = TAIL_BYTES): Buffer {
  const { fd, size } = openRegularFile(path);
  try {
    return tailOfFd(fd, size, maxBytes);
  } finally {
    closeSync(fd);
  }
}

/** Reads the last `maxBytes` of a file as text, dropping a first line that may be cut. */
export function readTailText(path: string, maxBytes = TAIL_BYTES): string {
  return readTailBytes(path, maxBytes).toString("utf8");
}

const norm = (s: string): string => s.replace(/\s+/g, " ").trim();

export function parseTranscriptTail(text: string, currentPrompt: string | null, maxToolCalls = 10): TranscriptTail {
  return parseTailBytes(Buffer.from(text, "utf8"), currentPrompt, maxToolCalls);
}

const TOOL_RESULT = Buffer.from('"type":"tool_result"');
const USER = Buffer.from('"type":"user"');
const ASSISTANT = Buffer.from('"type":"assistant"');

/**
 * The tail from a transcript's last bytes, read line by line from the end; a line is decoded
 * only when it is read (the lines before the turn's ask never are). With `skipToolResults`, a
 * line holding a tool's result (`"type":"tool_result"` and `"type":"user"`, no
 * `"type":"assistant"`: often the turn's largest lines, a file's contents) is not parsed
 * once the host version is known: it is never the reply, a tool call or a typed prompt
 * (`typedPromptVerdict` refuses a record with a tool result). A test checks both ways agree.
 */
export function parseTailBytes(buf: Buffer, currentPrompt: string | null, maxToolCalls = 10, skipToolResults = true): TranscriptTail {
  const out = emptyTail();
  const current = currentPrompt === null ? null : norm(currentPrompt);
  let skippedCurrent = false;
  let replyMessageId: string | null | undefined;
  const replyTexts: string[] = [];
  const tools: ToolCallSummary[] = [];
  for (let end = buf.length; end > 0; ) {
    const start = end > 0 ? buf.lastIndexOf(10, end - 1) + 1 : 0;
    const line = buf.subarray(start, end);
    end = start - 1;
    if (line.length === 0 || line[0] !== 123 /* { */) continue;
    if (skipToolResults && out.version !== null && line.indexOf(TOOL_RESULT) >= 0 && line.indexOf(USER) >= 0 && line.indexOf(ASSISTANT) < 0) continue;
    let raw: unknown;
    try {
      raw = JSON.parse(line.toString("utf8"));
    } catch {
      continue; // a torn or broken line
    }
    const rec = classifyRecord(raw);
    if (!rec || rec.isSidechain) continue;
    if (out.version === null && rec.version) out.version = rec.version;
    const verdict = typedPromptVerdict(rec);
    if (verdict?.typed) {
      if (!skippedCurrent && current !== null && norm(verdict.text) === current && replyTexts.length === 0 && tools.length === 0) {
        skippedCurrent = true;
        continue;
      }
      out.previousPrompt = verdict.text;
      out.previousPromptTs = rec.timestamp;
      break;
    }
    const part = assistantPart(rec);
    if (!part) continue;
    if (out.model === null && part.model) out.model = part.model;
    for (let t = part.toolUses.length - 1; t >= 0; t--) {
      const u = part.toolUses[t];
      if (u && tools.length < maxToolCalls) tools.push(summarizeToolCall(u.name, u.input));
    }
    if (part.texts.length > 0) {
      // One API message is written as one line per block: gather the blocks that share
      // the id of the last message with text.
      if (replyMessageId === undefined) replyMessageId = part.messageId;
      if (part.messageId === replyMessageId) replyTexts.unshift(part.texts.join("\n"));
    }
  }
  out.reply = replyTexts.length > 0 ? replyTexts.join("\n") : null;
  out.toolCalls = tools.reverse();
  return out;
}

/** The first read: most turns fit in it, and a long transcript's whole tail is not decoded. */
export const FIRST_TAIL_BYTES = 64 * 1024;

/**
 * The tail of a transcript: the last FIRST_TAIL_BYTES first, and the last `maxBytes` only
 * when the turn began before that (no typed prompt found in the first read).
 */
export function readTranscriptTail(path: string, currentPrompt: string | null, maxBytes = TAIL_BYTES): TranscriptTail {
  const first = Math.min(FIRST_TAIL_BYTES, maxBytes);
  const { fd, size } = openRegularFile(path);
  try {
    const tail = parseTailBytes(tailOfFd(fd, size, first), currentPrompt);
    if (tail.previousPrompt !== null || size <= first || first >= maxBytes) return tail;
    return parseTailBytes(tailOfFd(fd, size, maxBytes), currentPrompt);
  } finally {
    closeSync(fd);
  }
}
