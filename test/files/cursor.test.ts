import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrataError } from "../../core/errors.js";
import { loadCursorFile, saveCursorFile } from "../../runtime/files/index.js";
import { loadMineCursor, mineCursorPath } from "../../runtime/jobs/mine/mine.js";
import { cursorPath, loadCursor, saveCursor } from "../../runtime/transcripts/cursor.js";
import { ExchangesCursorSchema, MineCursorSchema } from "../../schemas/cursor.js";
import { tempDir } from "../helpers/io.js";

let t: { dir: string; cleanup: () => void };
beforeAll(() => {
  t = tempDir("errata-cursor-");
});
afterAll(() => t.cleanup());

const entry = {
  ino: 41,
  size: 5120,
  mtimeMs: 1764460800000,
  offset: 5120,
  nextLineNo: 31,
  tailHash: "9c1e",
  carry: {
    turns: { s1: 2 },
    lastAskAt: { offset: 0, end: 120, sha1: "a".repeat(40) },
    replyEndAt: null,
    replyTs: null,
    model: null,
    toolsAt: [{ offset: 120, end: 300, sha1: "b".repeat(40), index: 0 }],
    recentUuids: ["u1"],
  },
};

function refusal(fn: () => unknown): ErrataError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ErrataError) return err;
    throw err;
  }
  throw new Error("expected a refusal");
}

describe("cursor files, both checked by their schemas", () => {
  it("a missing cursor is empty; a saved one loads back equal", () => {
    const state = join(t.dir, "s1");
    expect(loadCursor(cursorPath(state))).toEqual({ schema: "exchanges-cursor/2", files: {} });
    expect(loadMineCursor(mineCursorPath(state))).toEqual({ schema: "mine-cursor/1", files: {} });
    saveCursor(cursorPath(state), { schema: "exchanges-cursor/2", files: { "/p/a.jsonl": entry } });
    expect(loadCursor(cursorPath(state)).files["/p/a.jsonl"]).toEqual(entry);
    saveCursorFile(mineCursorPath(state), { schema: "mine-cursor/1", files: { "p/a.jsonl": { size: 10, mtimeMs: 5 } } });
    expect(loadMineCursor(mineCursorPath(state))).toEqual({ schema: "mine-cursor/1", files: { "p/a.jsonl": { size: 10, mtimeMs: 5 } } });
    expect(readFileSync(mineCursorPath(state), "utf8").endsWith("}\n")).toBe(true);
  });

  it("a cursor of the first layout (which kept prompt text) is read as empty, so the next save replaces it", () => {
    const path = join(t.dir, "old-cursor.json");
    writeFileSync(path, JSON.stringify({ schema: "exchanges-cursor/1", files: { "/p/a.jsonl": { carry: { lastAsk: "DB_PASSWORD=x" } } } }));
    expect(loadCursor(path)).toEqual({ schema: "exchanges-cursor/2", files: {} });
  });

  it("the mine cursor is no longer trusted by a cast: an entry without its mtime is bad input naming where", () => {
    const path = join(t.dir, "mine-cursor.json");
    writeFileSync(path, JSON.stringify({ schema: "mine-cursor/1", files: { "p/a.jsonl": { size: 10 } } }));
    const e = refusal(() => loadMineCursor(path));
    expect(e.code).toBe("BAD_INPUT");
    expect(e.exitCode).toBe(2);
    expect(e.message).toMatch(/^cursor file .*mine-cursor\.json is invalid \(expected a mine-cursor\/1 object; found files\.p\/a\.jsonl\.mtimeMs: /);
  });

  it("text that is not JSON, and the other cursor's file, are refused with what was expected", () => {
    const path = join(t.dir, "c.json");
    writeFileSync(path, '{"schema":"exchanges-cursor/2","files":{');
    expect(refusal(() => loadCursor(path)).message).toMatch(/cursor file .*c\.json is not JSON \(expected an exchanges-cursor\/2 object; found "/);
    writeFileSync(path, JSON.stringify({ schema: "mine-cursor/1", files: {} }));
    expect(refusal(() => loadCursor(path)).message).toMatch(/is invalid \(expected an exchanges-cursor\/2 object; found schema: /);
    expect(refusal(() => loadCursorFile(path, ExchangesCursorSchema, () => ({ schema: "exchanges-cursor/2" as const, files: {} }))).code).toBe("BAD_INPUT");
    expect(loadCursorFile(path, MineCursorSchema, () => ({ schema: "mine-cursor/1" as const, files: {} }))).toEqual({ schema: "mine-cursor/1", files: {} });
  });
});
