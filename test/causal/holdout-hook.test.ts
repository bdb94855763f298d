// The randomised holdout in the tool path: a check the owner opted in runs in shadow in a
// seeded 1-in-N of sessions (it records and does not block), acts in the others, and every
// call of one session gets the same draw.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runToolHook, type ToolHookRunIo } from "../../runtime/hooks/tool-hook.js";
import { heldOut } from "../../runtime/ladder-formats/holdout.js";
import { tempDir } from "../helpers/io.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-holdout-")));
afterEach(() => tmp.cleanup());

const CHECK = { id: "no-npm", rule_id: "claude.tools.1a2b3c", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm, not npm.", mode: "active", holdout: { one_in: 5, seed: 1 } };

async function call(session: string, command: string) {
  const ledger = join(tmp.dir, "ledger");
  mkdirSync(join(ledger, "ladder"), { recursive: true });
  writeFileSync(join(ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [CHECK] }));
  let out = "";
  const io: ToolHookRunIo = {
    readStdin: () => JSON.stringify({ session_id: session, cwd: "/nowhere", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: `toolu_${session}` }),
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => true },
    env: { ERRATA_DIR: ledger, HOME: join(tmp.dir, "home") },
    cwd: tmp.dir,
    now: () => Date.parse("2026-12-06T12:00:00.000Z"),
  };
  const code = await runToolHook(["pre-tool-use"], io);
  return { code, out, events: readFileSync(join(ledger, "ladder", "tool-events.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>) };
}

const sessions = Array.from({ length: 4000 }, (_, i) => `session-${i}`);

describe("the randomised holdout's draw", () => {
  it("holds out about one session in five, the same way every time, and never a call with no session", () => {
    const n = sessions.filter((s) => heldOut(CHECK, s)).length;
    // Binomial(4000, 0.2): mean 800, sd 25.3; the seeded draw gives a fixed count.
    expect(n).toBe(sessions.filter((s) => heldOut(CHECK, s)).length);
    expect(Math.abs(n - 800)).toBeLessThan(4 * 25.3);
    expect(heldOut(CHECK, null)).toBe(false);
    expect(heldOut({ id: "no-npm" }, "session-0")).toBe(false);
    // Another seed draws other sessions.
    const other = sessions.filter((s) => heldOut({ ...CHECK, holdout: { one_in: 5, seed: 2 } }, s) !== heldOut(CHECK, s)).length;
    expect(other).toBeGreaterThan(800);
  });
});

describe("a held-out session in the hook", () => {
  const held = sessions.find((s) => heldOut(CHECK, s))!;
  const acting = sessions.find((s) => !heldOut(CHECK, s))!;
  it("the check records its would-be fire and does not block", async () => {
    const r = await call(held, "npm install lodash");
    expect(r.code).toBe(0);
    expect(r.out).toBe("");
    expect(r.events).toEqual([expect.objectContaining({ session_id: held, check: "no-npm", mode: "shadow", fired: true, decision: null, held_out: true })]);
  });
  it("in a session not held out the same check denies, and its line carries no held_out", async () => {
    const r = await call(acting, "npm install lodash");
    expect(JSON.parse(r.out)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    expect(r.events[0]).toMatchObject({ session_id: acting, mode: "active", fired: true, decision: "deny" });
    expect(r.events[0]!["held_out"]).toBeUndefined();
  });
});
