// Runs the compiled `errata` CLI in process (`run` from dist/cli/main.js), the way
// `node bin/errata.js ...` would, against the loop's own ledger folder, and logs each
// command so a reader can repeat it by hand.
//
// Example: `await cli.json(["eval", "sample", "--exchanges", f, "--json"])`
// -> { code: 0, value: { drawn: { failure: 180, ... }, ... }, out: "...", err: "..." }
import { isAbsolute, join, relative } from "node:path";
import { pathToFileURL } from "node:url";

/** Environment for every command: ours, minus any ERRATA_* setting, plus the loop's ledger. */
export function loopEnv(ledgerDir) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("ERRATA_")) env[k] = v;
  env.ERRATA_DIR = ledgerDir;
  return env;
}

export class StepError extends Error {
  constructor(message, detail) {
    super(message);
    this.name = "StepError";
    this.detail = detail;
  }
}

/**
 * A runner bound to one ledger folder (ERRATA_DIR) and working folder. `allowed` lists the exit codes a call may return
 * without failing the loop (default [0]): `eval score --check` and `promote` pass [0, 1].
 */
export async function cliRunner({ repoRoot, dir, ledgerDir, log, cwd = dir, commands = [] }) {
  const { run } = await import(pathToFileURL(join(repoRoot, "dist", "cli", "main.js")).href);
  const env = loopEnv(ledgerDir);
  const shown = (a) => {
    if (!isAbsolute(a)) return a;
    const r = relative(dir, a);
    if (!r.startsWith("..")) return `$DIR/${r}`;
    // Repository-relative (also outside it, e.g. ../shared/datasets/...): no machine paths in the docs.
    return relative(repoRoot, a);
  };
  async function call(args, { allowed = [0], quiet = false } = {}) {
    const words = args.map((a) => shown(a)).map((a) => (/[\s"']/.test(a) ? JSON.stringify(a) : a));
    const line = `ERRATA_DIR=${shown(ledgerDir)} errata ${words.join(" ")}`;
    commands.push(line);
    if (!quiet) log(`  $ errata ${words.map((w) => (w.length > 100 ? `${w.slice(0, 60)}…(${w.split(",").length} items)` : w)).join(" ")}`);
    let out = "";
    let err = "";
    const io = {
      stdout: { write: (s) => ((out += String(s)), true) },
      stderr: { write: (s) => ((err += String(s)), true) },
      env,
      cwd,
      now: () => Date.now(),
      readStdin: async () => "",
      isTTY: false,
    };
    const code = await run(args, io);
    if (!allowed.includes(code)) {
      throw new StepError(`\`${line}\` exited ${code} (expected ${allowed.join(" or ")})`, { out: out.slice(-4000), err: err.slice(-4000) });
    }
    return { code, out, err };
  }
  async function json(args, opts) {
    const r = await call(args, opts);
    let value;
    try {
      value = JSON.parse(r.out);
    } catch {
      throw new StepError(`\`errata ${args.join(" ")}\` printed no single JSON value`, { out: r.out.slice(0, 2000), err: r.err.slice(-2000) });
    }
    return { ...r, value };
  }
  return { call, json, commands, shown };
}
