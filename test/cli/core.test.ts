import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import type { CommandContext, Register } from "../../cli/shared/command.js";
import { buildProgram, commandNames, commandsFor, loadRegisters, run } from "../../cli/main.js";
import { memoryIo } from "../helpers/io.js";

describe("cli core", () => {
  it("prints help with exit 0", async () => {
    const io = memoryIo();
    expect(await run(["--help"], io.io)).toBe(0);
    expect(io.out()).toContain("Usage: errata");
  });
  it("rejects an unknown command with exit 2", async () => {
    const io = memoryIo();
    expect(await run(["no-such-command"], io.io)).toBe(2);
    expect(io.err()).toMatch(/unknown command|too many arguments/);
  });
  it("--version prints the version with exit 0", async () => {
    const io = memoryIo();
    expect(await run(["--version"], io.io)).toBe(0);
    expect(io.out()).toBe("0.1.0\n");
  });
});

const commandsDir = fileURLToPath(new URL("../../cli/commands/", import.meta.url));
const stemOf = (f: string): string => f.replace(/\.ts$/, "");
const isModule = (f: string): boolean => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.includes(".test.");

/** The subcommand names a group folder's files promise: each file but index.ts, and each subfolder. */
function folderEntries(dir: string): { files: string[]; folders: string[] } {
  const entries = readdirSync(dir).sort();
  return {
    files: entries.filter((f) => isModule(f) && f !== "index.ts").map(stemOf),
    folders: entries.filter((f) => statSync(join(dir, f)).isDirectory()),
  };
}

describe("one command a file, lazily loaded", () => {
  it("every command module registers only the top-level command it is listed under", async () => {
    for (const name of commandNames()) {
      const io = memoryIo();
      const program = buildProgram({ io: io.io, exitCode: 0 }, await loadRegisters([name]));
      expect(program.commands.map((c) => c.name()), `the module of ${name}`).toEqual([name]);
    }
  });

  it("cli/commands holds <name>.ts for a command and <name>/ for a group, and nothing else", () => {
    const { files, folders } = folderEntries(commandsDir);
    expect([...files, ...folders].sort()).toEqual([...commandNames()].sort());
    for (const f of folders) expect(readdirSync(join(commandsDir, f)), `${f}/ has an index.ts`).toContain("index.ts");
    expect(readdirSync(commandsDir).filter((f) => !isModule(f) && !folders.includes(f))).toEqual([]);
  });

  it("a group's subcommands are its folder's files, each registering the one subcommand it is named after", async () => {
    const io = memoryIo();
    const ctx: CommandContext = { io: io.io, exitCode: 0 };
    const program = buildProgram(ctx, await loadRegisters(commandNames()));
    let checked = 0;
    const walk = async (group: Command, dir: string): Promise<void> => {
      const { files, folders } = folderEntries(dir);
      expect(group.commands.map((c) => c.name()).sort(), `${dir}: subcommands`).toEqual([...files, ...folders].sort());
      for (const stem of files) {
        const mod = (await import(join(dir, `${stem}.ts`))) as { register: Register };
        const parent = new Command(group.name());
        mod.register(parent, ctx);
        expect(parent.commands.map((c) => c.name()), `${dir}/${stem}.ts`).toEqual([stem]);
        checked++;
      }
      for (const sub of folders) await walk(group.commands.find((c) => c.name() === sub) as Command, join(dir, sub));
    };
    for (const name of commandNames()) {
      const dir = join(commandsDir, name);
      if (!readdirSync(commandsDir).includes(name)) continue;
      await walk(program.commands.find((c) => c.name() === name) as Command, dir);
    }
    expect(checked).toBeGreaterThan(20);
  });

  it("loads only the named command's module, and every module for help or a typo", () => {
    const names = ["add", "eval", "list"];
    expect(commandsFor("eval", names)).toEqual(["eval"]);
    expect(commandsFor("list", names)).toEqual(["list"]);
    expect(commandsFor("--help", names)).toEqual(names);
    expect(commandsFor("lsit", names)).toEqual(names);
    expect(commandsFor(undefined, names)).toEqual(names);
  });

  // The subcommands a group registers, by path: ["rules"] -> the names under `errata rules`.
  const subNames = (program: Command, path: string[]): string[] => {
    let cmd: Command | undefined = program;
    for (const word of path) cmd = cmd?.commands.find((c) => c.name() === word);
    return (cmd?.commands ?? []).map((c) => c.name());
  };

  it("a group loads only the subcommand its command line names, and all of them for help, a typo or an option first", async () => {
    const build = async (argv: string[]): Promise<Command> => buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters([argv[0]!], argv));
    const all = subNames(await build(["rules", "--help"]), ["rules"]);
    expect(all.length).toBeGreaterThan(10);
    expect(all).toContain("approvals");
    expect(subNames(await build(["rules", "approvals", "--json"]), ["rules"])).toEqual(["approvals"]);
    expect(subNames(await build(["rules", "aprovals"]), ["rules"])).toEqual(all);
    expect(subNames(await build(["rules", "--quiet", "approvals"]), ["rules"])).toEqual(all);
    expect(subNames(await build(["rules"]), ["rules"])).toEqual(all);
    // Nested groups: `eval label export` loads the label group with only its export.
    const evalLabel = await build(["eval", "label", "export", "--help"]);
    expect(subNames(evalLabel, ["eval"])).toEqual(["label"]);
    expect(subNames(evalLabel, ["eval", "label"])).toEqual(["export"]);
    expect(subNames(await build(["eval", "label"]), ["eval", "label"])).toEqual(["export", "import", "serve"]);
    // Without a command line (tests, help generation) everything is loaded, as one command line naming none.
    const full = buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters(["rules"]));
    expect(subNames(full, ["rules"])).toEqual(all);
  });

  it("every group's subcommand table names each subcommand as the command its module registers", async () => {
    const program = buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters(commandNames()));
    let checked = 0;
    // Walk every group; naming each subcommand alone must register exactly that command.
    const walk = async (path: string[]): Promise<void> => {
      const subs = subNames(program, path);
      for (const sub of subs) {
        const argv = [...path, sub];
        const alone = buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters([argv[0]!], argv));
        if (path.length > 0) {
          expect(subNames(alone, path), argv.join(" ")).toEqual([sub]);
          checked++;
        }
        await walk(argv);
      }
    };
    for (const name of commandNames()) if (subNames(program, [name]).length > 0) await walk([name]);
    expect(checked).toBeGreaterThan(50);
  });
});
