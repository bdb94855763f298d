// The owner's pane in the Errata mod, through the bundle the package ships (mod/hooks/errata-core.js)
// with ports standing for `$` whose `run` runs the package's own CLI over a scratch ladder. So what
// the pane draws is what `errata rules morning` and `errata rules approvals` print, and a press on
// Approve / Reject / Undo (or `/errata approve ID`) is the same `errata rules` command, under the
// same run lock, changing the real files. What the real client draws: test/e2e/pane.test.ts (the
// client's own plugin test kit).
//
// The mod asks for `node <package>/bin/errata.cjs ARGS`. Where the lock is held by another
// process, that is a real child (the refusal test); elsewhere ARGS run through the compiled CLI's
// `run(argv, io)` in this process, with the child's environment and folder (test/cli/in-process.ts,
// `callInProcess`), and the reference output the first test compares the pane with comes from real
// `node bin/errata.cjs` processes: a start is about 1.9 CPU-s, and the other tests make a dozen runs.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { acquireRunLock } from "../../runtime/files/index.js";
// The ladder modules this test uses, not the room's index (which loads the whole room: seconds of transform).
import { openRuleLedger } from "../../runtime/ladder/ledger.js";
import { addProposal, readProposals } from "../../runtime/ladder/proposals.js";
import { readShadowLines, shadowVerdict, writeShadowVerdicts } from "../../runtime/ladder/shadow.js";
import { resolvePaths } from "../../runtime/paths.js";
import type { ModApi } from "../../runtime/mod/api.js";
import type * as Core from "../../runtime/mod/core.js";
import type { Check } from "../../runtime/ladder-formats/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import type { Io } from "../../cli/shared/io.js";
import { callInProcess } from "../cli/in-process.js";
import { repoRoot } from "../e2e/client.js";
import { tempDir } from "../helpers/io.js";
import { pnpm } from "../ladder/helpers.js";

const bundle = join(repoRoot, "mod", "hooks", "errata-core.js");
const compiledCli = join(repoRoot, "dist", "cli", "main.js");
let core: typeof Core;
let runCli: (argv: string[], io: Io) => Promise<number>;
beforeAll(async () => {
  for (const f of [bundle, compiledCli]) if (!existsSync(f)) throw new Error(`${f} is missing: run npm run build first`);
  core = (await import(bundle)) as typeof Core;
  ({ run: runCli } = (await import(compiledCli)) as { run: typeof runCli });
});

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-mod-pane-")));
afterEach(() => tmp.cleanup());

