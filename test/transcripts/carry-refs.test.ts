/**
 * The exchanges cursor keeps where the carried text lies, never the text: resumed reads give
 * the rows of one read (sweep.test.ts), the cursor file holds no prompt or reply text, and a
 * carried line that changed makes the file be read whole instead of trusting the cursor.
 */
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { cursorPath, loadCursor } from "../../runtime/transcripts/cursor.js";
import { sweepExchanges } from "../../runtime/transcripts/sweep.js";
import { tempDir } from "../helpers/io.js";
import { spotterDir } from "./fixtures.js";

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function setUp(): { root: string; state: string; v4: string; file: string; lines: string[] } {
  const t = tempDir("errata-carry-");
  cleanups.push(t.cleanup);
  const root = join(t.dir, "projects");
  mkdirSync(root);
  const lines = readFileSync(join(spotterDir, "tool_heavy.jsonl"), "utf8").split("\n").filter((l) => l !== "");
  return { root, state: join(t.dir, "state"), v4: join(t.dir, "v4"), file: join(root, "session.jsonl"), lines };
}

describe("the carried turn as offsets and hashes", () => {
  it("holds no text of the transcript, and a changed carried line means a whole read", async () => {
    const s = setUp();
    const half = Math.floor(s.lines.length / 2);
    writeFileSync(s.file, `${s.lines.slice(0, half).join("\n")}\n`);
    await sweepExchanges({ root: s.root, v4Dir: s.v4, stateDir: s.state, captured: null, warn: () => {} });
    const text = readFileSync(cursorPath(s.state), "utf8");
    const carry = Object.values(loadCursor(cursorPath(s.state)).files)[0]!.carry;
    expect(carry.lastAskAt).not.toBeNull();
    // No string of the cursor is a piece of the transcript's prose.
    for (const str of text.match(/"(?:[^"\\]|\\.)*"/g) ?? []) expect(str.length < 60 || /^"[0-9a-f]+"$|^"[0-9a-f-]{36}"$/.test(str), str).toBe(true);
    const ask = carry.lastAskAt!;
    const bytes = readFileSync(s.file);
    expect(ask.end).toBeLessThanOrEqual(bytes.length);

    // Grown, untouched: resumed.
    appendFileSync(s.file, `${s.lines.slice(half, half + 2).join("\n")}\n`);
    const resumed = await sweepExchanges({ root: s.root, v4Dir: s.v4, stateDir: s.state, captured: null, warn: () => {} });
    expect(resumed).toMatchObject({ resumed: 1, fullReads: 0 });

    // One byte of the carried prompt's line changed (same length, outside the tail the
    // offset check reads): the cursor's hash no longer matches, so the file is read whole.
    const now = loadCursor(cursorPath(s.state));
    const entry = Object.values(now.files)[0]!;
    const ref = entry.carry.lastAskAt!;
    expect(ref.end).toBeLessThan(entry.offset - 256); // so the offset's own tail check cannot see it
    const b = readFileSync(s.file);
    const i = b.indexOf(0x22, ref.offset + 2); // a byte inside the line, after its first key
    b[i + 1] = b[i + 1] === 0x61 ? 0x62 : 0x61;
    writeFileSync(s.file, b);
    appendFileSync(s.file, `${s.lines.slice(half + 2, half + 3).join("\n")}\n`);
    const again = await sweepExchanges({ root: s.root, v4Dir: s.v4, stateDir: s.state, captured: null, warn: () => {} });
    expect(again).toMatchObject({ resumed: 0, fullReads: 1 });
  });
});
