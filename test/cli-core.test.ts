import { describe, expect, it } from "vitest";
import { run } from "../cli/main.js";
import { memoryIo } from "./helpers/io.js";

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
});

describe("lazy command loading", () => {
  it("every command module registers only top-level commands named by its file", async () => {
    const { commandFiles, loadRegisters, buildProgram } = await import("../cli/main.js");
    for (const file of commandFiles()) {
      const io = memoryIo();
      const program = buildProgram({ io: io.io, exitCode: 0 }, await loadRegisters([file]));
      const stem = file.replace(/\.(js|ts)$/, "");
      for (const cmd of program.commands) {
        expect(stem === cmd.name() || stem.startsWith(`${cmd.name()}-`), `${file} registers "${cmd.name()}"`).toBe(true);
      }
    }
  });
  it("loads only the named command's modules, and everything for help or a typo", async () => {
    const { filesFor } = await import("../cli/main.js");
    const files = ["add.ts", "eval-brief.ts", "eval.ts", "list.ts"];
    expect(filesFor("eval", files)).toEqual(["eval-brief.ts", "eval.ts"]);
    expect(filesFor("list", files)).toEqual(["list.ts"]);
    expect(filesFor("--help", files)).toEqual(files);
    expect(filesFor("lsit", files)).toEqual(files);
    expect(filesFor(undefined, files)).toEqual(files);
  });
});
