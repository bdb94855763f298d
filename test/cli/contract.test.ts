import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAI, type FakeServer } from "../engine/helpers/fake-openai.js";
import { changed, commandOf, helpTexts, makeShim, pool, sandbox, sh, snapshot, splitChain, withoutComment, type HelpText, type ShellResult } from "./examples.js";

/**
 * The CLI's contract, walked from the commander program itself (not a hand list): every
 * command's --help exits 0 and shows an example; every example in every help text runs as
 * pasted, in a shell, in a fresh temporary folder (its own HOME and TMPDIR; `errata` on PATH
 * runs this repository's bin/errata.cjs, so `npm run build` must have run), with the exit code
 * it documents, and writes nothing outside that folder; a command's --json prints exactly one
 * JSON value; a command that writes has --dry-run, and --dry-run writes nothing.
 *
 * An example's last command (after its last `&&`) also runs a second time, in a copy of the
 * folder as the setup steps left it, with --json and --dry-run added where the command has
 * them: that run's stdout must be one JSON value, its exit code the documented one, and with
 * --dry-run the folder must not change. Files the first run of the last command changed make
 * it a command that writes, which must have --dry-run.
 */
const repo = fileURLToPath(new URL("../../", import.meta.url));
const built = existsSync(join(repo, "dist", "cli", "main.js"));

/** The hook's arguments are fixed by the host's settings, and its fast lane (bin/errata.cjs) never reaches commander: no --dry-run there. */
const WRITES_WITHOUT_DRY_RUN = new Set(["hook"]);

interface Run {
  text: HelpText;
  line: string;
  exit: number;
  pasted: ShellResult;
  outside: string[];
  last: Command | null;
  /** What the last command changed in the folder when run as pasted. */
  wrote: string[];
  check: { result: ShellResult; flags: string[]; changedInside: string[] } | null;
}

const name = (t: HelpText): string => ["errata", ...t.path].join(" ");
const hasOption = (cmd: Command, flag: string): boolean => cmd.options.some((o) => o.long === flag);
/** The fake OpenAI-compatible server an example's ERRATA_OPENAI_BASE_URL names, when it is on this machine. */
const localPort = (line: string): number | null => {
  const m = /ERRATA_OPENAI_BASE_URL=http:\/\/127\.0\.0\.1:(\d+)\//.exec(line);
  return m ? Number(m[1]) : null;
};

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", () => resolve(false));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
  });
}

function repoSnapshot(): Map<string, string> {
  const tracked = execFileSync("git", ["ls-files", "-z"], { cwd: repo, encoding: "utf8" }).split("\0").filter((f) => f !== "");
  const untracked = execFileSync("git", ["ls-files", "-z", "--others", "--exclude-standard"], { cwd: repo, encoding: "utf8" }).split("\0").filter((f) => f !== "");
  const out = new Map<string, string>();
  for (const f of tracked) {
    const p = join(repo, f);
    out.set(f, existsSync(p) ? `${statSync(p).size}:${statSync(p).mtimeMs}` : "missing");
  }
  for (const f of untracked) out.set(f, "untracked");
  return out;
}

/**
 * The real home's top-level names and the names of the files in errata's default folders.
 * Names only: the person's own hook may append to their real ledger while the tests run.
 */
function homeSnapshot(): Map<string, string> {
  const home = homedir();
  const out = new Map<string, string>();
  for (const f of existsSync(home) ? readdirSync(home) : []) out.set(`~/${f}`, "");
  for (const d of [".local/share/errata", ".local/state/errata"]) for (const k of snapshot(join(home, d)).keys()) out.set(`~/${d}/${k}`, "");
  return out;
}

