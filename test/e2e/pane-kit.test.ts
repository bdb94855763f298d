// The owner's pane drawn by the real engine (Claude Code, pinned): the client's own plugin test
// kit (`claude plugin test`) loads a copy of the installed package's mod (its mod/), mounts its
// Pane on the terminal and the desktop surfaces, finds the morning report's head, a proposal's
// line and its replay, word for word as the installed CLI printed them over a scratch ladder,
// and presses Approve, which must run `errata rules approve ID`. The kit's test is
// test/e2e/fixtures/pane-kit.test.ts.template; what the press does to the files is
// test/mod/pane.test.ts's (a real child there).
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as ProposalsModule from "../../runtime/ladder/proposals.js";
import { tempDir } from "../helpers/io.js";
import { clientBinary, clientReady, CLAUDE_CODE_VERSION, HANG_GUARD_MS, installErrata, repoRoot } from "./client.js";

const ready = clientReady();

describe.skipIf(!ready)(`the owner's pane in the real engine's plugin kit (Claude Code ${CLAUDE_CODE_VERSION})`, { timeout: HANG_GUARD_MS }, () => {
  let tmp: { dir: string; cleanup: () => void };
  /** The installed package (the packed tarball, as the other files here install it). */
  let pkg: string;
  let addProposal: (typeof ProposalsModule)["addProposal"];
  beforeAll(async () => {
    tmp = tempDir("errata-e2e-pane-kit-");
    pkg = join(dirname(await installErrata()), "errata");
    // The proposals module as the package ships it, compiled, loaded by Node itself (vitest does
    // not transform a package under node_modules): from the TypeScript sources its transform
    // and import cost ~1.8 CPU-s (the ladder's index, which loads the whole room, 7.5 s).
    ({ addProposal } = (await import(pathToFileURL(join(pkg, "dist", "runtime", "ladder", "proposals.js")).href)) as typeof ProposalsModule);
  }, HANG_GUARD_MS);
  afterAll(() => tmp?.cleanup());

  it("draws the report and the approval table on the terminal and the desktop, and Approve runs errata rules approve", () => {
    const ledger = join(tmp.dir, "ledger");
    const ladder = join(ledger, "ladder");
    const project = join(tmp.dir, "app");
    mkdirSync(ladder, { recursive: true });
    mkdirSync(project, { recursive: true });
    const checksFile = join(ladder, "checks.json");
    writeFileSync(checksFile, `${JSON.stringify({ version: 1, checks: [] })}\n`);
    const hash = `sha256:${createHash("sha256").update(readFileSync(checksFile, "utf8"), "utf8").digest("hex")}`;
    addProposal(ladder, {
      kind: "proposal", v: 1, id: "pr-climb00002", at: "2026-12-06T03:00:00.000Z", type: "climb", rule_id: "git.push01", from_rung: 2, to_rung: 3,
      diagnosis: "in view, broken twice", why: "a check that runs before the action", evidence: ["2026-12-01 'I said no force pushes'"],
      edit: { kind: "check", file: checksFile, file_hash: hash, check: { id: "ladder-git.push01", rule_id: "git.push01", tools: ["Bash"], conditions: [{ field: "command", operator: "starts_with", pattern: "git push --force" }], action: "deny", message: "No force pushes.", mode: "active" }, activate: null },
      replay: { corrected: { fired: 2, of: 2 }, others: { fired: 0, of: 41 }, examples: [] }, review: "skipped offline",
    });
    const cli = (args: string[]) => spawnSync(process.execPath, [join(pkg, "bin", "errata.cjs"), ...args], { cwd: project, env: { PATH: process.env["PATH"], ERRATA_DIR: ledger, HOME: tmp.dir }, encoding: "utf8" }).stdout;
    const outputs = { morning: cli(["rules", "morning", "--dry-run", "--json"]), approvals: cli(["rules", "approvals", "--all", "--json"]), approvalsText: cli(["rules", "approvals", "--all"]) };
    expect(JSON.parse(outputs.morning).report[0]).toMatch(/^Errata rules, morning of \d{4}-\d{2}-\d{2}$/);
    // The kit's test pins the morning's date: the run's own date stands in for it.
    const plugin = join(tmp.dir, "plugin");
    cpSync(join(pkg, "mod"), plugin, { recursive: true });
    const template = readFileSync(join(repoRoot, "test", "e2e", "fixtures", "pane-kit.test.ts.template"), "utf8");
    const day = String(JSON.parse(outputs.morning).report[0]).slice(-10);
    writeFileSync(join(plugin, "pane.test.ts"), template.replace("const OUT = __OUTPUTS__", `const OUT = ${JSON.stringify(outputs)}`).replace("'Errata rules, morning of 2026-12-06'", JSON.stringify(`Errata rules, morning of ${day}`)));
    const r = spawnSync(clientBinary(), ["plugin", "test", plugin], { cwd: plugin, env: { ...process.env, DISABLE_AUTOUPDATER: "1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1" }, encoding: "utf8" });
    const said = `${r.stdout}\n${r.stderr}`;
    expect(r.status, said).toBe(0);
    expect(said).toContain("1 pass");
    expect(said).toContain("0 fail");
  });
});
