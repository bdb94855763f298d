import { appendJsonl, readJsonl } from "../../files/index.js";
import type { Answer } from "../../../schemas/answer.js";
import { CacheRowSchema, type CacheRow } from "./schemas.js";

/**
 * The answer cache: an append-only JSONL file of `engine-cache/1` rows, read and appended
 * through runtime/files/jsonl.ts: a torn last line (a run killed mid-write) and any line that
 * does not parse or fit are skipped and counted; a later row for the same key wins. An
 * append after a torn line sets the fragment apart, so the next row starts on its own line.
 * Only scored answers are cached: an unscored answer (time-out, refusal, malformed reply) is
 * asked again next run.
 *
 * Example: `const c = openAnswerCache("/tmp/s/engine-cache.jsonl"); c.get(key)` -> Answer | undefined;
 * `c.skippedLines` -> 1 after a torn write.
 */
export interface AnswerCache {
  get(key: string): Answer | undefined;
  put(key: string, answer: Answer): void;
  /** Writes buffered rows (one append per flush). */
  flush(): void;
  readonly size: number;
  readonly skippedLines: number;
  readonly path: string | null;
}

/** A cache backed by a file (created on first write), or in memory when `path` is null. */
export function openAnswerCache(path: string | null, opts: { flushEvery?: number } = {}): AnswerCache {
  const map = new Map<string, Answer>();
  let skipped = 0;
  if (path !== null) {
    const read = readJsonl(path, CacheRowSchema, { what: "an engine-cache/1 row" });
    for (const row of read.rows) map.set(row.key, row.answer);
    skipped = read.problems.length;
  }
  const flushEvery = opts.flushEvery ?? 64;
  let pending: CacheRow[] = [];
  const flush = (): void => {
    if (path === null || pending.length === 0) return;
    appendJsonl(path, pending);
    pending = [];
  };
  return {
    get: (key) => map.get(key),
    put(key, answer) {
      if (answer.status !== "scored") return;
      map.set(key, answer);
      if (path !== null) {
        pending.push({ schema: "engine-cache/1", key, answer });
        if (pending.length >= flushEvery) flush();
      }
    },
    flush,
    get size() {
      return map.size;
    },
    skippedLines: skipped,
    path,
  };
}
