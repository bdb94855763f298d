// The hook's transcript tail: read in two steps (the last 64 KB, then the last 512 KB only
// when the turn began earlier), which must give what one read of the whole tail gives.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FIRST_TAIL_BYTES, parseTailBytes, parseTranscriptTail, readTailText, readTranscriptTail, TAIL_BYTES } from "../../runtime/hooks/transcript-tail.js";
import { tempDir } from "../helpers/io.js";
import { transcriptLines } from "./hook-helpers.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const spotter = join(repoRoot, "datasets", "claude-code", "spotter");

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-tail-")));
afterEach(() => tmp.cleanup());

const wholeTail = (file: string, prompt: string | null) => parseTranscriptTail(readTailText(file, TAIL_BYTES), prompt);

describe("readTranscriptTail", () => {
  it("equals one read of the whole tail at every line of the bundled sessions", () => {
    let checked = 0;
    for (const name of readdirSync(spotter).filter((f) => f.endsWith(".jsonl"))) {
      const lines = readFileSync(join(spotter, name), "utf8").split("\n").filter((l) => l !== "");
      for (let n = 1; n <= lines.length; n++) {
        const file = join(tmp.dir, `${name}-${n}`);
        writeFileSync(file, `${lines.slice(0, n).join("\n")}\n`);
        expect(readTranscriptTail(file, "that's wrong")).toEqual(wholeTail(file, "that's wrong"));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it("skipping tool-result lines unparsed changes nothing, at every line of the bundled sessions", () => {
    let skippable = 0;
    let checked = 0;
    for (const name of readdirSync(spotter).filter((f) => f.endsWith(".jsonl"))) {
      const lines = readFileSync(join(spotter, name), "utf8").split("\n").filter((l) => l !== "");
      skippable += lines.filter((l) => l.includes('"type":"tool_result"') && l.includes('"type":"user"') && !l.includes('"type":"assistant"')).length;
      for (let n = 1; n <= lines.length; n++) {
        const bytes = Buffer.from(`${lines.slice(0, n).join("\n")}\n`);
        for (const prompt of [null, "that's wrong"]) {
          expect(parseTailBytes(bytes, prompt, 10, true)).toEqual(parseTailBytes(bytes, prompt, 10, false));
          checked++;
        }
      }
    }
    // The sessions have such lines (else the comparison would prove nothing).
    expect(skippable).toBeGreaterThan(10);
    expect(checked).toBeGreaterThan(100);
  });

  it("finds the ask of a turn longer than the first read (a 200 KB tool result)", () => {
    const file = join(tmp.dir, "long-turn.jsonl");
    const big = "x".repeat(200 * 1024);
    writeFileSync(file, transcriptLines("s1", "run the whole suite", `Done.${big}`));
    expect(readFileSync(file).length).toBeGreaterThan(FIRST_TAIL_BYTES);
    const tail = readTranscriptTail(file, null);
    expect(tail.previousPrompt).toBe("run the whole suite");
    expect(tail.reply?.startsWith("Done.")).toBe(true);
    expect(tail).toEqual(wholeTail(file, null));
  });

  it("a turn longer than the whole tail: no ask, as before", () => {
    const file = join(tmp.dir, "huge-turn.jsonl");
    writeFileSync(file, transcriptLines("s1", "run it", `Done.${"y".repeat(TAIL_BYTES)}`));
    const tail = readTranscriptTail(file, null);
    expect(tail.previousPrompt).toBeNull();
    expect(tail).toEqual(wholeTail(file, null));
  });
});
