// bin/errata-tool-hook.cjs is built from runtime/hooks/tool-hook-bin.ts (its folders from
// runtime/paths.ts and tool-sources.ts, one source with the full hook) and committed. These
// tests check that the committed file is that build, and the tool path with HOME unset, where
// paths.ts asks node:os for the home (the build loads node:os on first use; the process
// tests need the bundles of `npm run build`, which `npm test` runs first).
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const toolBin = join(repoRoot, "bin", "errata-tool-hook.cjs");
let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-tool-bin-")));
afterEach(() => tmp.cleanup());

describe("bin/errata-tool-hook.cjs", () => {
  it("is the build of runtime/hooks/tool-hook-bin.ts (node scripts/tool-hook-bin.js --check)", () => {
    const r = spawnSync(process.execPath, [join(repoRoot, "scripts", "tool-hook-bin.js"), "--check"], { cwd: repoRoot, encoding: "utf8" });
    expect([r.status, r.stderr]).toEqual([0, ""]);
    // The build names its source, and carries paths.ts' and tool-sources.ts' own functions.
    const text = readFileSync(toolBin, "utf8");
    expect(text).toMatch(/^#!\/usr\/bin\/env node\n\/\/ Built by scripts\/tool-hook-bin\.js from runtime\/hooks\/tool-hook-bin\.ts/);
    expect(text).toContain("function ledgerDirOf(");
    expect(text).toContain("function projectDirOf(");
    // node:os only on use (HOME unset), never at load; no ES-module plumbing (it runs on every call).
    expect(text).not.toMatch(/^var \w+ = require\("node:os"\)/m);
    expect(text).not.toContain("__toCommonJS");
  });

  // Without HOME, the lookup leaves the call to the full hook, which finds the folders through
  // paths.ts (node:os's homedir for the default ledger it compares with).
  const run = (args: string[], input: object, env: Record<string, string>) =>
    spawnSync(process.execPath, [toolBin, ...args], { input: JSON.stringify(input), env: { PATH: process.env["PATH"] ?? "", ...env }, cwd: tmp.dir, encoding: "utf8" });

  it("with HOME unset, instructions-loaded records its line", () => {
    const ledger = join(tmp.dir, "ledger");
    const r = run(["instructions-loaded"], { session_id: "s1", file_path: join(tmp.dir, "CLAUDE.md"), memory_type: "Project", load_reason: "session_start" }, { ERRATA_DIR: ledger });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, "", ""]);
    const line = JSON.parse(readFileSync(join(ledger, "ladder", "instructions-loaded.jsonl"), "utf8")) as Record<string, unknown>;
    expect(line).toMatchObject({ v: 1, session_id: "s1", file_path: join(tmp.dir, "CLAUDE.md"), memory_type: "Project" });
  });

  it("with HOME unset, an installed check still denies", () => {
    const ledger = join(tmp.dir, "ledger");
    mkdirSync(join(ledger, "ladder"), { recursive: true });
    const check = { id: "no-npm", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm.", mode: "active" };
    writeFileSync(join(ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [check] }));
    const r = run(["pre-tool-use"], { session_id: "s", tool_name: "Bash", tool_input: { command: "npm i" }, tool_use_id: "t", cwd: tmp.dir }, { ERRATA_DIR: ledger });
    expect(r.stderr).toBe("");
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "[errata check no-npm] Use pnpm." } });
  });
});
