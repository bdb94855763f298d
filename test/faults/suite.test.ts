import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain ES module script without types (scripts/faults.mjs)
import { runFaults } from "../../scripts/faults.mjs";

interface Row {
  fault: string;
  tries: number;
  survived: number;
  lost: number;
  note: string;
}

/**
 * The short version of the fault suite (`npm run faults` is the long one, whose table is in
 * docs/reliability.md): a few SIGKILLs at random moments in add, the hook, rotate, daily and
 * exchanges, a full disk, a stalled model server, a FIFO transcript. Nothing acknowledged is
 * lost and every interrupted job recovers on its next run.
 */
describe("the fault suite, short (scripts/faults.mjs --quick)", () => {
  it("every fault is survived: nothing lost", async () => {
    const rows = (await runFaults({ quick: true, seed: 17 })) as Row[];
    for (const r of rows) if (r.tries === 0) console.log(`SKIP fault ${r.fault}: ${r.note}`);
    expect(rows.map((r) => r.fault)).toEqual(["add", "hook", "rotate", "daily", "exchanges", "full-disk", "stalled-server", "fifo"]);
    for (const r of rows) {
      expect(r.lost, `${r.fault}: ${r.note}`).toBe(0);
      expect(r.survived, `${r.fault}: ${r.note}`).toBe(r.tries);
    }
    expect(rows.filter((r) => r.fault !== "full-disk").every((r) => r.tries > 0)).toBe(true);
  });
});
