import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FakeServer } from "../engine/helpers/fake-openai.js";
import { helpTexts, makeShim, sandbox, sh, splitChain, commandOf, type HelpText } from "./examples.js";
import { name, notOneJson, walk, withServers, type Run, type TextExample } from "./contract-walk.js";
import { built } from "../helpers/built.js";

/**
 * The CLI's contract in real processes: a small sample of the help examples, chosen for what
 * only a process shows, pasted into a shell with `errata` running the built bin/errata.cjs
 * (so this file needs `npm run build`; `npm test` builds once before the run). The full walk
 * runs in process (contract.test.ts); this proves the path around it: the bin's own lanes,
 * exit codes and the two streams through a real process, and stdin through a pipe.
 *
 * The sample: every example that runs `errata hook` (the bin answers the hook itself, with a
 * bundle the in-process walk never loads); the program's first example (the ES module CLI,
 * stdout, a ledger written); the first example documented to exit 1 (a check's exit code
 * through the process); and by hand: `--version` (the bin's other lane), a mistyped command
 * with --help (exit 2, the error on stderr, nothing on stdout) and with --json (the error as
 * the one JSON value on stdout).
 */
const repo = fileURLToPath(new URL("../../", import.meta.url));

/** The sample of examples, by what each proves about the process path. */
export function sample(texts: readonly HelpText[], program: Command): TextExample[] {
  const all = texts.flatMap((text) => text.examples.map((e) => ({ text, ...e })));
  // A step of the chain, or a command of a pipeline in it (`echo '{...}' | errata hook ...`).
  const runsHook = (e: TextExample) => splitChain(e.line).some((s) => s.split("|").some((part) => commandOf(part.trim(), program)?.name() === "hook"));
  const picked = [...all.filter(runsHook), all.find((e) => e.text.path.length === 0), all.find((e) => e.exit === 1)];
  return [...new Set(picked.filter((e): e is TextExample => e !== undefined))];
}

describe.skipIf(!built)("the CLI's contract in real processes: a sample, through the built bin", () => {
  let runs: Run[] = [];
  let shim: { dir: string; cleanup: () => void };
  const servers = new Map<number, FakeServer>();

  beforeAll(async () => {
    // The help texts from the compiled CLI this file runs anyway (the same sources, built).
    const { program, texts } = await helpTexts((await import(join(repo, "dist", "cli", "main.js"))) as Parameters<typeof helpTexts>[0]);
    shim = makeShim(repo);
    runs = await walk(await withServers(sample(texts, program), servers, "cli contract (processes)"), program, shim.dir);
  });

  afterAll(async () => {
    shim?.cleanup();
    for (const s of servers.values()) await s.close();
  });

  it("the sample holds the hook examples, the program's first example and one that exits 1", () => {
    expect(runs.filter((r) => r.line.includes("errata hook")).length).toBeGreaterThanOrEqual(2);
    expect(runs.some((r) => r.text.path.length === 0)).toBe(true);
    expect(runs.some((r) => r.exit === 1)).toBe(true);
  });

  it("each exits as documented, as pasted and with --json and --dry-run added, printing one JSON value, and writes nothing outside its folder", () => {
    expect(runs.filter((r) => r.pasted.code !== r.exit).map((r) => `${name(r.text)}: \`${r.line}\` exited ${r.pasted.code}, documents ${r.exit}\n${r.pasted.stderr.slice(-600)}`)).toEqual([]);
    const checked = runs.filter((r) => r.check !== null && r.check.flags.includes("--json"));
    expect(checked.length).toBeGreaterThanOrEqual(2);
    expect(checked.filter((r) => r.check!.result.code !== r.exit).map((r) => r.line)).toEqual([]);
    expect(notOneJson(checked).map((r) => `${r.line}: ${r.check!.result.stdout.slice(0, 200)}`)).toEqual([]);
    expect(runs.filter((r) => r.outside.length > 0).map((r) => `${r.line}: ${r.outside.join(", ")}`)).toEqual([]);
  });

  it("the program's first example prints on stdout and nothing on stderr; the hook reads its stdin through the pipe", () => {
    const first = runs.find((r) => r.text.path.length === 0)!;
    expect(first.pasted.stdout).toMatch(/er-\d{8}-[0-9a-f]+/);
    expect(first.pasted.stderr).toBe("");
    const prompt = runs.find((r) => r.line.includes("errata hook user-prompt-submit"))!;
    expect(prompt.wrote.some((f) => /errata-\d{4}-\d{2}\.jsonl$/.test(f)), `wrote: ${prompt.wrote.join(", ")}`).toBe(true);
  });

  it("--version answers from the bin; a mistyped command exits 2 naming it, with --help on stderr and with --json as one JSON value", async () => {
    const box = sandbox(shim.dir);
    try {
      const version = await sh("errata --version", box.dir, box.env);
      expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n", stderr: "" });
      const typo = await sh("errata serv --help", box.dir, box.env);
      expect(typo.code).toBe(2);
      expect(typo.stdout).toBe("");
      expect(typo.stderr).toMatch(/^errata: unknown command 'serv' for `errata`(; did you mean [^(]*)? \(expected one of: add, .*; found 'serv'\)\n$/);
      const json = await sh("errata eval nosuch --json", box.dir, box.env);
      expect(json.code).toBe(2);
      expect(JSON.parse(json.stdout)).toMatchObject({ ok: false, error: { code: "USAGE_UNKNOWN_COMMAND", found: "'nosuch'" } });
    } finally {
      box.cleanup();
    }
  });
});
