import { copyFileSync, mkdirSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readExchanges } from "../../runtime/judgments/index.js";
import { cursorPath } from "../../runtime/transcripts/cursor.js";
import { exchangesPath, sweepExchanges } from "../../runtime/transcripts/sweep.js";
import { tempDir } from "../helpers/io.js";
import { spotterDir } from "./fixtures.js";

const cleanups: (() => void)[] = [];
const quiet = { warn: () => undefined };
afterEach(() => {
  while (cleanups.length) cleanups.pop()?.();
});

/**
 * The loss: a sweep dies while appending to v4/exchanges.jsonl, leaving its last row
 * torn (and its cursor unsaved, since the cursor is saved after the appends). The next sweep
 * must bring every exchange back: nothing glued onto the fragment, the torn one appended again.
 */
describe("a torn write to exchanges.jsonl loses no exchange", () => {
  it("tear the last row, run the next sweep: every exchange is readable back, and --full adds nothing", async () => {
    const t = tempDir("errata-torn-");
    cleanups.push(t.cleanup);
    const root = join(t.dir, "projects", "-home-USER-projects-spotter");
    mkdirSync(root, { recursive: true });
    const opts = { root: join(t.dir, "projects"), v4Dir: join(t.dir, "v4"), stateDir: join(t.dir, "state"), warn: () => undefined };
    const out = exchangesPath(opts.v4Dir);

    copyFileSync(join(spotterDir, "short.jsonl"), join(root, "short.jsonl"));
    expect((await sweepExchanges(opts)).newExchanges).toBe(1);
    const cursorBefore = readFileSync(cursorPath(opts.stateDir));

    copyFileSync(join(spotterDir, "tool_heavy.jsonl"), join(root, "tool_heavy.jsonl"));
    expect((await sweepExchanges(opts)).newExchanges).toBe(2);
    // The crash: the last row cut after its id, the cursor of the run before left in place.
    const text = readFileSync(out, "utf8");
    const lastStart = text.lastIndexOf("\n", text.length - 2) + 1;
    truncateSync(out, Buffer.byteLength(text.slice(0, lastStart + 60)));
    writeFileSync(cursorPath(opts.stateDir), cursorBefore);
    const torn = readExchanges([out], quiet);
    expect(torn.rows).toHaveLength(2);
    expect(torn.problems).toMatchObject([{ line: 3, code: "torn-tail", severity: "warning" }]);

    // A new transcript arrives before the next run, so that run appends after the fragment.
    copyFileSync(join(spotterDir, "subagent.jsonl"), join(root, "subagent.jsonl"));
    const warnings: string[] = [];
    const next = await sweepExchanges({ ...opts, warn: (l) => warnings.push(l) });
    expect(next.newExchanges).toBe(2);
    expect(warnings.join("\n")).toMatch(/exchanges\.jsonl:3: torn last line skipped/);

    const once = tempDir("errata-torn-once-");
    cleanups.push(once.cleanup);
    await sweepExchanges({ ...opts, v4Dir: join(once.dir, "v4"), stateDir: join(once.dir, "state") });
    const expected = readExchanges([exchangesPath(join(once.dir, "v4"))], quiet).rows.map((e) => e.id).sort();
    expect(expected).toHaveLength(4);

    const back = readExchanges([out], quiet);
    expect(back.rows.map((e) => e.id).sort()).toEqual(expected);
    // The fragment is its own line now: reported with its line number, glued to nothing.
    expect(back.problems).toMatchObject([{ line: 3, code: "malformed-json", severity: "error" }]);
    expect(readFileSync(out, "utf8").split("\n").filter((l) => (l.match(/"schema":"exchange\/1"/g) ?? []).length > 1)).toEqual([]);

    const full = await sweepExchanges({ ...opts, full: true });
    expect(full).toMatchObject({ newExchanges: 0, alreadyPresent: 4 });
  });
});
