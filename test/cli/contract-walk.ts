import { execFileSync } from "node:child_process";
import { cpSync, existsSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { startFakeOpenAI, type FakeServer } from "../engine/helpers/fake-openai.js";
import { changed, commandOf, pool, sandbox, sh, snapshot, splitChain, withoutComment, type Example, type HelpText, type ShellResult } from "./examples.js";

/**
 * The walk behind the CLI's contract (test/cli/contract.test.ts, and its real-process sample
 * in contract-process.test.ts): each example pasted into a shell in a fresh folder, with the
 * `errata` on PATH the caller gives (run in process, or the built bin), and its last command
 * run a second time with --json and --dry-run added where the command has them.
 *
 * `setup && last` is pasted as two shell runs, setup then last: the same thing, since no step
 * changes the shell's own state (the contract test holds the examples to that). Between the
 * two the folder is copied, so the last command runs a second time from the same state.
 */
export interface Run {
  text: HelpText;
  line: string;
  exit: number;
  pasted: ShellResult;
  /** Names written beside the sandbox's working folder: outside it. */
  outside: string[];
  last: Command | null;
  /** What the last command changed in the folder when run as pasted. */
  wrote: string[];
  check: { result: ShellResult; flags: string[]; changedInside: string[] } | null;
}

export type TextExample = Example & { text: HelpText };

export const name = (t: HelpText): string => ["errata", ...t.path].join(" ");
export const hasOption = (cmd: Command, flag: string): boolean => cmd.options.some((o) => o.long === flag);

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

/**
 * Examples that name a local OpenAI-compatible server get a fake one at that address; one
 * whose port is taken on this machine is left out, and says so.
 */
export async function withServers(examples: TextExample[], servers: Map<number, FakeServer>, who: string): Promise<TextExample[]> {
  let out = examples;
  for (const port of new Set(examples.map((e) => localPort(e.line)).filter((p): p is number => p !== null))) {
    if (await portFree(port)) servers.set(port, await startFakeOpenAI({ port }));
    else {
      console.warn(`${who}: port ${port} is in use here; skipped: ${out.filter((e) => localPort(e.line) === port).map((e) => e.line).join(" | ")}`);
      out = out.filter((e) => localPort(e.line) !== port);
    }
  }
  return out;
}

/** Runs every example with `errata` from `shimDir`, `concurrency` shells at once. */
export function walk(examples: readonly TextExample[], program: Command, shimDir: string, concurrency = 2): Promise<Run[]> {
  return pool(examples, concurrency, (e) => once(e, program, shimDir));
}

async function once(e: TextExample, program: Command, shimDir: string): Promise<Run> {
  const segments = splitChain(e.line);
  const setup = segments.slice(0, -1).join(" && ");
  const lastSegment = segments.at(-1) as string;
  const last = commandOf(lastSegment, program);
  const box = sandbox(shimDir);
  const twin = sandbox(shimDir);
  try {
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
}

/** The files of the checkout (tracked: size and time; untracked: present), to see that a walk wrote none. */
export function repoSnapshot(repo: string): Map<string, string> {
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
export function homeSnapshot(): Map<string, string> {
  const home = homedir();
  const out = new Map<string, string>();
  for (const f of existsSync(home) ? readdirSync(home) : []) out.set(`~/${f}`, "");
  for (const d of [".local/share/errata", ".local/state/errata"]) for (const k of snapshot(join(home, d)).keys()) out.set(`~/${d}/${k}`, "");
  return out;
}

/** The runs whose --json re-run did not print exactly one JSON value. */
export function notOneJson(runs: readonly Run[]): Run[] {
  return runs.filter((r) => {
    try {
      JSON.parse(r.check!.result.stdout);
      return r.check!.result.stdout.trim() === "";
    } catch {
      return true;
    }
  });
}