const ledger = () => join(tmp.dir, "ledger");
const ladder = () => join(ledger(), "ladder");
const project = () => join(tmp.dir, "app");
const checksFile = () => join(ladder(), "checks.json");
const SHADOW: Check = { id: "ladder-claude.tools.pnpm01", rule_id: pnpm.rule_id, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" }], action: "deny", message: "Use pnpm, never npm.", mode: "shadow" };
const PUSH: Check = { id: "ladder-git.push01", rule_id: "git.push01", tools: ["Bash"], conditions: [{ field: "command", operator: "starts_with", pattern: "git push --force" }], action: "deny", message: "No force pushes.", mode: "active" };

/** A check in shadow with the last audit's gate reading, a leave_shadow proposal for it, and a climb that installs a drafted check with its replay. */
function seed(): { leave: string; climb: string } {
  mkdirSync(ladder(), { recursive: true });
  mkdirSync(project(), { recursive: true });
  writeFileSync(checksFile(), `${JSON.stringify({ version: 1, checks: [SHADOW] }, null, 2)}\n`);
  openRuleLedger(ladder()).append([{ ...pnpm, rung: 3, location: { kind: "check", check: SHADOW.id } }]);
  const days = ["2026-11-20", "2026-11-24", "2026-11-28"];
  const verdict = shadowVerdict({ ...SHADOW }, days.map((d, i) => ({ check: SHADOW.id, session_id: `s${i}`, ts: `${d}T10:00:00.000Z`, eligible: true, fired: i === 0, violation: i === 0 })));
  writeShadowVerdicts(ladder(), "2026-12-06T03:00:00.000Z", [verdict]);
  const hash = (t: string) => `sha256:${createHash("sha256").update(t, "utf8").digest("hex")}`;
  const text = readFileSync(checksFile(), "utf8");
  const leave: Proposal = {
    kind: "proposal", v: 1, id: "pr-leave00001", at: "2026-12-06T03:00:00.000Z", type: "leave_shadow", rule_id: pnpm.rule_id, from_rung: 3, to_rung: 3,
    diagnosis: "gate passed", why: "check passed the shadow gate: let it act", evidence: ["gate: passed (3 sessions)"],
    edit: { kind: "check", file: checksFile(), file_hash: hash(text), check: null, activate: SHADOW.id }, review: "skipped offline",
  };
  const climb: Proposal = {
    kind: "proposal", v: 1, id: "pr-climb00002", at: "2026-12-06T03:00:00.000Z", type: "climb", rule_id: "git.push01", from_rung: 2, to_rung: 3,
    diagnosis: "in view, broken twice", why: "a check that runs before the action", evidence: ["2026-12-01 'I said no force pushes'", "2026-12-04 'again a force push'"],
    edit: { kind: "check", file: checksFile(), file_hash: hash(text), check: PUSH, activate: null },
    replay: { corrected: { fired: 2, of: 2 }, others: { fired: 0, of: 41 }, examples: [] }, review: "skipped offline",
  };
  addProposal(ladder(), leave);
  addProposal(ladder(), climb);
  return { leave: leave.id, climb: climb.id };
}

/** What in-process runs left changed in the process (each restored); every test expects none. */
let leaks: string[] = [];
afterEach(() => {
  expect(leaks).toEqual([]);
  leaks = [];
});

/**
 * `node bin/errata.cjs ARGS` as the mod asks for it, with the environment a child gets: in a
 * child (`child: true`), else through the compiled CLI in this process, which the mod cannot tell
 * apart (exit code, stdout and stderr).
 */
async function runErrata(argv: readonly string[], cwd: string | undefined, child: boolean): Promise<{ exitCode: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env["PATH"], ERRATA_DIR: ledger(), HOME: tmp.dir };
  if (child || argv[0] !== "node" || resolve(argv[1] ?? "") !== join(repoRoot, "bin", "errata.cjs")) {
    const r = spawnSync(argv[0]!, argv.slice(1), { cwd, env, encoding: "utf8" });
    return { exitCode: r.status, stdout: r.stdout, stderr: r.stderr };
  }
  let stdout = "";
  let stderr = "";
  const io: Io = {
    stdout: { write: (s: string | Uint8Array) => ((stdout += String(s)), true) },
    stderr: { write: (s: string | Uint8Array) => ((stderr += String(s)), true) },
    env,
    cwd: cwd ?? process.cwd(),
    now: () => Date.now(),
    readStdin: async () => "",
    isTTY: false,
  };
  const r = await callInProcess(runCli, argv.slice(2), io);
  leaks.push(...r.leaks);
  return { exitCode: r.code, stdout, stderr };
}

/** The package's own CLI, as the mod runs it (in a child with `child`); every run kept. */
function ports(runs: string[][], opened: Array<{ id: string; title: string }>, placed = false, child = false): ModApi {
  return {
    log: () => undefined,
    sessionInfo: async () => ({}),
    sessionId: async () => "s1",
    sessionCwd: async () => project(),
    hookEnv: async () => ({ CLAUDE_PLUGIN_ROOT: join(repoRoot, "mod") }),
    read: async (p) => readFileSync(p, "utf8"),
    write: async () => undefined,
    exists: async (p) => existsSync(p),
    list: async () => [],
    run: async (argv, init) => {
      runs.push([...argv]);
      return runErrata(argv, init?.cwd, child);
    },
    settings: async () => ({}),
    env: async () => ({ ERRATA_DIR: ledger(), HOME: tmp.dir }),
    registerCommand: async () => ({}),
    readData: async (p) => readFileSync(p, "utf8"),
    open: async (pane) => (opened.push(pane), placed ? { isPlaced: true } : { isPlaced: false, reason: "no-surface" }),
    invalidate: () => undefined,
    resolve: () => ({ Box: "Box", Text: "Text", Button: "Button" }),
    h: (tag, props, ...children) => ({ tag, props: props ?? {}, children: children.flat() }),
  };
}

