// bin/errata-tool-hook.cjs answers the usual tool call (no check file anywhere) in its own few
// lines, without the tool bundle. That shortcut is only sound if it finds exactly the check
// files the full hook finds (runtime/hooks/tool-sources.ts): a property test over the
// environment variables and folders both read, and the process itself (the bundle is built by
// `npm run build`, which `npm test` runs first).
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, writeFileSync, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { findCheckSources, hasCheckSources, projectDirOf } from "../../runtime/hooks/tool-sources.js";
import { tempDir } from "../helpers/io.js";
import { built } from "../helpers/built.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const toolBin = join(repoRoot, "bin", "errata-tool-hook.cjs");
const { quietCall } = createRequire(import.meta.url)(toolBin) as { quietCall: (raw: string, env: Record<string, string | undefined>, cwd: string) => boolean };

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ptu-fast-")));
afterEach(() => tmp.cleanup());

const CALL = { session_id: "s1", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "pnpm test" }, tool_use_id: "t1" };

describe("quietCall finds the check files tool-sources.ts finds", () => {
  it("over ERRATA_DIR, XDG_DATA_HOME, HOME, CLAUDE_PROJECT_DIR, the payload's cwd and where the files are", () => {
    let runs = 0;
    let quiet = 0;
    const folder = fc.constantFrom("proj", "proj2", "cwd", "home");
    fc.assert(
      fc.property(
        fc.record({
          errataDir: fc.constantFrom(undefined, "", "ledger", "ABS"),
          xdg: fc.constantFrom(undefined, "", "data"),
          home: fc.constantFrom(undefined, "home"),
          projectEnv: fc.constantFrom(undefined, "", "proj"),
          payloadCwd: fc.constantFrom(undefined, "", "proj2"),
          checksAt: fc.subarray(["ledger", "abs", "xdg", "homeshare"] as const),
          hookifyIn: fc.subarray(["proj", "proj2", "cwd", "home"] as const),
          decoys: fc.array(fc.tuple(folder, fc.constantFrom("hookify.x.md", "notes.md", "x.local.md", "hookify.local.md.bak")), { maxLength: 3 }),
          checksIsFolder: fc.boolean(),
        }),
        (c) => {
          runs++;
          const root = join(tmp.dir, `r${runs}`);
          const at = (p: string) => join(root, p);
          mkdirSync(at("cwd"), { recursive: true });
          const ledgers = { ledger: at("cwd/ledger"), abs: at("abs-ledger"), xdg: at("data/errata"), homeshare: at("home/.local/share/errata") };
          for (const where of c.checksAt) {
            mkdirSync(join(ledgers[where], "ladder"), { recursive: true });
            if (c.checksIsFolder) mkdirSync(join(ledgers[where], "ladder", "checks.json"));
            else writeFileSync(join(ledgers[where], "ladder", "checks.json"), '{"version":1,"checks":[]}');
          }
          for (const where of c.hookifyIn) {
            mkdirSync(at(`${where}/.claude`), { recursive: true });
            writeFileSync(at(`${where}/.claude/hookify.r.local.md`), "---\nname: r\nevent: bash\npattern: x\n---\n");
          }
          for (const [where, name] of c.decoys) {
            mkdirSync(at(`${where}/.claude`), { recursive: true });
            writeFileSync(at(`${where}/.claude/${name}`), "x");
          }
          const env: Record<string, string | undefined> = {
            ERRATA_DIR: c.errataDir === "ABS" ? ledgers.abs : c.errataDir,
            XDG_DATA_HOME: c.xdg === undefined || c.xdg === "" ? c.xdg : at(c.xdg),
            HOME: c.home === undefined ? undefined : at(c.home),
            CLAUDE_PROJECT_DIR: c.projectEnv === undefined || c.projectEnv === "" ? c.projectEnv : at(c.projectEnv),
          };
          // Relative XDG_DATA_HOME ("") would name a folder under the test process's cwd: both
          // sides read the same path, but keep the repository clean of it.
          if (env["XDG_DATA_HOME"] === "" && !env["ERRATA_DIR"]) env["XDG_DATA_HOME"] = at("data");
          const payload = { ...CALL, ...(c.payloadCwd === undefined ? {} : { cwd: c.payloadCwd === "" ? "" : at(c.payloadCwd) }) };
          const cwd = at("cwd");
          const got = quietCall(JSON.stringify(payload), env, cwd);
          if (env["HOME"] === undefined) {
            // paths.ts asks node:os for a home: the shortcut leaves that to the full hook.
            expect(got).toBe(false);
            return;
          }
          let sources;
          try {
            sources = findCheckSources(env, cwd, projectDirOf(payload, env, cwd));
          } catch {
            // An unreadable checks.json (here a folder): the full hook must run to say so.
            expect(got).toBe(false);
            return;
          }
          expect(got, JSON.stringify({ env, payload, sources })).toBe(!hasCheckSources(sources));
          if (got) quiet++;
        },
      ),
      { numRuns: 200, seed: 22 },
    );
    // Both answers occur (a property that only ever saw one answer would prove little).
    expect(quiet).toBeGreaterThan(10);
    expect(runs - quiet).toBeGreaterThan(10);
  });

  it("anything but a plain tool call is left to the full hook", () => {
    const env = { HOME: join(tmp.dir, "home"), ERRATA_DIR: join(tmp.dir, "ledger") };
    for (const raw of ["", "not json", "[]", "null", '"x"', JSON.stringify({ tool_input: {} }), JSON.stringify({ tool_name: "", tool_input: {} }), JSON.stringify({ tool_name: "Bash", tool_input: [] }), JSON.stringify({ tool_name: "Bash" })]) {
      expect(quietCall(raw, env, tmp.dir), raw).toBe(false);
    }
    expect(quietCall(JSON.stringify(CALL), env, tmp.dir)).toBe(true);
  });
});