describe("the CLI's contract, from the commander program", () => {
  let texts: HelpText[] = [];
  let program: Command;
  let runs: Run[] = [];
  let outsideRepo: string[] = [];
  let outsideHome: string[] = [];
  let shim: { dir: string; cleanup: () => void };
  const servers = new Map<number, FakeServer>();

  beforeAll(async () => {
    if (!built) throw new Error("the CLI contract runs the built bin/errata.cjs: run `npm run build` first (there is no dist/cli/main.js)");
    ({ program, texts } = await helpTexts());
    shim = makeShim(repo);
    const repoBefore = repoSnapshot();
    const homeBefore = homeSnapshot();
    let examples = texts.flatMap((text) => text.examples.map((e) => ({ text, ...e })));
    // Examples that name a local OpenAI-compatible server get a fake one at that address; one
    // whose port is taken on this machine is left out, and says so.
    for (const port of new Set(examples.map((e) => localPort(e.line)).filter((p): p is number => p !== null))) {
      if (await portFree(port)) servers.set(port, await startFakeOpenAI({ port }));
      else {
        console.warn(`cli contract: port ${port} is in use here; skipped: ${examples.filter((e) => localPort(e.line) === port).map((e) => e.line).join(" | ")}`);
        examples = examples.filter((e) => localPort(e.line) !== port);
      }
    }
    const once = async (e: (typeof examples)[number]): Promise<Run> => {
      const segments = splitChain(e.line);
      const setup = segments.slice(0, -1).join(" && ");
      const lastSegment = segments.at(-1) as string;
      const last = commandOf(lastSegment, program);
      const box = sandbox(shim.dir);
      const twin = sandbox(shim.dir);
      try {
        // `setup && last` is pasted as two shell runs, setup then last: the same thing, since no
        // step changes the shell's own state (a test below holds the examples to that). Between
        // the two the folder is copied, so the last command runs a second time from the same state.
        const first = setup === "" ? null : await sh(setup, box.dir, box.env);
        let pasted: ShellResult;
        let check: Run["check"] = null;
        let wrote: string[] = [];
        if (first !== null && first.code !== 0) pasted = first;
        else {
          rmSync(twin.dir, { recursive: true, force: true });
          cpSync(box.dir, twin.dir, { recursive: true });
          const before = snapshot(box.dir);
          const then = await sh(lastSegment, box.dir, box.env);
          wrote = changed(before, snapshot(box.dir));
          pasted = { code: then.code, stdout: (first?.stdout ?? "") + then.stdout, stderr: (first?.stderr ?? "") + then.stderr, ms: (first?.ms ?? 0) + then.ms };
          if (last !== null && !lastSegment.includes("|")) {
            const flags = ["--json", "--dry-run"].filter((f) => hasOption(last, f) && !new RegExp(`${f}(\\s|$)`).test(lastSegment));
            const inside = snapshot(twin.dir);
            const result = await sh(`${withoutComment(lastSegment)} ${flags.join(" ")}`, twin.dir, twin.env);
            check = { result, flags, changedInside: changed(inside, snapshot(twin.dir)) };
          }
        }
        // A sandbox's root holds only its working folder: anything beside it was written outside.
        const outside = [...readdirSync(box.root), ...readdirSync(twin.root)].filter((f) => f !== "work");
        return { text: e.text, line: e.line, exit: e.exit, pasted, outside, last, wrote, check };
      } finally {
        box.cleanup();
        twin.cleanup();
      }
    };
    runs = await pool(examples, 2, once);
    outsideRepo = changed(repoBefore, repoSnapshot());
    outsideHome = changed(homeBefore, homeSnapshot());
    const slow = [...runs].sort((a, b) => b.pasted.ms - a.pasted.ms).slice(0, 3);
    const checked = runs.filter((r) => r.check !== null);
    console.log(
      `cli contract: ${runs.length} examples from ${texts.length} help texts run as pasted (${runs.reduce((s, r) => s + r.pasted.ms, 0)} ms of shell time); ` +
        `${checked.length} last commands re-run with ${checked.filter((r) => r.check!.flags.includes("--json")).length} --json and ${checked.filter((r) => r.check!.flags.includes("--dry-run")).length} --dry-run added; ` +
        `${runs.filter((r) => r.wrote.length > 0).length} wrote; slowest: ${slow.map((r) => `${r.pasted.ms} ms (${name(r.text)})`).join(", ")}`,
    );
  }, 900_000);

  afterAll(async () => {
    shim?.cleanup();
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

  it("examples write nothing outside their folder: the checkout and the home folder are untouched", () => {
    expect(runs.filter((r) => r.outside.length > 0).map((r) => `${r.line}: ${r.outside.join(", ")}`)).toEqual([]);
    expect(outsideRepo).toEqual([]);
    expect(outsideHome).toEqual([]);
  });

  it("--json prints exactly one JSON value", () => {
    const checked = runs.filter((r) => r.check !== null && r.last !== null && hasOption(r.last, "--json"));
    expect(checked.length).toBeGreaterThan(50);
    const bad = checked.filter((r) => {
      try {
        JSON.parse(r.check!.result.stdout);
        return r.check!.result.stdout.trim() === "";
      } catch {
        return true;
      }
    });
    expect(bad.map((r) => `${r.line} (+ ${r.check!.flags.join(" ")}): ${JSON.stringify(r.check!.result.stdout.slice(0, 200))} ${r.check!.result.stderr.slice(-300)}`)).toEqual([]);
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

