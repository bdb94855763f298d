import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import type { Command } from "commander";
import type * as CliMain from "../../cli/main.js";
import { runChild } from "../helpers/child.js";
import { memoryIo } from "../helpers/io.js";

/**
 * Help texts and their examples, read from the commander program itself, and a runner that
 * pastes an example into a shell in a fresh temporary folder, with `errata` on PATH: either
 * the CLI run in the test process (test/cli/in-process.ts) or a shim that runs the
 * repository's bin/errata.cjs (`makeShim`; then the build must be current).
 *
 * An example is a help line `  $ <shell line>` under "Example:"; a line ending in ` \` goes
 * on with the next one, as a shell reads it; a trailing `# exit N` says the exit code
 * (default 0).
 *
 * Example: `parseExamples("Example:\n  $ errata calibrate shadow --log s.jsonl  # exit 1\n")`
 * -> `[{line: "errata calibrate shadow --log s.jsonl  # exit 1", exit: 1}]`.
 */
export interface Example {
  line: string;
  exit: number;
}

export interface HelpText {
  /** The command path without "errata": [] for the program, ["eval", "label", "export"]. */
  path: string[];
  command: Command;
  text: string;
  exitCode: number;
  examples: Example[];
}

export function parseExamples(help: string): Example[] {
  const lines = help.split("\n");
  const out: Example[] = [];
  let inExamples = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i] as string;
    if (/^Examples?:\s*$/.test(l)) {
      inExamples = true;
      continue;
    }
    if (!inExamples) continue;
    const m = /^\s+\$ (.*)$/.exec(l);
    if (!m) {
      // A line at the margin ("Install: ...") ends the examples; blank and indented lines do not.
      if (l.trim() !== "" && !/^\s/.test(l)) inExamples = false;
      continue;
    }
    let line = m[1] as string;
    while (line.endsWith("\\") && i + 1 < lines.length) line = `${line.slice(0, -1).trimEnd()} ${(lines[++i] as string).trim()}`;
    const code = /\bexit (\d+)\b/.exec(line.slice(withoutComment(line).length));
    out.push({ line, exit: code ? Number(code[1]) : 0 });
  }
  return out;
}

/**
 * The program with every command, and each command's `--help` as a person sees it (in process),
 * from the CLI's sources or from another build of them (the compiled CLI, `dist/cli/main.js`,
 * for a test that runs the build anyway: it loads natively, without transforming the sources).
 */
export async function helpTexts(cli?: Pick<typeof CliMain, "buildProgram" | "commandNames" | "loadRegisters" | "run">): Promise<{ program: Command; texts: HelpText[] }> {
  const { buildProgram, commandNames, loadRegisters, run } = cli ?? (await import("../../cli/main.js"));
  const program = buildProgram({ io: memoryIo().io, exitCode: 0 }, await loadRegisters(commandNames()));
  const texts: HelpText[] = [];
  const walk = async (cmd: Command, path: string[]): Promise<void> => {
    const io = memoryIo();
    const exitCode = await run([...path, "--help"], io.io);
    texts.push({ path, command: cmd, text: io.out(), exitCode, examples: parseExamples(io.out()) });
    for (const sub of cmd.commands) await walk(sub, [...path, sub.name()]);
  };
  await walk(program, []);
  return { program, texts };
}

/**
 * Splits a shell line at its top-level `&&` (outside quotes): the setup steps and the last
 * command. Example: `a 'x && y' && b` -> ["a 'x && y'", "b"].
 */
export function splitChain(line: string): string[] {
  const parts: string[] = [];
  let quote: string | null = null;
  let cur = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "&" && line[i + 1] === "&") {
      parts.push(cur.trim());
      cur = "";
      i++;
      continue;
    }
    cur += c;
  }
  parts.push(cur.trim());
  return parts;
}

/** Strips a trailing `# ...` comment (outside quotes). */
export function withoutComment(segment: string): string {
  let quote: string | null = null;
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i] as string;
    if (quote) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#" && (i === 0 || /\s/.test(segment[i - 1] as string))) return segment.slice(0, i).trimEnd();
  }
  return segment;
}

/** The deepest command a segment `[VAR=x ...] errata a b --flag` invokes, or null when it does not start with errata. */
export function commandOf(segment: string, program: Command): Command | null {
  const words = withoutComment(segment).split(/\s+/).filter((w) => w !== "");
  while (words.length > 0 && /^[A-Z_][A-Z0-9_]*=/.test(words[0] as string)) words.shift();
  if (words[0] !== "errata") return null;
  let cmd = program;
  for (const w of words.slice(1)) {
    const sub = cmd.commands.find((c) => c.name() === w);
    if (!sub) break;
    cmd = sub;
  }
  return cmd;
}

export interface Sandbox {
  root: string;
  /** The working folder an example runs in; HOME and TMPDIR are inside it. */
  dir: string;
  env: Record<string, string>;
  cleanup: () => void;
}

/** A shim folder with an `errata` that runs this repository's bin (the build output). */
export function makeShim(repo: string): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), "errata-shim-"));
  writeFileSync(join(dir, "errata"), `#!/bin/sh\nexec "${process.execPath}" "${join(repo, "bin", "errata.cjs")}" "$@"\n`, { mode: 0o755 });
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The system's temporary folder, read once: while a command runs in process its TMPDIR is the
 * process's (test/cli/in-process.ts), and a sandbox made meanwhile must not land inside it.
 */
const TMP = tmpdir();

/** A fresh folder to paste an example into: its own HOME and TMPDIR, no ERRATA_* or OPENAI_* from outside. */
export function sandbox(shimDir: string): Sandbox {
  const root = mkdtempSync(join(TMP, "errata-example-"));
  const dir = join(root, "work");
  for (const d of [dir, join(dir, ".home"), join(dir, ".tmp")]) mkdirSync(d, { recursive: true });
  const env: Record<string, string> = {
    PATH: [shimDir, "/usr/local/bin", "/usr/bin", "/bin"].join(":"),
    HOME: join(dir, ".home"),
    TMPDIR: join(dir, ".tmp"),
    USER: "example",
    LANG: "C.UTF-8",
  };
  return { root, dir, env, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

export interface ShellResult {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/**
 * Runs a shell line to its end (test/helpers/child.ts: no time limit a busy machine can reach;
 * a hang is killed and reported as exit 124 with its output). Its stdin is empty.
 */
export async function sh(line: string, cwd: string, env: Record<string, string>): Promise<ShellResult> {
  const r = await runChild("/bin/sh", ["-c", line], { cwd, env });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr, ms: r.ms };
}

/** Every file under `dir` with its size and modification time (symbolic links not followed). */
export function snapshot(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      const p = join(d, f);
      const rel = relative(dir, p);
      if (skip(rel)) continue;
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else out.set(rel, `${st.size}:${st.mtimeMs}`);
    }
  };
  if (existsSync(dir)) walk(dir);
  return out;
}

/** The paths that differ between two snapshots: added, removed or changed. */
export function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [k, v] of after) if (before.get(k) !== v) out.push(k);
  for (const k of before.keys()) if (!after.has(k)) out.push(k);
  return out.sort();
}

/** Runs `fn` over `items` with at most `n` at once, results in order. */
export async function pool<T, R>(items: readonly T[], n: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, worker));
  return results;
}
