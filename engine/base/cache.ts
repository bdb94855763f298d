import { appendFileSync, existsSync, mkdirSync, openSync, readFileSync, readSync, closeSync, fstatSync } from "node:fs";
import { dirname } from "node:path";
import type { Answer } from "../../schemas/answer.js";
import { CacheRowSchema } from "./schemas.js";

/**
 * The answer cache: an append-only JSONL file of `engine-cache/1` rows. Reading tolerates a
 * torn last line (a run killed mid-write) and any unparsable line: they are skipped and
 * counted; a later row for the same key wins. Appending after a torn line first ends it, so
 * the next row starts on its own line. Only scored answers are cached: an unscored answer
 * (time-out, refusal, malformed reply) is asked again next run.
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

function endsWithNewline(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return true;
    const b = Buffer.alloc(1);
    readSync(fd, b, 0, 1, size - 1);
    return b[0] === 0x0a;
  } finally {
    closeSync(fd);
  }
}

/** A cache backed by a file (created on first write), or in memory when `path` is null. */
export function openAnswerCache(path: string | null, opts: { flushEvery?: number } = {}): AnswerCache {
  const map = new Map<string, Answer>();
  let skipped = 0;
  if (path !== null && existsSync(path)) {
    const text = readFileSync(path, "utf8");
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        skipped++;
        continue;
      }
      const row = CacheRowSchema.safeParse(parsed);
      if (!row.success) {
        skipped++;
        continue;
      }
      map.set(row.data.key, row.data.answer);
    }
  }
  const flushEvery = opts.flushEvery ?? 64;
  let pending: string[] = [];
  let needsNewline = path !== null && existsSync(path) && !endsWithNewline(path);
  const flush = (): void => {
    if (path === null || pending.length === 0) return;
    mkdirSync(dirname(path), { recursive: true });
    const body = `${needsNewline ? "\n" : ""}${pending.join("")}`;
    appendFileSync(path, body, "utf8");
    needsNewline = false;
    pending = [];
  };
  return {
    get: (key) => map.get(key),
    put(key, answer) {
      if (answer.status !== "scored") return;
      map.set(key, answer);
      if (path !== null) {
        pending.push(`${JSON.stringify({ schema: "engine-cache/1", key, answer })}\n`);
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
