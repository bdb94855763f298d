// The randomised holdout in the real Claude Code client: a check the owner opted in (one
// session in five, seed 1) runs in shadow in a held-out session (the command runs, the model
// sees its plain result, the log line says held_out) and denies in a session that is not held
// out; `errata rules morning` then names the held-out session.
import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heldOut } from "../../runtime/ladder-formats/holdout.js";
import { tempDir } from "../helpers/io.js";
import { clientReady, CLAUDE_CODE_VERSION, HANG_GUARD_MS, installErrata, readmeHooks, runClient, workspace, type Workspace } from "./client.js";
import { contentText, startModelServer, toolResultFor, toolUseIdOf, type ModelServer } from "./model-server.js";

const ready = clientReady();
const CHECK = { id: "no-npm", rule_id: "claude.tools.pnpm01", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "active", holdout: { one_in: 5, seed: 1 } };

/** A session id the hook's draw holds out (or not): the client takes it with --session-id. */
function sessionWhere(held: boolean): string {
  for (;;) {
    const id = randomUUID();
    if (heldOut(CHECK, id) === held) return id;
  }
}

describe.skipIf(!ready)(`the randomised holdout in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let ws: Workspace;
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-holdout-");
    const bin = await installErrata();
    server = await startModelServer();
    ws = workspace(tmp.dir, bin, { hooks: readmeHooks(), claudeMd: "# Project\n\n- Use pnpm, never npm.\n" });
    mkdirSync(join(ws.ledger, "ladder"), { recursive: true });
    writeFileSync(join(ws.ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [CHECK] }));
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  async function session(id: string, file: string) {
    server.script([{ tool: "Bash", input: { command: `npm --version > ${file}`, description: "npm version" } }, { text: "Done." }]);
    const asked = server.requests.length;
    const r = await runClient(ws, server.url, "Which npm is this?", { args: ["--session-id", id] });
    expect(r.code, r.stderr).toBe(0);
    const main = server.requests.slice(asked).filter((q) => q.main);
    expect(main).toHaveLength(2);
    const block = toolResultFor(main[1]!.body, toolUseIdOf(main[0]!)!)!;
    return { text: contentText([block]), isError: block.is_error };
  }

  it("a held-out session's check records and does not block; another session's denies; the morning report names the held-out one", async () => {
    const held = sessionWhere(true);
    const acting = sessionWhere(false);
    const h = await session(held, "held.txt");
    expect(h.text).not.toContain("[errata check no-npm");
    expect(existsSync(join(ws.project, "held.txt"))).toBe(true);
    const a = await session(acting, "acting.txt");
    expect(a.text).toContain("[errata check no-npm, rule claude.tools.pnpm01] Use pnpm, never npm.");
    expect(a.isError).toBe(true);
    expect(existsSync(join(ws.project, "acting.txt"))).toBe(false);

    const events = readFileSync(join(ws.ledger, "ladder", "tool-events.jsonl"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => [e["session_id"], e["mode"], e["fired"], e["decision"], e["held_out"] ?? false])).toEqual([
      [held, "shadow", true, null, true],
      [acting, "active", true, "deny", false],
    ]);
    const morning = spawnSync(join(ws.bin, "errata"), ["rules", "morning", "--dry-run"], { cwd: ws.project, env: { PATH: `${ws.bin}:${process.env["PATH"] ?? ""}`, HOME: ws.home }, encoding: "utf8" });
    expect(morning.status, morning.stderr).toBe(0);
    expect(morning.stdout).toContain("Randomised holdout");
    expect(morning.stdout).toContain(`held out 1 in 5 sessions; held-out sessions: ${held}`);
    expect(morning.stdout).toContain("check no-npm: 0/1 vs 0/1 chances slipped (acting vs held out, 1 and 1 sessions)");
  });
});
