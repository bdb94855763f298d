import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import type { FakeServer } from "../engine/helpers/fake-openai.js";
import { changed, helpTexts, splitChain, type HelpText } from "./examples.js";
import { hasOption, homeSnapshot, name, notOneJson, repoSnapshot, walk, withServers, type Run } from "./contract-walk.js";
import { inProcessErrata, type InProcessErrata } from "./in-process.js";

/**
 * The CLI's contract, walked from the commander program itself (not a hand list): every
 * command's --help exits 0 and shows an example; every example in every help text runs as
 * pasted, in a shell, in a fresh temporary folder (its own HOME and TMPDIR), with the exit
 * code it documents, and writes nothing outside that folder; a command's --json prints
 * exactly one JSON value; a command that writes has --dry-run, and --dry-run writes nothing.
 *
 * The `errata` on the shell's PATH runs in this process (test/cli/in-process.ts: through
 * `run(argv, io)`, one call at a time, each with its own environment and working folder), so
 * the walk starts no Node process and needs no build; contract-process.test.ts runs a chosen
 * sample of the examples through the built bin in real processes.
 *
 * An example's last command (after its last `&&`) also runs a second time, in a copy of the
 * folder as the setup steps left it, with --json and --dry-run added where the command has
 * them: that run's stdout must be one JSON value, its exit code the documented one, and with
 * --dry-run the folder must not change. Files the first run of the last command changed make
 * it a command that writes, which must have --dry-run.
 */
const repo = fileURLToPath(new URL("../../", import.meta.url));

/** The hook's arguments are fixed by the host's settings, and its fast lane (bin/errata.cjs) never reaches commander: no --dry-run there. */
const WRITES_WITHOUT_DRY_RUN = new Set(["hook"]);

