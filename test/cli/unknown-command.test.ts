import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, commandNames, loadRegisters, run } from "../../cli/main.js";
import { memoryIo } from "../helpers/io.js";

/**
 * Issue 38 item 7: a mistyped command or subcommand exits 2 naming the word, with or without
 * --help, and says which commands exist. The walk takes the commands from the commander
 * program itself, so a command added later is walked too.
 */
async function program(): Promise<Command> {
  return buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters(commandNames()));
}

/** Every group (the program and each command with subcommands) with its path after `errata`. */
function groups(cmd: Command, path: string[] = []): { path: string[]; cmd: Command }[] {
  return cmd.commands.length === 0 ? [] : [{ path, cmd }, ...cmd.commands.flatMap((c) => groups(c, [...path, c.name()]))];
}

/** A misspelling of `name` that names no sibling: its last two letters swapped, else a letter doubled. */
function misspell(name: string, siblings: readonly string[]): string {
  const swapped = name.length >= 2 ? `${name.slice(0, -2)}${name.at(-1)}${name.at(-2)}` : name;
  if (swapped !== name && !siblings.includes(swapped)) return swapped;
  return `${name}${name.at(-1)}`;
}

async function cli(argv: string[]) {
  const m = memoryIo();
  const code = await run(argv, m.io);
  return { code, out: m.out(), err: m.err() };
}

describe("an unknown command or subcommand", () => {
  it("exits 2 naming the word and the commands that exist, with and without --help, for a misspelling of every command", async () => {
    const gs = groups(await program());
    expect(gs.length).toBeGreaterThanOrEqual(9);
    const wrong: string[] = [];
    let walked = 0;
    for (const { path, cmd } of gs) {
      const names = cmd.commands.map((c) => c.name());
      for (const name of names) {
        const typo = misspell(name, names);
        for (const argv of [[...path, typo], [...path, typo, "--help"]]) {
          walked++;
          const r = await cli(argv);
          const missing = names.filter((n) => !r.err.includes(n));
          if (r.code !== 2 || !r.err.includes(`unknown command '${typo}'`) || !r.err.includes(`\`${name}\``) || missing.length > 0 || r.out !== "") {
            wrong.push(`errata ${argv.join(" ")}: exit ${r.code}, stdout ${JSON.stringify(r.out.slice(0, 80))}, stderr ${JSON.stringify(r.err.slice(0, 300))}${missing.length > 0 ? `; names missing: ${missing.join(", ")}` : ""}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(walked).toBeGreaterThan(100);
  });

  it("the cases the issue names: `errata frobnicate --help` (the issue named `serve`, a command since) and `errata eval nosuch --help`", async () => {
    const serve = await cli(["frobnicate", "--help"]);
    expect(serve.code).toBe(2);
    expect(serve.out).toBe("");
    expect(serve.err).toMatch(/^errata: unknown command 'frobnicate' for `errata` \(expected one of: add, backfill, .*serve.*weekly, help; found 'frobnicate'\)\n$/);
    const nosuch = await cli(["eval", "nosuch", "--help"]);
    expect(nosuch.code).toBe(2);
    expect(nosuch.err).toMatch(/unknown command 'nosuch' for `errata eval` \(expected one of: .*sample.*; found 'nosuch'\)/);
    expect(nosuch.err).not.toMatch(/did you mean/); // nothing is near "nosuch"
    const deep = await cli(["eval", "label", "exprot"]);
    expect(deep.code).toBe(2);
    expect(deep.err).toContain("unknown command 'exprot' for `errata eval label`; did you mean `export`? (expected one of: export, import, serve, help; found 'exprot')");
  });

  it("with --json the error is the one JSON value on stdout, with the commands as expected", async () => {
    const r = await cli(["v4", "detcet", "--json"]);
    expect(r.code).toBe(2);
    const v = JSON.parse(r.out);
    expect(v.ok).toBe(false);
    expect(v.error.code).toBe("USAGE_UNKNOWN_COMMAND");
    expect(v.error.found).toBe("'detcet'");
    expect(v.error.expected).toBe("one of: detect, diagnose, v3, report, taxonomy, help");
  });

  it("leaves real commands, their help, flags before a command and commander's own help command alone", async () => {
    expect((await cli(["eval", "--help"])).code).toBe(0);
    expect((await cli(["eval", "sample", "--help"])).code).toBe(0);
    expect((await cli(["--quiet", "datasets", "list", "--help"])).code).toBe(0);
    expect((await cli(["help", "eval"])).code).toBe(0);
    // A leaf's operands are not commands: `errata show` takes an id.
    const show = await cli(["show", "nosuch-id"]);
    expect(show.err).not.toContain("unknown command");
    // An unknown flag stays commander's error.
    const flag = await cli(["--nosuch", "list"]);
    expect(flag.code).toBe(2);
    expect(flag.err).toContain("unknown option '--nosuch'");
  });
});
