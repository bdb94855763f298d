// The Errata mod in the real Claude Code client: the plugin folder of the installed package
// (`claude --plugin-dir <prefix>/node_modules/errata/mod`), against the same scripted sessions
// as the README's settings hooks. Three arms, one after another on one scripted model: the
// settings hooks alone, the mod alone, both installed, each one session of four prompts in one
// client process. The mod's ledger, tool-event and instructions-loaded lines must equal the
// hooks' line for line (ids, times and paths aside); both installed must write each line once;
// what reached the model must be the same deny, ask, rewrite, warning and capture line. Then a
// fault injected into the mod's own write: logged, the turn unchanged.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { clientReady, clientSession, CLAUDE_CODE_VERSION, HANG_GUARD_MS, installErrata, ledgerRows, processesSettled, readmeHooks, runClient, workspace, type Workspace } from "./client.js";
import { contentText, startModelServer, toolResultFor, toolUseIdOf, type ModelServer, type RecordedRequest, type Turn } from "./model-server.js";

const ready = clientReady();

const checks = [
  { id: "no-npm", rule_id: "claude.tools.pnpm01", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "active" },
  { id: "colour-to-color", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "colour" }], action: "rewrite", message: "American spelling in generated files.", rewrite: { field: "command", pattern: "colour", replacement: "color", decision: "allow" }, mode: "active" },
  { id: "push-warning", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "git push" }], action: "warn", message: "Pushing: say which branch first.", mode: "active" },
  { id: "ask-deploy", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "deploy" }], action: "ask", message: "Deploys need the owner's yes.", mode: "active" },
  { id: "shadow-touch", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "shadowed" }], action: "deny", message: "Never touch shadowed files.", mode: "shadow" },
];

/** The prompts every arm types, one session: a prompt, the model's turns. */
const SESSIONS: Array<{ prompt: string; turns: Turn[] }> = [
  {
    prompt: "Tidy up the workspace.",
    turns: [
      { tool: "Bash", input: { command: "npm --version > npm-ran.txt", description: "npm version" } },
      { tool: "Bash", input: { command: "echo colour > spelling.txt", description: "write spelling" } },
      { tool: "Bash", input: { command: "echo git push origin main > pushed.txt", description: "note a push" } },
      { tool: "Bash", input: { command: "echo shadowed > shadowed.txt", description: "touch" } },
      { text: "All four done." },
    ],
  },
  { prompt: "No, that's wrong. Use pnpm, never npm.", turns: [{ text: "Sorry, pnpm from now on." }] },
  { prompt: "Deploy it.", turns: [{ tool: "Bash", input: { command: "echo deploy > deployed.txt", description: "deploy" } }, { text: "Stopped." }] },
  { prompt: "Thanks, that was great work!", turns: [{ text: "Glad to help." }] },
];

interface Arm {
  ws: Workspace;
  /** The session's own requests, per scripted session. */
  main: RecordedRequest[][];
  debug: string;
  /** The client's stderr, for a failure's message. */
  stderr: string;
}
/** The reflection's receipts of an arm (the why of a missing sorted line), for a failure's message. */
const receipts = (ws: Workspace): string => {
  const f = join(ws.ledger, "ladder", "receipts.jsonl");
  return existsSync(f) ? readFileSync(f, "utf8").trim() : "none";
};

const lines = (file: string): Array<Record<string, unknown>> => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>) : []);

/**
 * Tool-event lines grouped by their tool call, in the order the model server gave the calls
 * their ids (toolu_e2e000001, …: one counter for the run), each call's lines in the order
 * written. Each call's lines are written by a child of its own in the background, so two calls
 * of one turn can land in either order (a CI run on 2026-12-07 had them swapped in one arm).
 * Rows without a tool call keep their place (a stable sort on an equal key).
 */
function inCallOrder(rows: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  const key = (r: Record<string, unknown>): string => (typeof r["tool_use_id"] === "string" ? r["tool_use_id"] : "");
  return rows.every((r) => key(r) !== "") ? [...rows].sort((a, b) => key(a).localeCompare(key(b))) : rows;
}

