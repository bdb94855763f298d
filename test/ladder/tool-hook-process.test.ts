// The tool path as Claude Code runs it: `node bin/errata.cjs hook pre-tool-use` loading the
// tool bundle alone (built by `npm run build`, which `npm test` runs first).
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { built } from "../helpers/built.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const bin = join(repoRoot, "bin", "errata.cjs");
let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-ptu-proc-")));
afterEach(() => tmp.cleanup());

describe("bin/errata.cjs hook pre-tool-use", () => {
  it.skipIf(!built)("denies through the tool bundle, without starting the ES module loader", () => {
    const ledger = join(tmp.dir, "ledger");
    mkdirSync(join(ledger, "ladder"), { recursive: true });
    const check = { id: "no-npm", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm.", mode: "active" };
    writeFileSync(join(ledger, "ladder", "checks.json"), JSON.stringify({ version: 1, checks: [check] }));
    const probe = `const before = new Set(process.moduleLoadList); const m = require(${JSON.stringify(bin)}); m.main(["hook", "pre-tool-use"]); process.on("exit", () => { const l = process.moduleLoadList.filter((x) => !before.has(x)).join(" "); if (/esm/.test(l)) process.stderr.write("loaded the ES module loader: " + l + "\\n"); });`;
    const r = spawnSync(process.execPath, ["-e", probe], { input: JSON.stringify({ session_id: "s", tool_name: "Bash", tool_input: { command: "npm i" }, tool_use_id: "t", cwd: tmp.dir }), env: { ...process.env, ERRATA_DIR: ledger, HOME: tmp.dir }, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "[errata check no-npm] Use pnpm." } });
    expect(r.stderr).toBe("");
  });

  it("a missing build allows with one stderr line (exit 0)", () => {
    const r = spawnSync(process.execPath, [bin, "hook", "pre-tool-use"], { input: "{}", env: { ...process.env, ERRATA_DIR: join(tmp.dir, "l"), HOME: tmp.dir }, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/no tool_name or tool_input/);
  });
});
