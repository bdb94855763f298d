import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CommandContext } from "../../cli/shared/command.js";
import { register as registerBrief } from "../../cli/commands/eval/brief.js";
import { buildProgram, run } from "../../cli/main.js";
import { bank, bankHash, renderBrief, renderTaxonomyPage } from "../../questions/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => (tmp = tempDir()));
afterEach(() => tmp.cleanup());

describe("labellers' brief", () => {
  it("holds every question with its text, guidance and every example", () => {
    const brief = renderBrief(bank, bankHash);
    for (const q of bank) {
      expect(brief).toContain(`### ${q.id}`);
      expect(brief).toContain(q.text);
      expect(brief).toContain(q.guidance);
      for (const e of [...q.positive, ...q.negative]) expect(brief).toContain(e.prompt.replace(/\s+/g, " ").trim());
    }
    expect(brief).toContain(bankHash);
  });

  it("`errata eval brief --out` writes it, and never any judge's answers", async () => {
    mkdirSync(join(tmp.dir, "v4"), { recursive: true });
    writeFileSync(join(tmp.dir, "v4", "answers.jsonl"), `${JSON.stringify({ raw: "JUDGE-SAID-THIS", p_yes: 0.123456 })}\n`);
    const m = memoryIo({ env: { ERRATA_DIR: tmp.dir }, cwd: tmp.dir });
    expect(await run(["eval", "brief", "--out", "brief.md"], m.io)).toBe(0);
    const written = readFileSync(join(tmp.dir, "brief.md"), "utf8");
    expect(written).toBe(renderBrief(bank, bankHash));
    expect(written).not.toContain("JUDGE-SAID-THIS");
    expect(written).not.toMatch(/p_yes|0\.123456/);
  });

  it("--dry-run prints and writes nothing; --json prints one value", async () => {
    const m = memoryIo({ env: { ERRATA_DIR: tmp.dir }, cwd: tmp.dir });
    expect(await run(["eval", "brief", "--out", "b.md", "--dry-run", "--json"], m.io)).toBe(0);
    expect(JSON.parse(m.out())).toMatchObject({ written: false });
  });

  it("eval brief registers on the group it is given, beside the group's other commands", () => {
    // A stand-in for the eval group's index, which creates the group and passes it to each subcommand.
    const registerEval = (program: Command, ctx: CommandContext): void => {
      const g = program.command("eval");
      g.command("sample");
      registerBrief(g, ctx);
    };
    const ctx: CommandContext = { io: memoryIo().io, exitCode: 0 };
    const program = buildProgram(ctx, [registerEval]);
    const evals = program.commands.filter((c) => c.name() === "eval");
    expect(evals).toHaveLength(1);
    expect(evals[0]?.commands.map((c) => c.name()).sort()).toEqual(["brief", "sample"]);
    expect(program.commands.map((c) => c.name())).toEqual(["eval"]);
  });
});

describe("errata v4 taxonomy", () => {
  it("writes the taxonomy page the docs hold", async () => {
    const m = memoryIo({ env: { ERRATA_DIR: tmp.dir }, cwd: tmp.dir });
    expect(await run(["v4", "taxonomy", "--out", "t.md"], m.io)).toBe(0);
    expect(readFileSync(join(tmp.dir, "t.md"), "utf8")).toBe(renderTaxonomyPage());
  });
});