/** Rows with what differs between two runs of one script replaced: ids, times, session ids, the scratch folder. */
function normalized(rows: unknown[], root: string): unknown[] {
  const text = JSON.stringify(rows)
    .split(root)
    .join("<root>")
    .replace(/er-\d{8}-[0-9a-f]+/g, "er-<id>")
    .replace(/"(ts|at)":"[^"]+"/g, '"$1":"<time>"')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
    .replace(/toolu_e2e\d+/g, "<tool-use>")
    .replace(/\b(i|rp|ex)-[0-9a-f]{12,16}\b/g, "$1-<id>");
  return JSON.parse(text) as unknown[];
}

function resultAfter(main: RecordedRequest[], k: number): { text: string; isError: boolean | undefined } {
  const block = toolResultFor(main[k + 1]!.body, toolUseIdOf(main[k]!)!);
  expect(block, `a tool_result after tool call ${k}`).toBeDefined();
  return { text: contentText([block!]), isError: block!.is_error };
}
const allText = (q: RecordedRequest) => (q.body.messages ?? []).map((m) => contentText(m.content)).join("\n");

describe.skipIf(!ready)(`the Errata mod in the real client (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  let server: ModelServer;
  let modDir: string;
  const arms: Record<"hooks" | "mod" | "both", Arm> = {} as never;

  async function runArm(name: "hooks" | "mod" | "both"): Promise<Arm> {
    const bin = await installErrata();
    const ws = workspace(join(tmp.dir, name), bin, { hooks: name === "mod" ? {} : readmeHooks(), claudeMd: "# Project\n\n- Use pnpm, never npm.\n" });
    mkdirSync(join(ws.ledger, "ladder"), { recursive: true });
    writeFileSync(join(ws.ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks }));
    const debug = join(tmp.dir, `${name}.debug.log`);
    const args = name === "hooks" ? [] : ["--plugin-dir", modDir, "--debug-file", debug];
    const main: RecordedRequest[][] = [];
    // The arm's prompts are turns of one session: one client process takes them all (clientSession).
    const session = clientSession(ws, server.url, { args });
    for (const s of SESSIONS) {
      server.script(s.turns);
      const from = server.requests.length;
      const r = await session.turn(s.prompt);
      expect(r.subtype, `${name}: ${s.prompt}`).toBe("success");
      expect(server.pending(), `${name}: ${s.prompt}`).toBe(0);
      main.push(server.requests.slice(from).filter((q) => q.main));
    }
    const ended = await session.end();
    expect(ended.code, `${name}: ${ended.stderr}`).toBe(0);
    // The mod's children (tool-event and instructions lines, the Stop hand-off) run in the
    // background: wait for the last of them to end (a fixed 1.5 s before).
    await processesSettled(ws.project);
    return { ws, main, debug: existsSync(debug) ? readFileSync(debug, "utf8") : "", stderr: ended.stderr };
  }

  beforeAll(async () => {
    tmp = tempDir("errata-e2e-mod-");
    const bin = await installErrata();
    modDir = join(dirname(bin), "errata", "mod");
    server = await startModelServer();
    arms.hooks = await runArm("hooks");
    arms.mod = await runArm("mod");
    arms.both = await runArm("both");
  }, HANG_GUARD_MS);
  afterAll(async () => {
    await server?.close();
    tmp?.cleanup();
  });

  it("the client loads the installed package's mod as a worker module, with every event it hooks", () => {
    expect(existsSync(join(modDir, "hooks", "errata-core.js"))).toBe(true);
    expect(arms.mod.debug).toMatch(/hooks module errata@inline loaded \(worker[^)]*\); events: session\.start,prompt\.submit,turn\.complete,tool\.check,tool\.call,prompt\.context,command\.run/);
    expect(arms.mod.debug).toContain("/errata listed");
  });

  it("the mod writes the hooks' ledger rows, tool-event lines, instruction loads and sorts, line for line", () => {
    const hooks = arms.hooks.ws;
    const mod = arms.mod.ws;
    const rows = ledgerRows(hooks);
    // A correction and praise: two rows, the same in both.
    expect(rows.map((r) => r["kind"])).toEqual(["correction", "praise"]);
    expect(normalized(ledgerRows(mod), join(tmp.dir, "mod"))).toEqual(normalized(rows, join(tmp.dir, "hooks")));
    for (const f of ["tool-events.jsonl", "instructions-loaded.jsonl", "sorted.jsonl"]) {
      const want = inCallOrder(lines(join(hooks.ledger, "ladder", f)));
      // On a miss, the reflection's receipts and the client's stderr say why (a CI run on
      // 2026-12-07 lost the sorted line in one arm, not reproduced on a loaded machine since).
      expect(want.length, `${f}; hooks receipts: ${receipts(hooks)}; stderr: ${arms.hooks.stderr.slice(-800)}`).toBeGreaterThan(0);
      expect(normalized(inCallOrder(lines(join(mod.ledger, "ladder", f))), join(tmp.dir, "mod")), f).toEqual(normalized(want, join(tmp.dir, "hooks")));
    }
  });

  it("what reached the model: the same deny, rewrite, warning, ask and capture line as the hooks'", () => {
    for (const name of ["hooks", "mod"] as const) {
      const { ws, main } = arms[name];
      const first = main[0]!;
      const deny = resultAfter(first, 0);
      expect(deny.isError, name).toBe(true);
      expect(deny.text, name).toContain("[errata check no-npm, rule claude.tools.pnpm01] Use pnpm, never npm.");
      expect(existsSync(join(ws.project, "npm-ran.txt")), name).toBe(false);
      expect(readFileSync(join(ws.project, "spelling.txt"), "utf8"), name).toBe("color\n");
      expect(allText(first[3]!), name).toContain('The owner set a check on calls like this one (errata check push-warning): "Pushing: say which branch first."');
      expect(allText(first[2]!), name).not.toContain("Pushing: say which branch first.");
      expect(readFileSync(join(ws.project, "shadowed.txt"), "utf8"), name).toBe("shadowed\n");
      expect(allText(first[4]!), name).not.toContain("Never touch shadowed files");
      expect(allText(main[1]![0]!), name).toMatch(/Errata captured this prompt as a correction \(er-\d{8}-[0-9a-f]+\); acceptance pending\./);
      const ask = resultAfter(main[2]!, 0);
      expect(ask.isError, name).toBe(true);
      expect(ask.text, name).toContain("Deploys need the owner's yes.");
      expect(existsSync(join(ws.project, "deployed.txt")), name).toBe(false);
    }
  });

  it("both installed: the mod stands down, and every line is written once", () => {
    const hooks = arms.hooks.ws;
    const both = arms.both.ws;
    expect(normalized(ledgerRows(both), join(tmp.dir, "both"))).toEqual(normalized(ledgerRows(hooks), join(tmp.dir, "hooks")));
    for (const f of ["tool-events.jsonl", "sorted.jsonl"]) {
      expect(normalized(lines(join(both.ledger, "ladder", f)), join(tmp.dir, "both")), `${f}; both receipts: ${receipts(both)}; hooks receipts: ${receipts(hooks)}; stderr: ${arms.both.stderr.slice(-800)}`).toEqual(normalized(lines(join(hooks.ledger, "ladder", f)), join(tmp.dir, "hooks")));
    }
    // Observed: with a mod loaded, the client fires InstructionsLoaded twice in a continued
    // session (`-c`: before and after it loads the plugin), and the settings hook records both.
    // The arms' prompts are now one session, but the comparison stays by distinct load. The mod
    // writes none of them (it runs no child at all here): the same loads, by session and file.
    const loads = (ws: Workspace, root: string) => [...new Set(normalized(lines(join(ws.ledger, "ladder", "instructions-loaded.jsonl")), root).map((l) => JSON.stringify(l)))];
    expect(loads(both, join(tmp.dir, "both"))).toEqual(loads(hooks, join(tmp.dir, "hooks")));
    // The capture line reached the model once, not twice.
    const said = allText(arms.both.main[1]![0]!).match(/Errata captured this prompt/g) ?? [];
    expect(said).toHaveLength(1);
    expect(arms.both.debug).not.toContain("$.process.run (errata)");
  });

  it("a fault in the mod is logged and the turn goes on unchanged", async () => {
    const ws = arms.mod.ws;
    // The state folder is a file: the record of the last reply cannot be written.
    const blocked = join(tmp.dir, "state-is-a-file");
    writeFileSync(blocked, "");
    server.script([{ text: "Still here." }]);
    const debug = join(tmp.dir, "fault.debug.log");
    const r = await runClient(ws, server.url, "What is left to do?", { continue: true, args: ["--plugin-dir", modDir, "--debug-file", debug], env: { ERRATA_STATE_DIR: blocked } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe("Still here.");
    expect(readFileSync(debug, "utf8")).toMatch(/errata mod: turn\.complete fault \(.*ENOTDIR.*\); the event passes on unchanged/);
  });
});
