// The randomised holdout in the real Claude Code client, of a check and of rule lines, with the
// Errata mod loaded (`--plugin-dir`, the installed package's mod/) beside the README's settings
// hooks. Opted in at one session in five (seed 1): a check denying npm, a rung-2 line of
// CLAUDE.md (always loaded) and a rung-1 line of a `paths:`-scoped rules file (loaded when the
// model reads package.json). Two sessions, each taking its id with `--session-id`: one the draws
// hold out of all three, one of none. In each the model reads package.json, then runs npm. In
// the held-out session the first request's CLAUDE.md lacks the line, the rules file that loads
// on the read lacks its line, and the npm call runs with its plain result (the check in shadow,
// logged `held_out`); in the other the lines are carried and the call is denied. `errata rules
// morning` then names the held-out session for the check and for each line. (Two files before,
// a pair of sessions each; one pair serves both: two client starts fewer.)
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { heldOut } from "../../runtime/ladder-formats/holdout.js";
import { tempDir } from "../helpers/io.js";
import { clientReady, clientSession, CLAUDE_CODE_VERSION, errataCli as errata, errataJson, HANG_GUARD_MS, installErrata, readmeHooks, workspace, type Workspace } from "./client.js";
import { contentText, startModelServer, toolResultFor, toolUseIdOf, type ModelServer, type RecordedRequest } from "./model-server.js";

const ready = clientReady();
const ALWAYS = "Keep commits small and focused on one change.";
const SCOPED = "Use pnpm, never npm.";
const CLAUDE_MD = `# Project\n\n- ${ALWAYS}\n- Reply in English.\n`;
const RULES_MD = `---\npaths:\n  - "package.json"\n---\n\n# Packages\n\n- ${SCOPED}\n- Pin exact versions.\n`;
const ONE_IN = 5;
const CHECK = { id: "no-npm", rule_id: "claude.tools.pnpm01", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "active", holdout: { one_in: ONE_IN, seed: 1 } };
const jsonl = (file: string) => readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>);
/** Every user message of a request as text: instruction files, attachments, tool results. */
const userText = (q: RecordedRequest): string => (q.body.messages ?? []).filter((m) => m.role === "user").map((m) => contentText(m.content)).join("\n");

interface Session {
  /** The user text of the first request (CLAUDE.md) and of the one after the read (the scoped file). */
  first: string;
  second: string;
  /** The npm call's tool_result. */
  npm: { text: string; isError: boolean | undefined };
}