describe("the CLI's contract, from the commander program, run in process", () => {
  let texts: HelpText[] = [];
  let program: Command;
  let runs: Run[] = [];
  let outsideRepo: string[] = [];
  let outsideHome: string[] = [];
  let errata: InProcessErrata;
  const servers = new Map<number, FakeServer>();

  beforeAll(async () => {
    ({ program, texts } = await helpTexts());
    errata = await inProcessErrata(run);
    const repoBefore = repoSnapshot(repo);
    const homeBefore = homeSnapshot();
    const examples = await withServers(
      texts.flatMap((text) => text.examples.map((e) => ({ text, ...e }))),
      servers,
      "cli contract",
    );
    const start = Date.now();
    runs = await walk(examples, program, errata.dir);
    outsideRepo = changed(repoBefore, repoSnapshot(repo));
    outsideHome = changed(homeBefore, homeSnapshot());
    const slow = [...runs].sort((a, b) => b.pasted.ms - a.pasted.ms).slice(0, 3);
    const checked = runs.filter((r) => r.check !== null);
    console.log(
      `cli contract: ${runs.length} examples from ${texts.length} help texts run as pasted, ${errata.calls()} errata calls in process, ${Date.now() - start} ms; ` +
        `${checked.length} last commands re-run with ${checked.filter((r) => r.check!.flags.includes("--json")).length} --json and ${checked.filter((r) => r.check!.flags.includes("--dry-run")).length} --dry-run added; ` +
        `${runs.filter((r) => r.wrote.length > 0).length} wrote; slowest: ${slow.map((r) => `${r.pasted.ms} ms (${name(r.text)})`).join(", ")}`,
    );
    const byCommand = new Map<string, { n: number; ms: number }>();
    for (const t of errata.timings) {
      const k = t.argv.filter((a) => /^[a-z][a-z0-9-]*$/.test(a)).slice(0, 2).join(" ");
      const v = byCommand.get(k) ?? { n: 0, ms: 0 };
      byCommand.set(k, { n: v.n + 1, ms: v.ms + t.ms });
    }
    console.log(`cli contract: time in process by command: ${[...byCommand].sort((a, b) => b[1].ms - a[1].ms).slice(0, 12).map(([k, v]) => `${k} ${v.ms} ms/${v.n}`).join(", ")}`);
  });

  afterAll(async () => {
    await errata?.close();
    for (const s of servers.values()) await s.close();
  });

  it("every command, group and the program itself has --help with an example, exit 0", () => {
    expect(texts.length).toBeGreaterThanOrEqual(60);
    expect(texts.filter((t) => t.exitCode !== 0).map(name)).toEqual([]);
    expect(texts.filter((t) => t.examples.length === 0).map(name)).toEqual([]);
  });

  it("every example runs as pasted with the exit code it documents", () => {
    expect(runs.length).toBeGreaterThan(80);
    const wrong = runs.filter((r) => r.pasted.code !== r.exit).map((r) => `${name(r.text)}: \`${r.line}\` exited ${r.pasted.code}, documents ${r.exit}\n${r.pasted.stderr.slice(-600)}`);
    expect(wrong).toEqual([]);
  });

  it("every errata in every example ran in process, and no run left the process changed for the next", () => {
    // Every example runs errata at least once, and each re-run once more; the other steps are the shell's (echo, mkdir, printf).
    expect(errata.calls()).toBeGreaterThanOrEqual(runs.length + runs.filter((r) => r.check !== null).length);
    expect(errata.leaks).toEqual([]);
  });

  it("examples write nothing outside their folder: the checkout and the home folder are untouched", () => {
    expect(runs.filter((r) => r.outside.length > 0).map((r) => `${r.line}: ${r.outside.join(", ")}`)).toEqual([]);
    expect(outsideRepo).toEqual([]);
    expect(outsideHome).toEqual([]);
  });

  it("--json prints exactly one JSON value", () => {
    const checked = runs.filter((r) => r.check !== null && r.last !== null && hasOption(r.last, "--json"));
    expect(checked.length).toBeGreaterThan(50);
    expect(notOneJson(checked).map((r) => `${r.line} (+ ${r.check!.flags.join(" ")}): ${JSON.stringify(r.check!.result.stdout.slice(0, 200))} ${r.check!.result.stderr.slice(-300)}`)).toEqual([]);
  });

  it("a command that writes has --dry-run, and --dry-run writes nothing", () => {
    const writers = runs.filter((r) => r.last !== null && r.wrote.length > 0);
    expect(writers.length).toBeGreaterThan(30);
    const noDryRun = writers.filter((r) => !hasOption(r.last!, "--dry-run") && !WRITES_WITHOUT_DRY_RUN.has(r.last!.name()));
    expect(noDryRun.map((r) => `${r.line} wrote ${r.wrote.slice(0, 5).join(", ")}`)).toEqual([]);
    const checked = runs.filter((r) => r.check !== null);
    const dryRunWrote = checked.filter((r) => r.check!.flags.includes("--dry-run") || / --dry-run(\s|$)/.test(r.line));
    expect(dryRunWrote.filter((r) => r.check!.changedInside.length > 0).map((r) => `${r.line} (+ ${r.check!.flags.join(" ")}) wrote ${r.check!.changedInside.slice(0, 5).join(", ")}`)).toEqual([]);
    // The re-run's exit code is the documented one: --json and --dry-run change what is printed and written, not the verdict.
    expect(checked.filter((r) => r.check!.result.code !== r.exit).map((r) => `${r.line} (+ ${r.check!.flags.join(" ")}) exited ${r.check!.result.code}: ${r.check!.result.stderr.slice(-300)}`)).toEqual([]);
  });

  it("no step of an example changes the shell's own state (so setup and last command may run apart)", () => {
    const steps = runs.flatMap((r) => splitChain(r.line));
    expect(steps.filter((s) => /^cd\s|^[A-Za-z_][A-Za-z0-9_]*=\S*$|^(export|set|source|\.)\s/.test(s.trim()))).toEqual([]);
  });
});