describe.skipIf(!built)("bin/errata-tool-hook.cjs as a process", () => {
  const run = (args: string[], input: string, env: Record<string, string>, cwd = tmp.dir) => {
    const probe = `const m = require(${JSON.stringify(toolBin)}); m.toolHook(${JSON.stringify(args)}); process.on("exit", () => { if (process.moduleLoadList.some((x) => x === "NativeModule vm")) process.stderr.write("[vm loaded]"); });`;
    return spawnSync(process.execPath, ["-e", probe], { input, env: { PATH: process.env["PATH"] ?? "", ...env }, cwd, encoding: "utf8" });
  };

  it("no check file: no output, nothing written, and no bundle compiled (node:vm never loaded)", () => {
    const ledger = join(tmp.dir, "ledger");
    const home = join(tmp.dir, "home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "settings.json"), "{}");
    const r = run(["pre-tool-use"], JSON.stringify({ ...CALL, cwd: tmp.dir }), { ERRATA_DIR: ledger, HOME: home });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
    expect(existsSync(ledger)).toBe(false);
  });

  it("a check file: the bundle answers (deny, logged), the same as `errata hook pre-tool-use`", () => {
    const ledger = join(tmp.dir, "ledger");
    mkdirSync(join(ledger, "ladder"), { recursive: true });
    const check = { id: "no-npm", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm.", mode: "active" };
    writeFileSync(join(ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [check] }));
    const input = JSON.stringify({ ...CALL, tool_input: { command: "npm i" }, cwd: tmp.dir });
    const r = run(["pre-tool-use"], input, { ERRATA_DIR: ledger, HOME: tmp.dir });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "[errata check no-npm] Use pnpm." } });
    expect(r.stderr).toBe("[vm loaded]");
    const viaErrata = spawnSync(process.execPath, [join(repoRoot, "bin", "errata.cjs"), "hook", "pre-tool-use"], { input, env: { PATH: process.env["PATH"] ?? "", ERRATA_DIR: ledger, HOME: tmp.dir }, encoding: "utf8" });
    expect(viaErrata.stdout).toBe(r.stdout);
    expect(readdirSync(join(ledger, "ladder")).sort()).toEqual(["checks.json", "tool-events.jsonl"]);
  });

  it("a hookify file in ~/.claude alone is found (the call goes to the bundle)", () => {
    const home = join(tmp.dir, "home");
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "hookify.no-rm.local.md"), "---\nname: no-rm\nenabled: true\nevent: bash\npattern: rm\\s+-rf\naction: block\n---\nNo rm -rf.");
    const r = run(["pre-tool-use"], JSON.stringify({ ...CALL, tool_input: { command: "rm -rf build" }, cwd: tmp.dir }), { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: home });
    expect(JSON.parse(r.stdout)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny", permissionDecisionReason: "[errata check hookify:no-rm] No rm -rf." } });
  });

  it("empty stdin, bad JSON and instructions-loaded go to the full hook, which says what it found", () => {
    const env = { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: tmp.dir };
    expect(run(["pre-tool-use"], "", env).stderr).toMatch(/^errata hook: empty stdin \(expected the hook's JSON\); allowed, no check run\n/);
    expect(run(["pre-tool-use"], "{nope", env).stderr).toMatch(/^errata hook: stdin is not JSON/);
    expect(run(["pre-tool-use"], "{}", env).stderr).toMatch(/^errata hook: no tool_name or tool_input object in the PreToolUse JSON; allowed, no check run\n/);
    const loaded = run(["instructions-loaded"], JSON.stringify({ session_id: "s1", file_path: join(tmp.dir, "CLAUDE.md"), memory_type: "Project", load_reason: "session_start" }), env);
    expect(loaded.status).toBe(0);
    expect(readdirSync(join(tmp.dir, "ledger", "ladder"))).toEqual(["instructions-loaded.jsonl"]);
  });
});
