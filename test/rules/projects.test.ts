/**
 * Several projects in one rule index: ids never move whatever else is indexed, a build in
 * another folder adds (never replaces), and a root that is not a folder exits 2 and writes
 * nothing. On two real instruction files (datasets/claude-md).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";

const DATA = new URL("../../datasets/claude-md/", import.meta.url).pathname;
let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-rules-projects-")));
afterEach(() => tmp.cleanup());

async function cli(args: string[], cwd = tmp.dir) {
  const m = memoryIo({ env: { ERRATA_DIR: join(tmp.dir, "ledger"), HOME: join(tmp.dir, "home") }, cwd, now: Date.parse("2026-12-02T03:00:00Z") });
  const code = await run(args, m.io);
  return { code, out: m.out(), err: m.err() };
}


describe("rules build over several projects", () => {
  it("adding a root renames nothing; building in another folder adds; each project's ids stay", async () => {
    const a = join(tmp.dir, "big");
    const b = join(tmp.dir, "uv");
    cpSync(join(DATA, "0xBigBoss__claude-code"), a, { recursive: true });
    cpSync(join(DATA, "astral-sh__uv"), b, { recursive: true });
    const first = await cli(["rules", "build", "--root", a, "--no-git", "--no-home", "--json"]);
    expect(first.code).toBe(0);
    const file = JSON.parse(first.out).file as string;
    const before = JSON.parse(readFileSync(file, "utf8")) as { units: Array<{ id: string }> };
    const idsA = before.units.map((u) => u.id).sort();
    // Another folder: its rules join; none of the first project's vanish or move.
    const second = await cli(["rules", "build", "--no-git", "--no-home", "--json"], b);
    expect(second.code).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({ vanished: 0 });
    const after = JSON.parse(readFileSync(file, "utf8")) as { units: Array<{ id: string }>; projects: string[] };
    const all = new Set(after.units.map((u) => u.id));
    for (const id of idsA) expect(all.has(id), id).toBe(true);
    expect(after.projects.sort()).toEqual([a, b].sort());
    // Both roots at once, again: nothing renamed, nothing vanished, nothing new.
    const third = await cli(["rules", "build", "--root", a, "--root", b, "--no-git", "--no-home", "--json"]);
    expect(JSON.parse(third.out)).toMatchObject({ vanished: 0, added: 0, carried: 0 });
    expect(new Set((JSON.parse(readFileSync(file, "utf8")) as { units: Array<{ id: string }> }).units.map((u) => u.id))).toEqual(all);
  });

  it("a build in the home folder (a cron job's folder) renames no rule of the user's own files and copies no indexed project's rules", async () => {
    // Walked as a user (2026-12-07): two projects under ~/code indexed, then a bare `errata rules
    // build` in ~ renamed the user's rule (user-claude.* -> claude-claude.*: "1 vanished") and
    // indexed both projects' CLAUDE.md again as subfolder files of ~, 83 rules twice under new ids.
    const home = join(tmp.dir, "home");
    const a = join(home, "code", "big");
    const b = join(home, "code", "uv");
    cpSync(join(DATA, "0xBigBoss__claude-code"), a, { recursive: true });
    cpSync(join(DATA, "astral-sh__uv"), b, { recursive: true });
    mkdirSync(join(home, ".claude"), { recursive: true });
    writeFileSync(join(home, ".claude", "CLAUDE.md"), "# Me\n\n- Always reply in Finnish.\n");
    const first = await cli(["rules", "build", "--root", a, "--root", b, "--no-git", "--json"]);
    expect(first.code).toBe(0);
    const file = JSON.parse(first.out).file as string;
    const before = (JSON.parse(readFileSync(file, "utf8")) as { units: Array<{ id: string; text: string }> }).units;
    const userRule = before.find((u) => u.text.includes("Finnish"))!;
    expect(userRule.id).toMatch(/^user-/);
    const inHome = await cli(["rules", "build", "--no-git", "--json"], home);
    expect(inHome.code).toBe(0);
    expect(JSON.parse(inHome.out)).toMatchObject({ vanished: 0 });
    const after = (JSON.parse(readFileSync(file, "utf8")) as { units: Array<{ id: string; text: string }> }).units;
    const ids = new Set(after.map((u) => u.id));
    for (const u of before) expect(ids.has(u.id), u.id).toBe(true);
    // Each rule text of the two projects and the user's file is indexed once.
    expect(after.length).toBe(before.length);
  });

  it("the summary tells two projects' CLAUDE.md apart", async () => {
    // Walked as a user (2026-12-07): two lines "CLAUDE.md  project, always: 74 units" and "... 9 units", no project named.
    const a = join(tmp.dir, "big");
    const b = join(tmp.dir, "uv");
    cpSync(join(DATA, "0xBigBoss__claude-code"), a, { recursive: true });
    cpSync(join(DATA, "astral-sh__uv"), b, { recursive: true });
    const out = (await cli(["rules", "build", "--root", a, "--root", b, "--no-git", "--no-home"])).out;
    expect(out).toContain(`  ${join(a, "CLAUDE.md")}  project, always`);
    expect(out).toContain(`  ${join(b, "CLAUDE.md")}  project, always`);
    // One project: the file as before, relative to it.
    const one = tempDir("errata-rules-one-");
    try {
      const m = memoryIo({ env: { ERRATA_DIR: join(one.dir, "ledger") }, cwd: one.dir });
      expect(await run(["rules", "build", "--root", a, "--no-git", "--no-home"], m.io)).toBe(0);
      expect(m.out()).toMatch(/^ {2}CLAUDE\.md {2}project, always/m);
    } finally {
      one.cleanup();
    }
  });

  it("a root that is not a folder exits 2 and writes nothing", async () => {
    const a = join(tmp.dir, "big");
    cpSync(join(DATA, "0xBigBoss__claude-code"), a, { recursive: true });
    const ok = await cli(["rules", "build", "--root", a, "--no-git", "--no-home", "--json"]);
    const file = JSON.parse(ok.out).file as string;
    const text = readFileSync(file, "utf8");
    const bad = await cli(["rules", "build", "--root", join(tmp.dir, "bgi"), "--no-git", "--no-home"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a folder/);
    expect(readFileSync(file, "utf8")).toBe(text);
    const fresh = tempDir("errata-rules-none-");
    try {
      const m = memoryIo({ env: { ERRATA_DIR: join(fresh.dir, "ledger") }, cwd: fresh.dir });
      expect(await run(["rules", "build", "--root", "nowhere", "--no-home"], m.io)).toBe(2);
      expect(existsSync(join(fresh.dir, "ledger", "v4", "rules.json"))).toBe(false);
    } finally {
      fresh.cleanup();
    }
  });
});
