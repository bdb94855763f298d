/**
 * The carried conversation state as the cursor keeps it: offsets and hashes, never text.
 * `storeCarry` replaces each carried text (the last ask, the reply's end, the last tool
 * calls) by the span of the line it came from and that line's SHA-1; `loadCarry` reads those
 * lines again, checks their hashes and takes the text from them the way the scan does. A
 * line that is gone or hashes otherwise gives null: the caller reads the file whole.
 *
 * Example: carry `{lastAsk: "DB_PASSWORD=… fix it", lastAskAt: {offset: 5120, end: 5391}}`
 * -> stored `{lastAskAt: {offset: 5120, end: 5391, sha1: "9c1e…"}}`; loaded back from the
 * same file, `lastAsk` is that prompt again.
 */
import { createHash } from "node:crypto";
import { closeSync, openSync, readSync } from "node:fs";
import type { ExchangesCarrySchema, LineRef } from "../../schemas/cursor.js";
import type { z } from "zod";
import { assistantPart, classifyRecord, type TranscriptRecord } from "./records.js";
import { redactLines, replyTail, type CarryState, type LineSpan } from "./scan.js";
import { summarizeToolCall } from "./tool-summary.js";
import { typedPromptVerdict } from "./typed.js";

type StoredCarry = z.infer<typeof ExchangesCarrySchema>;

/** Reads the bytes `[offset, end)` of `fd`, or null when the file is shorter. */
function readSpan(fd: number, span: LineSpan): Buffer | null {
  const len = span.end - span.offset;
  const buf = Buffer.alloc(len);
  const n = readSync(fd, buf, 0, len, span.offset);
  return n === len ? buf : null;
}

const sha1 = (b: Buffer): string => createHash("sha1").update(b).digest("hex");

function withFile<T>(path: string, fn: (fd: number) => T): T {
  const fd = openSync(path, "r");
  try {
    return fn(fd);
  } finally {
    closeSync(fd);
  }
}

/** The cursor's form of `carry` for the transcript at `path` (its lines are read for their hashes). */
export function storeCarry(path: string, carry: CarryState): StoredCarry {
  return withFile(path, (fd) => {
    const ref = (span: LineSpan | null): LineRef | null => {
      if (span === null) return null;
      const bytes = readSpan(fd, span);
      return bytes === null ? null : { offset: span.offset, end: span.end, sha1: sha1(bytes) };
    };
    const toolsAt = carry.toolsAt.flatMap((t) => {
      const r = ref(t);
      return r === null ? [] : [{ ...r, index: t.index }];
    });
    return { turns: carry.turns, lastAskAt: ref(carry.lastAskAt), replyEndAt: ref(carry.replyEndAt), replyTs: carry.replyTs, model: carry.model, toolsAt, recentUuids: carry.recentUuids };
  });
}

/** The carry rebuilt from the cursor's form, or null when a referenced line changed. */
export function loadCarry(path: string, stored: StoredCarry): CarryState | null {
  try {
    return withFile(path, (fd) => {
      const line = (ref: LineRef): TranscriptRecord | null => {
        const bytes = readSpan(fd, ref);
        if (bytes === null || sha1(bytes) !== ref.sha1) return null;
        return classifyRecord(JSON.parse(bytes.toString("utf8")));
      };
      let lastAsk: string | null = null;
      if (stored.lastAskAt !== null) {
        const rec = line(stored.lastAskAt);
        const verdict = rec === null ? null : typedPromptVerdict(rec);
        if (verdict === null || !verdict.typed) return null;
        lastAsk = verdict.text;
      }
      let replyEnd: string | null = null;
      if (stored.replyEndAt !== null) {
        const rec = line(stored.replyEndAt);
        const part = rec === null ? null : assistantPart(rec);
        replyEnd = part === null ? null : replyTail(part.texts);
        if (replyEnd === null) return null;
      }
      const tools = [];
      for (const t of stored.toolsAt) {
        const rec = line(t);
        const use = rec === null ? undefined : assistantPart(rec)?.toolUses[t.index];
        if (use === undefined) return null;
        tools.push(summarizeToolCall(use.name, use.input, redactLines));
      }
      const span = (r: LineRef | null): LineSpan | null => (r === null ? null : { offset: r.offset, end: r.end });
      return {
        turns: { ...stored.turns },
        lastAsk,
        lastAskAt: span(stored.lastAskAt),
        replyEnd,
        replyEndAt: span(stored.replyEndAt),
        replyTs: stored.replyTs,
        model: stored.model,
        tools,
        toolsAt: stored.toolsAt.map((t) => ({ offset: t.offset, end: t.end, index: t.index })),
        recentUuids: [...stored.recentUuids],
      };
    });
  } catch {
    // unreadable or not JSON any more: the caller reads the file whole
    return null;
  }
}