interface Node {
  tag: string;
  props: Record<string, unknown>;
  children: Array<Node | string>;
}
const texts = (n: Node | string): string[] => (typeof n === "string" ? [] : n.tag === "Text" ? [n.children.join("")] : n.children.flatMap(texts));
const buttons = (n: Node | string): Node[] => (typeof n === "string" ? [] : n.tag === "Button" ? [n] : n.children.flatMap(buttons));
const cli = (args: string[]) => spawnSync(process.execPath, [join(repoRoot, "bin", "errata.cjs"), ...args], { cwd: project(), env: { PATH: process.env["PATH"], ERRATA_DIR: ledger(), HOME: tmp.dir }, encoding: "utf8" });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Draws until the pane shows what `ready` wants (a reading runs in the background, as in the client). */
async function drawUntil(mod: ReturnType<typeof Core.createErrataMod>, $: ModApi, e: Record<string, unknown>, ready: (t: Node) => boolean): Promise<Node> {
  let tree = (await mod.uiRender($, e, async () => null)) as Node;
  for (let i = 0; i < 600 && !ready(tree); i++) {
    await sleep(50);
    tree = (await mod.uiRender($, e, async () => null)) as Node;
  }
  expect(ready(tree), texts(tree).join("\n")).toBe(true);
  return tree;
}