describe.skipIf(!ready)(`the randomised holdout of a check and of rule lines in the real client (Claude Code ${CLAUDE_CODE_VERSION}, the Errata mod)`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let ws: Workspace;
  let modDir: string;
  let always: string;
  let scoped: string;
  let heldId: string;
  let treatedId: string;
  let held: Session;
  let treated: Session;

  /**
   * One session: the model reads package.json (the scoped file loads), runs npm, then answers.
   * A streamed session (clientSession), whose end waits for the hooks still running: the client
   * does not wait for an InstructionsLoaded hook, and a `claude -p` run that ended one reply
   * after the read lost the load's line once on a loaded machine.
   */
  async function session(id: string, file: string): Promise<Session> {
    server.script([{ tool: "Read", input: { file_path: join(ws.project, "package.json") } }, { tool: "Bash", input: { command: `npm --version > ${file}`, description: "npm version" } }, { text: "Done." }]);
    const from = server.requests.length;
    const client = clientSession(ws, server.url, { args: ["--session-id", id, "--plugin-dir", modDir] });
    expect(await client.turn("What is in package.json, and which npm is this?")).toMatchObject({ subtype: "success", is_error: false, session_id: id });
    const r = await client.end();
    expect(r.code, r.stderr).toBe(0);
    const main = server.requests.slice(from).filter((q) => q.main);
    expect(main).toHaveLength(3);
    const block = toolResultFor(main[2]!.body, toolUseIdOf(main[1]!)!)!;
    return { first: userText(main[0]!), second: userText(main[1]!), npm: { text: contentText([block]), isError: block.is_error } };
  }

  beforeAll(async () => {
    tmp = tempDir("errata-e2e-holdout-");
    const bin = await installErrata();
    modDir = join(dirname(bin), "errata", "mod");
    server = await startModelServer();
    ws = workspace(tmp.dir, bin, { hooks: readmeHooks(), claudeMd: CLAUDE_MD });
    mkdirSync(join(ws.project, ".claude", "rules"), { recursive: true });
    writeFileSync(join(ws.project, ".claude", "rules", "tools.md"), RULES_MD);
    writeFileSync(join(ws.project, "package.json"), `${JSON.stringify({ name: "demo", version: "1.0.0" }, null, 2)}\n`);

    expect(errataJson<{ ok: boolean; units: number }>(ws, ["rules", "build"])).toMatchObject({ ok: true, units: 4 });
    // The audit puts the index's rules in the ladder's ledger (no transcript yet: no turn counted).
    expect(errataJson<{ ok: boolean; turns: number }>(ws, ["rules", "audit"])).toMatchObject({ ok: true, turns: 0 });
    const rules = jsonl(join(ws.ledger, "ladder", "rules.jsonl")).filter((l) => l["kind"] === "rule");
    const idOf = (text: string) => String(rules.find((l) => String(l["text"]).includes(text))?.["rule_id"]);
    always = idOf(ALWAYS);
    scoped = idOf(SCOPED);
    expect(rules.find((l) => l["rule_id"] === always)).toMatchObject({ rung: 2 });
    expect(rules.find((l) => l["rule_id"] === scoped)).toMatchObject({ rung: 1 });
    for (const id of [always, scoped]) {
      const r = errata(ws, ["rules", "holdout", id, "--one-in", String(ONE_IN)]);
      expect(r.code, r.err).toBe(0);
      expect(r.out).toContain(`rule ${id}: held out in 1 of ${ONE_IN} sessions (seed 1)`);
    }
    // The check, opted in as the owner's checks file holds it.
    writeFileSync(join(ws.ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [CHECK] }));

    // Session ids the client takes with --session-id: one the draws hold out of the check and both rules, one of none.
    const draws = (id: string) => [heldOut(CHECK, id), ...[always, scoped].map((rule) => heldOut({ id: rule, holdout: { one_in: ONE_IN, seed: 1 } }, id))];
    const pick = (want: boolean): string => {
      for (;;) {
        const id = randomUUID();
        if (draws(id).every((d) => d === want)) return id;
      }
    };
    heldId = pick(true);
    treatedId = pick(false);
    held = await session(heldId, "held.txt");
    treated = await session(treatedId, "treated.txt");
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("a held-out session's requests lack the rules' lines, a treated one's carry them; the withholdings are recorded", () => {
    expect(held.first).toContain(`Contents of ${join(ws.project, "CLAUDE.md")}`);
    expect(held.first).toContain("Reply in English.");
    expect(held.first).not.toContain(ALWAYS);
    expect(held.second).toContain(`Contents of ${join(ws.project, ".claude", "rules", "tools.md")}`);
    expect(held.second).toContain("Pin exact versions.");
    expect(held.second).not.toContain(SCOPED);

    expect(treated.first).toContain(ALWAYS);
    expect(treated.second).toContain(`Contents of ${join(ws.project, ".claude", "rules", "tools.md")}`);
    expect(treated.second).toContain(SCOPED);

    // The mod's record of each withholding (the settings hook records the plain loads).
    const loads = jsonl(join(ws.ledger, "ladder", "instructions-loaded.jsonl"));
    const withheld = loads.filter((l) => Array.isArray(l["withheld"])).map((l) => [l["session_id"], l["file_path"], l["withheld"]]);
    expect(withheld.sort()).toEqual(
      [
        [heldId, join(ws.project, "CLAUDE.md"), [always]],
        [heldId, join(ws.project, ".claude", "rules", "tools.md"), [scoped]],
      ].sort(),
    );
  });

  it("a held-out session's check records and does not block; the other session's denies", () => {
    expect(held.npm.text).not.toContain("[errata check no-npm");
    expect(existsSync(join(ws.project, "held.txt"))).toBe(true);
    expect(treated.npm.text).toContain("[errata check no-npm, rule claude.tools.pnpm01] Use pnpm, never npm.");
    expect(treated.npm.isError).toBe(true);
    expect(existsSync(join(ws.project, "treated.txt"))).toBe(false);

    const events = jsonl(join(ws.ledger, "ladder", "tool-events.jsonl"));
    expect(events.map((e) => [e["session_id"], e["mode"], e["fired"], e["decision"], e["held_out"] ?? false])).toEqual([
      [heldId, "shadow", true, null, true],
      [treatedId, "active", true, "deny", false],
    ]);
  });

  it("the morning report names the held-out session for the check and for each rule line", () => {
    const morning = errata(ws, ["rules", "morning", "--dry-run"]);
    expect(morning.code, morning.err).toBe(0);
    expect(morning.out).toContain("Randomised holdout");
    expect(morning.out).toContain("check no-npm: 0/1 vs 0/1 chances slipped (acting vs held out, 1 and 1 sessions)");
    expect(morning.out).toContain("Randomised holdout of rule lines");
    for (const id of [always, scoped]) {
      expect(morning.out).toContain(`rule ${id}: 0/1 vs 0/1 chances slipped (in force vs held out; a chance is a session the rule was in play)`);
    }
    // One line naming the held-out session for the check and one for each rule line.
    expect(morning.out.split("\n").filter((l) => l.includes(`held out 1 in ${ONE_IN} sessions; held-out sessions: ${heldId}`))).toHaveLength(3);
    expect(morning.out).not.toContain(`held-out sessions: ${treatedId}`);
  });
});
