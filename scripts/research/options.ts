// The driver's command line: every flag, its default and its check, and the help that
// teaches them. Paths are resolved against the caller's working folder.
import { resolve } from "node:path";
import { ErrataError } from "../../core/errors.js";
import type { ResearchOptions } from "./summary.js";

export const DEFAULTS: ResearchOptions = {
  seed: 1,
  corpora: ["ab-redial", "synthetic"],
  syntheticSeed: 7,
  syntheticSessions: 300,
  sessions: 0,
  items: 300,
  failureItems: 180,
  perSession: 3,
  holdoutShare: 0.5,
  resamples: 2000,
  monteCarlo: 500,
  engine: "train",
  engineShare: 0.5,
};

export interface CommandLine extends ResearchOptions {
  /** The loop's folder; null: a new folder under the OS temp dir. */
  dir: string | null;
  /** Where the page and summary.json go; null: the loop's folder (with --render, the summary's folder). */
  out: string | null;
  /** Also rewrite the tracked docs/research-loop.md. */
  writeDocs: boolean;
  /** No progress bar on stderr (there is one only when stderr is a terminal). */
  quiet: boolean;
  /** Only re-render the page from this summary.json (no loop). */
  render: string | null;
}

/** Flags an earlier version took, and what replaced them. */
const REPLACED: Record<string, string> = {
  "--doc": "the page goes to <out>/research-loop.md (--out DIR), and to docs/research-loop.md with --write-docs",
  "--no-doc": "docs/research-loop.md is left alone unless --write-docs is given",
  "--summary": "summary.json goes to <out>/summary.json (--out DIR)",
};

/** Bad command-line input: the driver prints it with a pointer to --help and exits 2. */
export function usageError(message: string, expected?: string, found?: string): ErrataError {
  return new ErrataError("BAD_INPUT", message, { ...(expected !== undefined ? { expected } : {}), ...(found !== undefined ? { found } : {}) });
}

/**
 * Parses the driver's arguments; `{help: true}` for --help. Throws a BAD_INPUT ErrataError.
 *
 * Example: parseArgs(["--sessions", "40", "--out", ".tmp/r"], "/repo")
 * -> {…DEFAULTS, sessions: 40, out: "/repo/.tmp/r", dir: null, writeDocs: false, render: null}
 */
export function parseArgs(argv: readonly string[], cwd: string): CommandLine | { help: true } {
  const o: CommandLine = { ...DEFAULTS, corpora: [...DEFAULTS.corpora], dir: null, out: null, writeDocs: false, quiet: false, render: null };
  const int = (name: string, v: string, min: number): number => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw usageError(`${name} must be a whole number >= ${min}`, `a whole number >= ${min}`, JSON.stringify(v));
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? "";
    const next = (): string => {
      const v = argv[i + 1];
      if (v === undefined) throw usageError(`${a} needs a value`);
      i++;
      return v;
    };
    if (a === "--help" || a === "-h") return { help: true };
    else if (a === "--dir") o.dir = resolve(cwd, next());
    else if (a === "--out") o.out = resolve(cwd, next());
    else if (a === "--write-docs") o.writeDocs = true;
    else if (a === "--quiet") o.quiet = true;
    else if (a === "--render") o.render = resolve(cwd, next());
    else if (a === "--seed") o.seed = int(a, next(), 0);
    else if (a === "--corpora") o.corpora = next().split(",").filter(Boolean);
    else if (a === "--synthetic-sessions") o.syntheticSessions = int(a, next(), 1);
    else if (a === "--synthetic-seed") o.syntheticSeed = int(a, next(), 0);
    else if (a === "--sessions") o.sessions = int(a, next(), 1);
    else if (a === "--items") o.items = int(a, next(), 1);
    else if (a === "--failure-items") o.failureItems = int(a, next(), 0);
    else if (a === "--per-session") o.perSession = int(a, next(), 2);
    else if (a === "--resamples") o.resamples = int(a, next(), 2000);
    else if (a === "--monte-carlo") o.monteCarlo = int(a, next(), 1);
    else if (a === "--engine") {
      const v = next();
      if (v !== "train" && v !== "shipped") throw usageError(`--engine is train or shipped, found ${v}`, "train or shipped", JSON.stringify(v));
      o.engine = v;
    } else if (a === "--engine-share") {
      const v = next();
      o.engineShare = Number(v);
      if (!(o.engineShare > 0 && o.engineShare < 1)) throw usageError("--engine-share must be between 0 and 1", "a number strictly between 0 and 1", JSON.stringify(v));
    } else if (a in REPLACED) throw usageError(`${a} is gone: ${REPLACED[a]}`);
    else throw usageError(`unknown option ${a}`);
  }
  return o;
}

export const HELP = [
  "node dist/scripts/research.js: the whole research loop on the bundled labelled data, offline (its output: docs/research-loop.md)",
  "",
  "Writes its report (research-loop.md and summary.json) into an output folder, printed at the end; the tracked",
  "docs/research-loop.md is rewritten only with --write-docs.",
  "",
  "  --dir DIR               an empty folder for the ledgers and files (default: a new folder under the OS temp dir, kept)",
  "  --out DIR               where research-loop.md and summary.json go (default: the --dir folder; with --render, the",
  "                          summary's folder); created if missing, files there replaced",
  "  --write-docs            also rewrite docs/research-loop.md with the page",
  "  --quiet                 no progress bar on stderr (drawn only when stderr is a terminal)",
  "  --render SUMMARY        only re-render the page from a summary.json an earlier run wrote (no loop)",
  "  --seed N                gold draw, bootstrap and Combiner folds (default 1)",
  "  --corpora a,b           ab-redial and/or synthetic (default both; each is its own track)",
  "  --synthetic-sessions N  sessions the synthetic generator writes (default 300; 60 = the bundled datasets/synthetic)",
  "  --synthetic-seed N      the synthetic generator's seed (default 7, the bundled set's)",
  "  --sessions N            keep only the first N sessions of each corpus (a quick run)",
  "  --items N --failure-items M --per-session K   the gold draw (default 300, 180, 3)",
  "  --monte-carlo N         replicates of eval sample's Monte Carlo check of the inclusion probabilities (default 500)",
  "  --resamples N           bootstrap resamples, at least 2000 (default 2000)",
  "  --engine train|shipped  train the embedded lane on its own part of the sessions (default) or use the shipped weights",
  "  --engine-share X        share of sessions the engine trains on; the loop runs on the rest (default 0.5)",
  "  -h, --help              this help",
  "",
  "Examples:",
  "  npm run research                                  # build, then the whole loop; the report goes to a new temp folder",
  "  npm run research -- --write-docs                  # the same, and rewrite docs/research-loop.md",
  "  node dist/scripts/research.js --sessions 40 --synthetic-sessions 60 --items 48 --failure-items 16 --out .tmp/research",
  "                                                    # a quick run on a subset, report in .tmp/research",
  "  node dist/scripts/research.js --render .tmp/research/summary.json --write-docs",
  "                                                    # re-render the page from that run into docs/, no loop",
  "",
  "Exit 0: the loop ran (a refused promotion is an outcome, printed); 2: a step failed or bad input.",
  "",
].join("\n");
