// errata rules holdout: opt a check in (--one-in, --seed), out (--off), show the evidence
// (--json), and bad input exits 2 writing nothing.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-holdout-cli-")));
afterEach(() => tmp.cleanup());

const CHECK = { id: "ladder-pnpm", rule_id: "claude.tools.pnpm01", tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "^npm\\s" }], action: "deny", message: "Use pnpm.", mode: "active" };

function setup() {
  const ledger = join(tmp.dir, "ledger");
  mkdirSync(join(ledger, "ladder"), { recursive: true });
  const file = join(ledger, "ladder", "checks.json");
  writeFileSync(file, JSON.stringify({ version: 1, checks: [CHECK] }));
  const cli = async (...argv: string[]) => {
    const m = memoryIo({ env: { ERRATA_DIR: ledger, HOME: join(tmp.dir, "home") }, cwd: tmp.dir });
    const code = await run(argv, m.io);
    return { code, out: m.out(), err: m.err() };
  };
  return { file, cli };
}

describe("errata rules holdout", () => {
  it("--one-in and --seed opt a check in; the morning evidence lists it; --off ends it", async () => {
    const { file, cli } = setup();
    const dry = await cli("rules", "holdout", "ladder-pnpm", "--one-in", "5", "--dry-run", "--json");
    expect(JSON.parse(dry.out)).toMatchObject({ ok: true, dry_run: true, check: { holdout: { one_in: 5, seed: 1 } } });
    expect(JSON.parse(readFileSync(file, "utf8")).checks[0]).toEqual(CHECK);
    const on = await cli("rules", "holdout", "ladder-pnpm", "--one-in", "5", "--seed", "3");
    expect(on.code).toBe(0);
    expect(on.out).toContain("check ladder-pnpm: held out in 1 of 5 sessions (seed 3) from now on");
    expect(JSON.parse(readFileSync(file, "utf8")).checks[0]).toEqual({ ...CHECK, holdout: { one_in: 5, seed: 3 } });
    const show = await cli("rules", "holdout", "--json");
    expect(JSON.parse(show.out)).toMatchObject({ ok: true, rows: [{ check: "ladder-pnpm", one_in: 5, held_out_sessions: [], interval: null }] });
    const off = await cli("rules", "holdout", "ladder-pnpm", "--off");
    expect(off.out).toContain("no longer held out");
    expect(JSON.parse(readFileSync(file, "utf8")).checks[0]).toEqual(CHECK);
    expect((await cli("rules", "holdout")).out).toContain("Nothing is held out");
  });
  it("bad input exits 2, says what was expected, writes nothing", async () => {
    const { file, cli } = setup();
    const before = readFileSync(file, "utf8");
    for (const argv of [["ladder-pnpm", "--one-in", "1"], ["ladder-pnpm", "--one-in", "5", "--seed", "x"], ["ladder-pnpm"], ["nope", "--one-in", "5"], ["--one-in", "5"], ["ladder-pnpm", "--off", "--one-in", "5"]]) {
      const r = await cli("rules", "holdout", ...argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(/expected/);
    }
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});
