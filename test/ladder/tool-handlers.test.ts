// The per-check tool handlers (docs/mod.md, "Without the mod"): `errata rules hooks --write`
// replaces Errata's unfiltered PreToolUse handler with one handler per check in force, each
// `errata-tool-hook pre-tool-use --check ID` behind its `if` rule where it has one; the owner's
// other settings keep their bytes; approve and undo rewrite the handlers as the checks change;
// `--check ID` runs that one check only (so two handlers firing on one call never decide or log
// another's check). The real client starting no process for a call no check matches:
// test/e2e/tool-handlers.test.ts.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { runToolHook } from "../../runtime/hooks/tool-hook.js";
import { addProposal, handlersFor, openRuleLedger } from "../../runtime/ladder/index.js";
import type { Check } from "../../runtime/ladder-formats/index.js";
import type { Proposal } from "../../schemas/ladder-proposals.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { pnpm } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ladder-handlers-")));
afterEach(() => tmp.cleanup());

const ladder = () => join(tmp.dir, "ledger", "ladder");
const project = () => join(tmp.dir, "app");
const settings = () => join(project(), ".claude", "settings.json");
const checksFile = () => join(ladder(), "checks.json");
const NPM = { field: "command", operator: "regex_match", pattern: "(^|[;&|]\\s*)npm\\b" } as const;
const NO_NPM: Check = { id: "ladder-claude.tools.pnpm01", rule_id: pnpm.rule_id, tools: ["Bash"], conditions: [NPM], action: "deny", message: "Use pnpm, never npm.", mode: "active" };
const PUSH: Check = { id: "push-warning", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "starts_with", pattern: "git push" }], action: "warn", message: "Pushing: say which branch first.", mode: "active" };
const COLOUR: Check = { id: "colour", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "contains", pattern: "colour" }], action: "deny", message: "Color.", mode: "active" };
const ENV_EDIT: Check = { id: "env-edit", rule_id: null, tools: ["Edit", "Write"], conditions: [{ field: "file_path", operator: "ends_with", pattern: ".env" }], action: "deny", message: "Not .env.", mode: "shadow" };

/** The README's hooks block, with the owner's own PreToolUse hook beside Errata's, two-space indented. */
const OWNER = `{
  "model": "opus",
  "hooks": {
    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "errata hook user-prompt-submit" }] }],
    "PreToolUse": [
      { "matcher": "*", "hooks": [{ "type": "command", "command": "errata-tool-hook pre-tool-use" }, { "type": "command", "command": "my-audit-log" }] }
    ]
  }
}
`;

