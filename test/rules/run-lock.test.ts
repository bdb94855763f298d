// The rules and ladder jobs that write derived files take the run lock (runtime/files/lock.ts
// through cli/shared/run-lock.ts): while another process holds it, each exits 2 at once naming
// the holder and writes nothing; with --wait it waits for the holder and then runs; a dry run
// takes no lock; a bad --wait exits 2 before anything.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { repoRoot } from "../faults/helpers.js";
import { built } from "../helpers/built.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => {
  tmp = tempDir("errata-rules-lock-");
  mkdirSync(join(tmp.dir, "project"), { recursive: true });
  writeFileSync(join(tmp.dir, "project", "CLAUDE.md"), "# Tools\n\n- Use pnpm, never npm.\n- Run the tests before every commit.\n");
});
afterEach(() => tmp.cleanup());

const env = () => ({ ERRATA_DIR: join(tmp.dir, "ledger"), ERRATA_STATE_DIR: join(tmp.dir, "state"), ERRATA_V4_DIR: join(tmp.dir, "v4"), HOME: tmp.dir });

async function cli(args: string[]) {
  const m = memoryIo({ env: env(), cwd: tmp.dir, now: Date.parse("2026-12-02T03:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}

/** Another process holding the state folder's run lock as "errata daily" for `holdMs`. */
function holder(holdMs: number) {
  const src = `import("${join(repoRoot, "dist", "runtime", "files", "lock.js")}").then(async (m) => {
    const l = await m.acquireRunLock(${JSON.stringify(join(tmp.dir, "state"))}, { job: "errata daily" });
    process.stdout.write("held\\n");
    setTimeout(() => { l.release(); process.exit(0); }, ${holdMs});
  });`;
  mkdirSync(join(tmp.dir, "state"), { recursive: true });
  const child = spawn(process.execPath, ["--input-type=module", "-e", src], { stdio: ["ignore", "pipe", "inherit"] });
  const held = new Promise<void>((r) => child.stdout.on("data", (d: Buffer) => d.toString().includes("held") && r()));
  return { child, held, exited: new Promise<void>((r) => child.on("exit", () => r())) };
}

const build = ["rules", "build", "--root", "project", "--no-home", "--no-git"];

describe.skipIf(!built)("rules jobs under the run lock", () => {
  it("rules build exits 2 naming the holder and writes nothing; a dry run still runs", async () => {
    const h = holder(60_000);
    try {
      await h.held;
      const r = await cli(build);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/another run holds the lock .*run\.lock \(errata daily, pid \d+/);
      expect(existsSync(join(tmp.dir, "v4", "rules.json"))).toBe(false);
      const dry = await cli([...build, "--dry-run"]);
      expect(dry.code).toBe(0);
      expect(dry.out).toMatch(/dry run: would write/);
      expect(existsSync(join(tmp.dir, "v4", "rules.json"))).toBe(false);
    } finally {
      h.child.kill("SIGKILL");
      await h.exited;
    }
  });

  it("rules build --wait waits for the holder, then writes the index", async () => {
    const h = holder(700);
    await h.held;
    const r = await cli([...build, "--wait", "20"]);
    await h.exited;
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^rules: 2 units from 1 source/);
    expect(existsSync(join(tmp.dir, "v4", "rules.json"))).toBe(true);
  });

  it("every writing rules and ladder subcommand takes the lock (exit 2, the holder named), and --wait is in its help", async () => {
    const h = holder(60_000);
    try {
      await h.held;
      const jobs: string[][] = [
        ["rules", "cover"],
        ["rules", "cluster"],
        ["rules", "recommend"],
        ["rules", "act"],
        ["rules", "recheck"],
        ["rules", "audit", "--transcript", join(tmp.dir, "none.jsonl")],
        ["rules", "approve", "pr-0000000000"],
        ["rules", "reject", "pr-0000000000", "--why", "no"],
        ["rules", "undo", "pr-0000000000"],
        ["rules", "loosen", "no.such.rule", "--why", "no"],
      ];
      for (const args of jobs) {
        const r = await cli(args);
        expect([args.join(" "), r.code, r.err]).toEqual([args.join(" "), 2, expect.stringMatching(/another run holds the lock .*\(errata daily/)]);
        const help = await cli([...args.slice(0, 2), "--help"]);
        expect(help.out).toContain("--wait <seconds>");
      }
    } finally {
      h.child.kill("SIGKILL");
      await h.exited;
    }
  });

  it("a bad --wait exits 2 before anything, naming what was expected", async () => {
    const r = await cli([...build, "--wait", "soon"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad --wait.*a number of seconds >= 0.*"soon"/s);
    expect(existsSync(join(tmp.dir, "v4", "rules.json"))).toBe(false);
  });
});
