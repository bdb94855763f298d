// The journey's two fast steps: capture (once per exchange, typed text only) and reflection
// (once per captured exchange, a receipt every run).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { capture, capturedIds, readReceipts, reflect, sortedCauses, type OwnerTurn } from "../../runtime/ladder/index.js";
import { tempDir } from "../helpers/io.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-journey-steps-")));
afterEach(() => tmp.cleanup());
const turn: OwnerTurn = { exchange_id: "ex-1", session_id: "s", ts: "2026-11-30T10:00:00Z", origin: "typed", text: "No, that's wrong.", reply_before: null, tools_before: [], tools_after: [] };

describe("capture and reflect", () => {
  it("capture writes once per exchange and never for text the owner did not type", () => {
    expect(capture(tmp.dir, turn)).toBe(true);
    expect(capture(tmp.dir, turn)).toBe(false);
    expect(capture(tmp.dir, { ...turn, exchange_id: "ex-2", origin: "web" })).toBe(false);
    expect([...capturedIds(tmp.dir)]).toEqual(["ex-1"]);
  });

  it("reflect sorts a captured exchange once, leaves an uncaptured one, and writes a receipt every run", () => {
    expect(reflect(tmp.dir, "ex-1", "rule_gap", "2026-11-30T10:01:00Z")).toBe(false); // before its capture
    capture(tmp.dir, turn);
    expect(reflect(tmp.dir, "ex-1", "rule_gap", "2026-11-30T10:02:00Z")).toBe(true);
    expect(reflect(tmp.dir, "ex-1", "environment", "2026-11-30T10:03:00Z")).toBe(false);
    expect(sortedCauses(tmp.dir).get("ex-1")).toBe("rule_gap");
    expect(readReceipts(tmp.dir).map((r) => [r.loop, r.counts["sorted"]])).toEqual([["reflection", 0], ["reflection", 1], ["reflection", 0]]);
  });
});
