// The driver in process: `runResearch(argv, io, paths) -> exit code`, so tests run it with
// their own output streams and folders; scripts/research.ts wires it to the process.
import cliProgress from "cli-progress";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ErrataError } from "../../core/errors.js";
import { StepError } from "./cli.js";
import { writeJson } from "./jsonl.js";
import { runLoop } from "./loop.js";
import { type CommandLine, HELP, parseArgs, usageError } from "./options.js";
import { renderDoc } from "./report.js";
import type { LoopSummary, Summary } from "./summary.js";

/** What the driver touches outside itself. */
export interface ResearchIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown; isTTY?: boolean };
  env: Record<string, string | undefined>;
  cwd: string;
  /** Milliseconds since the epoch. */
  now: () => number;
}

export interface ResearchPaths {
  repoRoot: string;
  /** The tracked page --write-docs rewrites. */
  docsPage: string;
  /** Where a run without --dir makes its folder. */
  tmpDir: string;
}

/** The page's name in the output folder. */
export const PAGE = "research-loop.md";
export const SUMMARY = "summary.json";

/** The repository: the nearest folder above this module with a package.json (from scripts/ and from dist/scripts/ alike). */
export function findRepoRoot(moduleUrl: string = import.meta.url): string {
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    if (existsSync(join(dir, "package.json"))) return dir;
    const up = dirname(dir);
    if (up === dir) throw new ErrataError("NOT_FOUND", "no package.json above the research driver", { expected: "the driver inside the repository", found: fileURLToPath(moduleUrl) });
    dir = up;
  }
}

export function defaultPaths(): ResearchPaths {
  const repoRoot = findRepoRoot();
  return { repoRoot, docsPage: join(repoRoot, "docs", PAGE), tmpDir: tmpdir() };
}

/** Writes the page into `out` (and over the tracked page with --write-docs); returns where it went. */
function writePage(markdown: string, out: string, writeDocs: boolean, paths: ResearchPaths): { page: string; docs: string | null } {
  mkdirSync(out, { recursive: true });
  const page = join(out, PAGE);
  writeFileSync(page, markdown);
  if (writeDocs) writeFileSync(paths.docsPage, markdown);
  return { page, docs: writeDocs ? paths.docsPage : null };
}

function pageLines(written: { page: string; docs: string | null }, paths: ResearchPaths): string[] {
  return [`report: ${written.page}`, written.docs === null ? `${paths.docsPage}: left alone (--write-docs rewrites it)` : `wrote ${written.docs}`];
}

/** A summary.json an earlier run wrote (its own output: checked for the parts the page needs, not re-validated field by field). */
function readSummary(file: string): Summary {
  const value: unknown = JSON.parse(readFileSync(file, "utf8"));
  const ok = typeof value === "object" && value !== null && "meta" in value && "tracks" in value && "engine" in value && "corpora" in value;
  if (!ok) throw usageError(`--render ${file} is not a summary.json of this script`, "an object with meta, tracks, engine and corpora", "another shape");
  return value as Summary;
}

export async function runResearch(argv: readonly string[], io: ResearchIo, paths: ResearchPaths = defaultPaths()): Promise<number> {
  const log = (line: string): void => void io.stdout.write(`${line}\n`);
  let cmd: CommandLine;
  try {
    const parsed = parseArgs(argv, io.cwd);
    if ("help" in parsed) {
      io.stdout.write(HELP);
      return 0;
    }
    cmd = parsed;
    if (cmd.render !== null) {
      const doc = renderDoc(readSummary(cmd.render));
      const written = writePage(doc.markdown, cmd.out ?? dirname(cmd.render), cmd.writeDocs, paths);
      log(doc.summaryText);
      for (const line of pageLines(written, paths)) log(line);
      return 0;
    }
    if (cmd.dir !== null) {
      mkdirSync(cmd.dir, { recursive: true });
      if (readdirSync(cmd.dir).length > 0) throw usageError(`--dir ${cmd.dir} is not empty: the loop needs a fresh folder`);
    }
  } catch (err) {
    if (!(err instanceof ErrataError)) throw err;
    io.stderr.write(`research: ${err.message}\n(node dist/scripts/research.js --help for the flags and examples)\n`);
    return 2;
  }
  const dir = cmd.dir ?? mkdtempSync(join(paths.tmpDir, "errata-research-"));
  const out = cmd.out ?? dir;
  const { dir: _dir, out: _out, writeDocs, render: _render, ...options } = cmd;
  const sharedDatasets = io.env["ERRATA_SHARED_DATASETS"] ?? resolve(paths.repoRoot, "../shared/datasets");
  const started = io.now();
  const command = `node dist/scripts/research.js${argv.length ? ` ${argv.join(" ")}` : ""}`;
  log(`research loop: ${command}`);
  log(`folder ${dir} (one ledger per corpus: <folder>/<corpus>/ledger); seed ${options.seed}; engine ${options.engine}; ${new Date(started).toISOString()}`);
  let loop: LoopSummary;
  try {
    const bar = stepBar(io, options.quiet, 2 + 11 * options.corpora.length);
    try {
      loop = await runLoop({ ...options, dir, sharedDatasets }, { repoRoot: paths.repoRoot, log, env: io.env, now: io.now, onStep: bar.step });
    } finally {
      bar.done();
    }
  } catch (err) {
    io.stderr.write(`\nresearch: the loop stopped: ${err instanceof Error ? err.message : String(err)}\n`);
    if (err instanceof StepError && err.detail) io.stderr.write(`--- stdout ---\n${err.detail.out}\n--- stderr ---\n${err.detail.err}\n`);
    else if (err instanceof Error && err.stack) io.stderr.write(`${err.stack}\n`);
    return 2;
  }
  const summary: Summary = {
    ...loop,
    meta: { command, seed: options.seed, date: new Date(started).toISOString(), seconds: Math.round((io.now() - started) / 1000), node: process.version, options: { ...options, dir, out, writeDocs } },
  };
  const summaryFile = writeJson(join(out, SUMMARY), summary);
  const doc = renderDoc(summary);
  log(`\n${doc.summaryText}`);
  const written = writePage(doc.markdown, out, writeDocs, paths);
  for (const line of pageLines(written, paths)) log(line);
  log(`summary: ${summaryFile}`);
  return 0;
}

/**
 * A bar over the loop's steps on stderr, only on a terminal and without --quiet (the log on
 * stdout is unchanged). cli-progress, as the CLI's own bars (cli/shared/progress.ts); the
 * total is the usual number of steps, raised if a run takes more.
 */
function stepBar(io: ResearchIo, quiet: boolean, expected: number): { step: (n: number, name: string) => void; done: () => void } {
  if (quiet || io.stderr.isTTY !== true) return { step: () => {}, done: () => {} };
  const bar = new cliProgress.SingleBar({ stream: io.stderr as NodeJS.WritableStream, format: "research [{bar}] step {value}/{total} {name}", hideCursor: true }, cliProgress.Presets.legacy);
  bar.start(expected, 0, { name: "" });
  return {
    step: (n, name) => {
      if (n > bar.getTotal()) bar.setTotal(n);
      bar.update(n, { name: name.slice(0, 60) });
    },
    done: () => bar.stop(),
  };
}
