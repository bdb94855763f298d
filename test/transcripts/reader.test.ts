import { appendFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import fc from "fast-check";
import { readLines } from "../../runtime/files/index.js";
import { emptyStats, readTranscript, type TranscriptEvent } from "../../runtime/transcripts/reader.js";
import { tempDir } from "../helpers/io.js";
import { hasMClaude, mClaudeDir, spotterDir } from "./fixtures.js";

async function readAllEvents(path: string, start = 0) {
  const stats = emptyStats();
  const events: TranscriptEvent[] = [];
  for await (const ev of readTranscript(path, { stats, start })) events.push(ev);
  return { events, stats };
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});
function tmp(): string {
  const t = tempDir("errata-transcripts-");
  cleanups.push(t.cleanup);
  return t.dir;
}

describe("readLines", () => {
  it("gives byte offsets that slice the file back into its lines, across chunk boundaries", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: "grapheme", maxLength: 40 }).map((s) => s.replace(/[\r\n]/g, " ")), { minLength: 1, maxLength: 30 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 64 }),
        async (lines, trailingNewline, chunk) => {
          const dir = tmp();
          const path = join(dir, "f.txt");
          const text = lines.join("\n") + (trailingNewline ? "\n" : "");
          writeFileSync(path, text);
          const buf = Buffer.from(text);
          const got = [];
          for await (const l of readLines(path, { highWaterMark: chunk })) got.push(l);
          const expected = text.split("\n");
          if (expected[expected.length - 1] === "") expected.pop();
          expect(got.map((l) => l.text)).toEqual(expected);
          expect(got.map((l) => l.lineNo)).toEqual(expected.map((_, i) => i + 1));
          for (const l of got) expect(buf.subarray(l.offset, l.end).toString().replace(/\n$/, "")).toBe(l.text);
          const last = got[got.length - 1];
          if (last) expect(last.terminated).toBe(text.endsWith("\n"));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe("readTranscript on the real spotter sessions (bundled)", () => {
  it.each([
    ["short.jsonl", 15, { user: 4, assistant: 5, progress: 3, system: 2, "file-history-snapshot": 1 }],
    ["tool_heavy.jsonl", 39, { user: 13, assistant: 9, progress: 10, system: 2, "file-history-snapshot": 3, "queue-operation": 2 }],
    ["subagent.jsonl", 96, { user: 20, assistant: 28, progress: 44, system: 1, "file-history-snapshot": 3 }],
  ])("%s: %i lines, every one parsed and classified", async (file, lines, kinds) => {
    const { events, stats } = await readAllEvents(join(spotterDir, file));
    expect(stats.lines).toBe(lines);
    expect(stats.broken).toBe(0);
    expect(events).toHaveLength(lines);
    expect(stats.kinds).toEqual(kinds);
  });

  it("reads the system subtypes and the queue operations as their own kinds", async () => {
    const { events } = await readAllEvents(join(spotterDir, "tool_heavy.jsonl"));
    expect(events.filter((e) => e.rec.kind === "system").map((e) => e.rec.subtype)).toEqual(["local_command", "local_command"]);
    expect(events.filter((e) => e.rec.kind === "queue-operation").map((e) => e.rec.raw["operation"])).toEqual(["enqueue", "remove"]);
  });

  it("passes unknown line types through and counts a torn tail without consuming it", async () => {
    const dir = tmp();
    const path = join(dir, "s.jsonl");
    writeFileSync(path, '{"type":"future-kind","uuid":"u1","x":1}\n{"type":"user","uuid":"u2","message":{"role":"user","content":"hi"}}\n{"type":"assis');
    const { events, stats } = await readAllEvents(path);
    expect(events.map((e) => [e.rec.kind, e.rec.type])).toEqual([
      ["unknown", "future-kind"],
      ["user", "user"],
    ]);
    expect(stats.broken).toBe(0);
    expect(stats.tornTail).toBe(true);
    const firstTwo = Buffer.byteLength('{"type":"future-kind","uuid":"u1","x":1}\n{"type":"user","uuid":"u2","message":{"role":"user","content":"hi"}}\n');
    expect(stats.resumeAt).toBe(firstTwo);
    appendFileSync(path, 'tant","uuid":"u3"}\n');
    const resumed = await readAllEvents(path, stats.resumeAt);
    expect(resumed.events.map((e) => e.rec.uuid)).toEqual(["u3"]);
  });
});

describe.skipIf(!hasMClaude)("readTranscript on the m-claude sessions (broken lines)", () => {
  // Physical lines and broken lines as in claude-transcripts/NOTE.md (840 + 28 = 868, ...).
  it.each([
    ["21037e11-89de-484d-abba-8705254aa991.jsonl", 868, 28],
    ["c76e5be5-ffd2-4901-a935-885527c83a61.jsonl", 1043, 1],
    ["d8126fa6-87d4-443d-ba41-0dbf2faecb65.jsonl", 240, 17],
    ["f551142a-ef6a-46fd-a3bf-14a924370fb0.jsonl", 324, 23],
  ])("%s: %i lines, %i broken and skipped", async (file, lines, broken) => {
    const { events, stats } = await readAllEvents(join(mClaudeDir, file));
    expect(stats.lines).toBe(lines);
    expect(stats.broken).toBe(broken);
    expect(events).toHaveLength(lines - broken);
    expect(stats.brokenLineNos).toHaveLength(broken);
  });

  it("names the broken lines (the first three of 21037e11 are api_error lines cut by the redaction)", async () => {
    const { stats } = await readAllEvents(join(mClaudeDir, "21037e11-89de-484d-abba-8705254aa991.jsonl"));
    expect(stats.brokenLineNos.slice(0, 4)).toEqual([3, 4, 5, 121]);
  });
});
