// Runs the `errata` CLI in process (`run` from cli/main), the way `node bin/errata.cjs ...`
// would, against the loop's own ledger folder, and logs each command so a reader can repeat
// it by hand.
//
// Example: `await cli.json<SampleReply>(["eval", "sample", "--exchanges", f, "--json"])`
// -> { code: 0, value: { drawn: { failure: 180, ... }, ... }, out: "...", err: "..." }
import { isAbsolute, relative } from "node:path";
import type { Io } from "../../cli/shared/io.js";
import { run } from "../../cli/main.js";

/** Environment for every command: ours, minus any ERRATA_* setting, plus the loop's ledger. */
export function loopEnv(ledgerDir: string, env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(env)) if (!k.startsWith("ERRATA_")) out[k] = v;
  out["ERRATA_DIR"] = ledgerDir;
  return out;
}

/** Why a step stopped the loop: a command's exit code, a reply that is not JSON, or two results that must agree and do not. */
export type StepErrorCode = "STEP_EXIT" | "NOT_JSON" | "INCONSISTENT";

/** A failed step; `detail` holds the tail of the command's output when a command failed. */
export class StepError extends Error {
  readonly code: StepErrorCode;
  readonly detail: { out: string; err: string } | undefined;
  constructor(code: StepErrorCode, message: string, detail?: { out: string; err: string }) {
    super(message);
    this.name = "StepError";
    this.code = code;
    this.detail = detail;
  }
}

export interface CallResult {
  code: number;
  out: string;
  err: string;
}

export interface CallOptions {
  /** Exit codes that do not stop the loop (default [0]). */
  allowed?: readonly number[];
  /** Leave the command out of the log (it is still listed in `commands`). */
  quiet?: boolean;
}

export interface CliRunner {
  call(args: string[], opts?: CallOptions): Promise<CallResult>;
  /** `call`, then the one JSON value the command printed (`--json`), typed as that command's reply (replies.ts). */
  json<T>(args: string[], opts?: CallOptions): Promise<CallResult & { value: T }>;
  commands: string[];
  /** A path as the docs show it: `$DIR/...` inside the loop's folder, else relative to the repository. */
  shown(a: string): string;
}

export interface CliRunnerOptions {
  repoRoot: string;
  /** The loop's folder ($DIR in the logged commands). */
  dir: string;
  ledgerDir: string;
  log: (line: string) => void;
  /** The environment the loop was started with (ERRATA_* settings are dropped). */
  env: Record<string, string | undefined>;
  cwd?: string;
  /** Every command line run, appended to (shared by the whole loop). */
  commands?: string[];
}

/**
 * A runner bound to one ledger folder (ERRATA_DIR) and working folder. `allowed` lists the exit codes a call may return
 * without failing the loop (default [0]): `eval score --check` and `promote` pass [0, 1].
 */
export function cliRunner({ repoRoot, dir, ledgerDir, log, env: parentEnv, cwd = dir, commands = [] }: CliRunnerOptions): CliRunner {
  const env = loopEnv(ledgerDir, parentEnv);
  const shown = (a: string): string => {
    if (!isAbsolute(a)) return a;
    const r = relative(dir, a);
    if (!r.startsWith("..")) return `$DIR/${r}`;
    // Repository-relative (also outside it, e.g. ../shared/datasets/...): no machine paths in the docs.
    return relative(repoRoot, a);
  };
  async function call(args: string[], { allowed = [0], quiet = false }: CallOptions = {}): Promise<CallResult> {
    const words = args.map((a) => shown(a)).map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a));
    const line = `ERRATA_DIR=${shown(ledgerDir)} errata ${words.join(" ")}`;
    commands.push(line);
    if (!quiet) log(`  $ errata ${words.map((w) => (w.length > 100 ? `${w.slice(0, 60)}…(${w.split(",").length} items)` : w)).join(" ")}`);
    let out = "";
    let err = "";
    const io: Io = {
      stdout: { write: (s: string | Uint8Array) => ((out += String(s)), true) },
      stderr: { write: (s: string | Uint8Array) => ((err += String(s)), true) },
      env,
      cwd,
      now: () => Date.now(),
      readStdin: async () => "",
      isTTY: false,
    };
    const code = await run(args, io);
    if (!allowed.includes(code)) {
      throw new StepError("STEP_EXIT", `\`${line}\` exited ${code} (expected ${allowed.join(" or ")})`, { out: out.slice(-4000), err: err.slice(-4000) });
    }
    return { code, out, err };
  }
  async function json<T>(args: string[], opts?: CallOptions): Promise<CallResult & { value: T }> {
    const r = await call(args, opts);
    return { ...r, value: replyOf<T>(r, args) };
  }
  return { call, json, commands, shown };
}

/** The one JSON value a `--json` command printed, as that command's reply type (replies.ts). */
export function replyOf<T>(r: CallResult, args: readonly string[]): T {
  let value: unknown;
  try {
    value = JSON.parse(r.out);
  } catch {
    throw new StepError("NOT_JSON", `\`errata ${args.join(" ")}\` printed no single JSON value`, { out: r.out.slice(0, 2000), err: r.err.slice(-2000) });
  }
  return value as T;
}