describe("the owner's pane", () => {
  it("draws the morning report, the approval table as errata rules approvals prints it (evidence, pattern, replay) and the shadow check's progress, with buttons per proposal", async () => {
    const { leave, climb } = seed();
    const runs: string[][] = [];
    const mod = core.createErrataMod();
    const $ = ports(runs, []);
    const e = { component: "Pane", requestId: "errata", props: { title: "Errata", isFocused: false, bodyColumns: 80, placement: "dock" } };
    const first = (await mod.uiRender($, e, async () => "engine")) as Node;
    expect(texts(first)).toEqual(["Reading the ladder..."]);
    // The first draw starts a reading in the background and redraws when it is in.
    const tree = await drawUntil(mod, $, e, (t) => texts(t)[0] !== "Reading the ladder...");
    const lines = texts(tree);
    const approvals = cli(["rules", "approvals", "--all"]).stdout.trim().split("\n");
    const morning = cli(["rules", "morning", "--dry-run"]).stdout.trim().split("\n");
    // Word for word what the CLI prints: the report (the shadow check's gate reading among it), then each proposal.
    expect(lines.slice(0, morning.length)).toEqual(morning);
    expect(morning.filter((l) => l.startsWith("  shadow "))).toEqual([`  shadow ${readShadowLines(ladder()).lines[0]}`]);
    expect(readShadowLines(ladder()).lines[0]).toMatch(/^ladder-claude\.tools\.pnpm01: \d+ sessions, \d+ with a false alarm, bound .* \(target 0\.05\), .* days; caught \d+\/\d+ violations; (gate passed|not yet: .+)$/);
    expect(lines).toEqual(expect.arrayContaining(approvals));
    expect(approvals.join("\n")).toContain('edit: install check ladder-git.push01 (active) in');
    expect(approvals.join("\n")).toContain('when command starts_with "git push --force"');
    expect(approvals.join("\n")).toContain("replay: fires on 2/2 corrected calls and on 0/41 other recorded calls (0.0%)");
    expect(buttons(tree).map((b) => b.props["key"])).toEqual([`approve:${leave}`, `reject:${leave}`, `approve:${climb}`, `reject:${climb}`, "refresh"]);
    // Reading wrote nothing: no morning receipt, no lock left.
    expect(existsSync(join(ladder(), "receipts.jsonl"))).toBe(false);
    expect(runs.map((r) => r.slice(2))).toEqual([["rules", "morning", "--dry-run", "--json"], ["rules", "approvals", "--all", "--json"]]);
    // The package's own bin, as the client would start it (here served in process: see the top).
    expect(runs.map((r) => [r[0], resolve(r[1]!)])).toEqual(runs.map(() => ["node", join(repoRoot, "bin", "errata.cjs")]));
  });

  it("Approve runs errata rules approve: the check acts, the table shows it applied with Undo, and Undo puts the file back", async () => {
    const { leave } = seed();
    const before = readFileSync(checksFile(), "utf8");
    const runs: string[][] = [];
    const mod = core.createErrataMod();
    const $ = ports(runs, []);
    const e = { component: "Pane", requestId: "errata" };
    let tree = await drawUntil(mod, $, e, (t) => buttons(t).length > 0);
    const approve = buttons(tree).find((b) => b.props["key"] === `approve:${leave}`)!;
    (approve.props["onPress"] as () => void)();
    expect(texts(tree)).toContain(`${leave}  leave_shadow 3 -> 3  ${pnpm.rule_id}  [pending]  (gate passed) check passed the shadow gate: let it act`);
    tree = await drawUntil(mod, $, e, (t) => buttons(t).some((b) => b.props["key"] === `undo:${leave}`));
    expect(runs[2]!.slice(2)).toEqual(["rules", "approve", leave]);
    // The same change as typed in a terminal: the check is active, the proposal applied.
    expect(JSON.parse(readFileSync(checksFile(), "utf8")).checks[0].mode).toBe("active");
    expect(readProposals(ladder()).get(leave)!.status).toBe("applied");
    expect(texts(tree)).toContain(`applied ${leave}: leave_shadow 3 -> 3 ${pnpm.rule_id}; ${checksFile()} (backup ${join(ladder(), "backups", `${leave}.bak`)})`);
    expect(buttons(tree).map((b) => b.props["key"])).toContain(`undo:${leave}`);
    (buttons(tree).find((b) => b.props["key"] === `undo:${leave}`)!.props["onPress"] as () => void)();
    tree = await drawUntil(mod, $, e, (t) => texts(t).includes(`undone ${leave}`));
    expect(runs[5]!.slice(2)).toEqual(["rules", "undo", leave]);
    // Undone: no longer in the table (it shows what waits and what can be undone).
    expect(buttons(tree).map((b) => b.props["key"]).filter((k) => String(k).endsWith(leave))).toEqual([]);
    expect(readFileSync(checksFile(), "utf8")).toBe(before);
    expect(readProposals(ladder()).get(leave)!.status).toBe("undone");
  });

  it("Reject records the pane's reason; a press while another run holds the lock answers the CLI's refusal, nothing changed", async () => {
    const { climb } = seed();
    const runs: string[][] = [];
    const mod = core.createErrataMod();
    // Real children: the lock below is held by this process, the CLI's refusal is across processes.
    const $ = ports(runs, [], false, true);
    // /errata reject with the owner's words, the same command.
    const r = (await mod.commandRun($, { command: "errata", args: `reject ${climb} not force pushes, tags` }, async () => null)) as { text: string };
    expect(r.text).toBe(`rejected ${climb}`);
    expect(runs[0]!.slice(2)).toEqual(["rules", "reject", climb, "--why", "not force pushes, tags"]);
    expect(readProposals(ladder()).get(climb)!.status).toBe("rejected");
    // The run lock: held by another job, approve is refused by the CLI and the pane says so.
    const leave = "pr-leave00001";
    const lock = await acquireRunLock(resolvePaths({ ERRATA_DIR: ledger(), HOME: tmp.dir }, project()).stateDir, { job: "errata daily" });
    try {
      const held = (await mod.commandRun($, { command: "errata", args: `approve ${leave}` }, async () => null)) as { text: string };
      expect(held.text).toMatch(/another run holds the lock .*\(errata daily, pid \d+/);
      expect(readProposals(ladder()).get(leave)!.status).toBe("pending");
    } finally {
      lock.release();
    }
  });

  it("/errata pane where nothing is drawn (claude -p) answers the pane's text, the morning report and the table in it", async () => {
    const { leave, climb } = seed();
    const runs: string[][] = [];
    const opened: Array<{ id: string; title: string }> = [];
    const mod = core.createErrataMod();
    const r = (await mod.commandRun(ports(runs, opened), { command: "errata", args: "pane" }, async () => null)) as { text: string };
    expect(opened).toEqual([{ id: "errata", title: "Errata" }]);
    expect(r.text).toContain("Errata rules, morning of");
    expect(r.text).toContain(`decide: /errata approve ${leave} | /errata reject ${leave} [why]`);
    expect(r.text).toContain(`${climb}  climb 2 -> 3  git.push01  [pending]`);
    expect(r.text).toContain("(the pane is not drawn here: no-surface)");
    // Placed: the pane itself says it.
    const placed = (await core.createErrataMod().commandRun(ports([], [], true), { command: "errata", args: "pane" }, async () => null)) as { text: string };
    expect(placed.text).toBe("Errata pane opened.");
  });

  it("another pane's render passes on; a ladder that cannot be read is the pane's note, not a fault", async () => {
    const mod = core.createErrataMod();
    const runs: string[][] = [];
    const $ = { ...ports(runs, []), run: async () => ({ exitCode: 2, stdout: "", stderr: "errata: no such ladder" }) };
    expect(await mod.uiRender($, { component: "Pane", requestId: "other" }, async () => "theirs")).toBe("theirs");
    const r = (await mod.commandRun($, { command: "errata", args: "pane" }, async () => null)) as { text: string };
    expect(r.text).toContain("the ladder could not be read: errata rules morning answered no JSON (exit 2): errata: no such ladder");
  });
});