async function cli(args: string[]) {
  const m = memoryIo({ env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir }, cwd: project(), now: Date.parse("2026-12-06T07:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

function install(checks: Check[]): void {
  mkdirSync(ladder(), { recursive: true });
  writeFileSync(checksFile(), `${JSON.stringify({ version: 1, checks }, null, 2)}\n`);
}

describe("handlersFor", () => {
  it("an active prefix check behind its if rule; a contains check, a shadow check and a held-out check with no if, on their tools only", () => {
    expect(handlersFor([NO_NPM, PUSH, COLOUR, ENV_EDIT, { ...NO_NPM, id: "held", holdout: { one_in: 5, seed: 1 } }])).toEqual([
      { matcher: "Bash", hooks: [{ type: "command", if: "Bash(npm*)", command: "errata-tool-hook pre-tool-use --check ladder-claude.tools.pnpm01" }] },
      { matcher: "Bash", hooks: [{ type: "command", if: "Bash(git push*)", command: "errata-tool-hook pre-tool-use --check push-warning" }] },
      { matcher: "Bash", hooks: [{ type: "command", command: "errata-tool-hook pre-tool-use --check colour" }] },
      { matcher: "Edit|Write", hooks: [{ type: "command", command: "errata-tool-hook pre-tool-use --check env-edit" }] },
      { matcher: "Bash", hooks: [{ type: "command", command: "errata-tool-hook pre-tool-use --check held" }] },
    ]);
    // An id that is not a plain word is quoted for the shell.
    expect(handlersFor([{ ...COLOUR, id: "it's" }])[0]!.hooks[0]!.command).toBe("errata-tool-hook pre-tool-use --check 'it'\\''s'");
  });
});

describe("errata rules hooks", () => {
  it("prints the handlers without --write and writes nothing", async () => {
    install([NO_NPM]);
    mkdirSync(project(), { recursive: true });
    const r = await cli(["rules", "hooks", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).handlers).toEqual(handlersFor([NO_NPM]));
    expect(existsSync(settings())).toBe(false);
  });

  it("--write replaces Errata's unfiltered handler, keeps the owner's hook and every other byte, and records the file", async () => {
    install([NO_NPM, COLOUR]);
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(settings(), OWNER);
    const dry = await cli(["rules", "hooks", "--write", "--dry-run"]);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toContain(`would write 2 per-check handlers in ${settings()} (replacing errata-tool-hook pre-tool-use)`);
    expect(readFileSync(settings(), "utf8")).toBe(OWNER);
    const r = await cli(["rules", "hooks", "--write"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(`wrote 2 per-check handlers in ${settings()}`);
    const after = JSON.parse(readFileSync(settings(), "utf8"));
    expect(after.model).toBe("opus");
    expect(after.hooks.UserPromptSubmit).toEqual(JSON.parse(OWNER).hooks.UserPromptSubmit);
    expect(after.hooks.PreToolUse).toEqual([{ matcher: "*", hooks: [{ type: "command", command: "my-audit-log" }] }, ...handlersFor([NO_NPM, COLOUR])]);
    // The lines outside PreToolUse are the owner's bytes.
    expect(readFileSync(settings(), "utf8").startsWith('{\n  "model": "opus",\n  "hooks": {\n    "UserPromptSubmit": [{ "hooks": [{ "type": "command", "command": "errata hook user-prompt-submit" }] }],\n')).toBe(true);
    expect(JSON.parse(readFileSync(join(ladder(), "tool-handlers.json"), "utf8")).files).toEqual([settings()]);
    // Written again: the same file (idempotent).
    const again = readFileSync(settings(), "utf8");
    expect((await cli(["rules", "hooks", "--write"])).code).toBe(0);
    expect(readFileSync(settings(), "utf8")).toBe(again);
  });

  it("--settings names another file; one that does not parse exits 2 and is left as it was", async () => {
    install([NO_NPM]);
    mkdirSync(project(), { recursive: true });
    const other = join(tmp.dir, "user-settings.json");
    expect((await cli(["rules", "hooks", "--write", "--settings", other])).code).toBe(0);
    expect(JSON.parse(readFileSync(other, "utf8")).hooks.PreToolUse).toEqual(handlersFor([NO_NPM]));
    writeFileSync(other, "{ not json");
    const r = await cli(["rules", "hooks", "--write", "--settings", other]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("is not JSON");
    expect(readFileSync(other, "utf8")).toBe("{ not json");
  });

  it("a hookify rule of the project gets its handler, by its id", async () => {
    install([]);
    mkdirSync(join(project(), ".claude"), { recursive: true });
    writeFileSync(join(project(), ".claude", "hookify.no-rm.local.md"), "---\nname: no-rm\nenabled: true\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\nNo rm -rf.\n");
    const r = await cli(["rules", "hooks", "--json"]);
    expect(JSON.parse(r.out).handlers).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: "errata-tool-hook pre-tool-use --check hookify:no-rm" }] }]);
  });
});

/** A shadow check installed at rung 3 and its leave_shadow proposal; returns the proposal id. */
function seedLeaveShadow(): string {
  install([{ ...NO_NPM, mode: "shadow" }]);
  openRuleLedger(ladder()).append([{ ...pnpm, rung: 3, location: { kind: "check", check: NO_NPM.id } }]);
  const text = readFileSync(checksFile(), "utf8");
  const p: Proposal = {
    kind: "proposal", v: 1, id: "pr-leave00001", at: "2026-12-06T08:00:00.000Z", type: "leave_shadow", rule_id: pnpm.rule_id, from_rung: 3, to_rung: 3,
    diagnosis: "gate passed", why: "check passed the shadow gate: let it act", evidence: ["gate: passed"],
    edit: { kind: "check", file: checksFile(), file_hash: `sha256:${createHash("sha256").update(text, "utf8").digest("hex")}`, check: null, activate: NO_NPM.id },
    review: "skipped offline",
  };
  addProposal(ladder(), p);
  mkdirSync(join(project(), ".claude"), { recursive: true });
  writeFileSync(settings(), OWNER);
  return p.id;
}

describe("approve and undo keep the handlers in step", () => {
  it("a check leaving shadow gains its if filter on approve and loses it on undo", async () => {
    const id = seedLeaveShadow();
    expect((await cli(["rules", "hooks", "--write"])).code).toBe(0);
    const pre = () => JSON.parse(readFileSync(settings(), "utf8")).hooks.PreToolUse.slice(1);
    expect(pre()).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: `errata-tool-hook pre-tool-use --check ${NO_NPM.id}` }] }]);
    const a = await cli(["rules", "approve", id]);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toContain(`rewrote the per-check tool handlers in ${settings()}`);
    expect(pre()).toEqual([{ matcher: "Bash", hooks: [{ type: "command", if: "Bash(npm*)", command: `errata-tool-hook pre-tool-use --check ${NO_NPM.id}` }] }]);
    const u = await cli(["rules", "undo", id]);
    expect(u.code, u.err).toBe(0);
    expect(u.out).toContain(`rewrote the per-check tool handlers in ${settings()}`);
    expect(pre()).toEqual([{ matcher: "Bash", hooks: [{ type: "command", command: `errata-tool-hook pre-tool-use --check ${NO_NPM.id}` }] }]);
  });

  it("where the owner never ran --write, approve leaves the settings alone (the README's unfiltered handler stays)", async () => {
    const id = seedLeaveShadow();
    const a = await cli(["rules", "approve", id]);
    expect(a.code, a.err).toBe(0);
    expect(a.out).not.toContain("per-check");
    expect(readFileSync(settings(), "utf8")).toBe(OWNER);
  });
});

