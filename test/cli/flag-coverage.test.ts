import { fileURLToPath } from "node:url";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram, commandNames, loadRegisters } from "../../cli/main.js";
import { memoryIo } from "../helpers/io.js";
import { allFlags, testTexts, untestedFlags } from "./flag-coverage.js";

describe("every flag of the CLI is named by a test", () => {
  it("no flag of any command is missing from the tests (test/cli/flag-coverage.ts says how they are counted)", async () => {
    const program = buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters(commandNames()));
    const flags = allFlags(program);
    expect(flags.length).toBeGreaterThan(100);
    expect(untestedFlags(program, testTexts(fileURLToPath(new URL("../", import.meta.url))))).toEqual([]);
  });

  it("counts a flag only as a whole word, and finds one no test names", () => {
    const program = new Command("errata");
    program.command("list").option("--limit <n>").option("--limit-files <n>").option("--kind <k>");
    expect(untestedFlags(program, ['run(["list", "--limit-files", "2"])', "--kind=bug"]).map((f) => f.flag)).toEqual(["--limit"]);
    expect(allFlags(program)).toEqual([
      { flag: "--kind", commands: ["list"] },
      { flag: "--limit", commands: ["list"] },
      { flag: "--limit-files", commands: ["list"] },
    ]);
  });
});