describe("errata-tool-hook pre-tool-use --check ID", () => {
  async function hook(args: string[], command: string) {
    let out = "";
    let err = "";
    const code = await runToolHook(args, {
      readStdin: () => JSON.stringify({ session_id: "s1", tool_use_id: "tu1", cwd: project(), tool_name: "Bash", tool_input: { command } }),
      stdout: { write: (s: string) => (out += s) },
      stderr: { write: (s: string) => (err += s) },
      env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir },
      cwd: project(),
      now: () => Date.parse("2026-12-06T07:00:00Z"),
    });
    return { code, out, err };
  }
  const events = () => (existsSync(join(ladder(), "tool-events.jsonl")) ? readFileSync(join(ladder(), "tool-events.jsonl"), "utf8").split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Record<string, unknown>) : []);

  it("runs that check only: its deny, its one log line; another check's handler says and logs nothing of it", async () => {
    install([NO_NPM, COLOUR]);
    mkdirSync(project(), { recursive: true });
    const own = await hook(["pre-tool-use", "--check", NO_NPM.id], "npm i colour");
    expect(own.code).toBe(0);
    expect(JSON.parse(own.out).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringContaining("Use pnpm, never npm.") });
    expect(events().map((e) => e["check"])).toEqual([NO_NPM.id]);
    const other = await hook(["pre-tool-use", "--check", COLOUR.id], "npm i colour");
    expect(JSON.parse(other.out).hookSpecificOutput.permissionDecisionReason).toContain("Color.");
    expect(events().map((e) => e["check"])).toEqual([NO_NPM.id, COLOUR.id]);
    // Without --check: both, as before.
    const all = await hook(["pre-tool-use"], "npm i colour");
    expect(all.out).toContain("Use pnpm, never npm.");
    expect(events().slice(2).map((e) => e["check"]).sort()).toEqual([COLOUR.id, NO_NPM.id].sort());
  });

  it("an id no check has: nothing answered or logged; arguments that are not the hook's: allowed, one line naming them", async () => {
    install([NO_NPM]);
    mkdirSync(project(), { recursive: true });
    const none = await hook(["pre-tool-use", "--check", "gone"], "npm i");
    expect([none.out, none.err]).toEqual(["", ""]);
    expect(events()).toEqual([]);
    const bad = await hook(["pre-tool-use", "--check"], "npm i");
    expect(bad.out).toBe("");
    expect(bad.err).toContain('found "pre-tool-use --check"; allowed, no check run');
  });
});
