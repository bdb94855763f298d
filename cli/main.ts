import { Command, CommanderError } from "commander";
import type { CommandContext, CommandModule, Register } from "./shared/command.js";
import { CodedError, exitCodeOfKind, isSystemError, withDetail } from "../core/errors.js";
import { defaultIo, type Io } from "./shared/io.js";
import { examples } from "./shared/help.js";
import { stopAll } from "./shared/progress.js";
import { unknownCommand } from "./shared/unknown-command.js";
import { loadRegister } from "./shared/subcommands.js";

/**
 * Every top-level command and the module that registers it: `commands/<name>.ts` for a single
 * command, `commands/<name>/index.ts` for a group, whose folder holds one file per subcommand
 * (named after it; a subfolder is a nested group). A test holds every file in cli/commands/
 * to that layout. A table rather than a folder listing, so a stale build output left beside
 * the current ones is never loaded.
 */
const COMMAND_MODULES: Record<string, () => Promise<CommandModule>> = {
  add: () => import("./commands/add.js"),
  backfill: () => import("./commands/backfill.js"),
  "by-model": () => import("./commands/by-model.js"),
  calibrate: () => import("./commands/calibrate/index.js"),
  classtier: () => import("./commands/classtier/index.js"),
  combiner: () => import("./commands/combiner/index.js"),
  daily: () => import("./commands/daily.js"),
  datasets: () => import("./commands/datasets/index.js"),
  engine: () => import("./commands/engine/index.js"),
  enrich: () => import("./commands/enrich.js"),
  eval: () => import("./commands/eval/index.js"),
  exchanges: () => import("./commands/exchanges.js"),
  hook: () => import("./commands/hook.js"),
  impact: () => import("./commands/impact.js"),
  import: () => import("./commands/import.js"),
  label: () => import("./commands/label.js"),
  list: () => import("./commands/list.js"),
  mine: () => import("./commands/mine.js"),
  misses: () => import("./commands/misses.js"),
  notebook: () => import("./commands/notebook.js"),
  promote: () => import("./commands/promote.js"),
  report: () => import("./commands/report.js"),
  rotate: () => import("./commands/rotate.js"),
  secrets: () => import("./commands/secrets/index.js"),
  serve: () => import("./commands/serve.js"),
  rules: () => import("./commands/rules/index.js"),
  show: () => import("./commands/show.js"),
  skills: () => import("./commands/skills.js"),
  stats: () => import("./commands/stats.js"),
  store: () => import("./commands/store/index.js"),
  sync: () => import("./commands/sync.js"),
  tenants: () => import("./commands/tenants/index.js"),
  triage: () => import("./commands/triage.js"),
  v4: () => import("./commands/v4/index.js"),
  validate: () => import("./commands/validate.js"),
  weekly: () => import("./commands/weekly.js"),
};

/** The top-level command names, in the order help lists them. */
export function commandNames(): string[] {
  return Object.keys(COMMAND_MODULES);
}

/**
 * The commands whose modules a run loads for `argv[0]`: only the named command's module, so
 * a run loads only what its command needs. With no known command (help, a typo) every module
 * is loaded, so help lists everything and a typo gets its suggestion.
 */
export function commandsFor(name: string | undefined, names: string[]): string[] {
  if (name === undefined || name.startsWith("-")) return names;
  return names.includes(name) ? [name] : names;
}

/**
 * Imports the modules of the named commands and returns their `register` functions. With the
 * command line `argv`, a group imports only the subcommand it names (cli/shared/subcommands.ts);
 * without, every subcommand.
 */
export async function loadRegisters(names: string[], argv: readonly string[] = []): Promise<Register[]> {
  const registers: Register[] = [];
  for (const name of names) {
    const load = COMMAND_MODULES[name];
    if (load === undefined) continue;
    const register = await loadRegister(await load(), name === argv[0] ? argv.slice(1) : []);
    if (register !== null) registers.push(register);
  }
  return registers;
}

export function buildProgram(ctx: CommandContext, registers: Register[]): Command {
  const program = new Command("errata")
    .description("Errata: turns the moments a person is unhappy with an AI assistant into measured evidence.")
    .version("0.1.0")
    .option("--quiet", "no progress bars on stderr (drawn only when stderr is a terminal)")
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({
      writeOut: (s) => void ctx.io.stdout.write(s),
      writeErr: (s) => void ctx.io.stderr.write(s),
    })
    .allowExcessArguments(false)
    .addHelpText(
      "after",
      examples([
        "errata add bug: it pushed to main without asking && errata list",
        "errata datasets copy ab-redial && errata engine ask --exchanges datasets/ab-redial/exchanges.jsonl --question detect.unhappy --limit 50",
        "errata daily --skip-mine --dry-run",
      ]),
    )
    .exitOverride();
  for (const register of registers) register(program, ctx);
  // Every subcommand inherits the output and exit behaviour.
  const walk = (cmd: Command): void => {
    for (const sub of cmd.commands) {
      sub.configureOutput({
        writeOut: (s) => void ctx.io.stdout.write(s),
        writeErr: (s) => void ctx.io.stderr.write(s),
      });
      sub.exitOverride();
      walk(sub);
    }
  };
  walk(program);
  return program;
}

/**
 * Runs the CLI in process and returns the exit code: 0 ok, 1 a check failed (or a run did
 * nothing), 2 bad input or I/O error. Never calls `process.exit`. Bare `errata` prints the
 * help on stderr and exits 2: it names no command, so nothing was done. A word that names no
 * command (`errata serve`, `errata eval nosuch`, with or without --help) exits 2 naming it and
 * the commands that exist (cli/shared/unknown-command.ts).
 */
export async function run(argv: string[], given: Io = defaultIo()): Promise<number> {
  const json = argv.includes("--json");
  // With --json, whether the command already printed its value: a command that reports its
  // own failure as JSON (eval label import's errors) then throws for the exit code gets no
  // second JSON value after it.
  let printed = false;
  const stdout = json ? { write: (s: string | Uint8Array) => ((printed = true), given.stdout.write(s)) } : given.stdout;
  // --quiet is the program's option, accepted anywhere on the line; commands read it from the Io.
  const io: Io = { ...given, stdout, ...(argv.includes("--quiet") ? { quiet: true } : {}) };
  const ctx: CommandContext = { io, exitCode: 0 };
  if (argv.length === 0) {
    const program = buildProgram({ io: { ...io, stdout: io.stderr }, exitCode: 0 }, await loadRegisters(commandNames()));
    io.stderr.write(program.helpInformation());
    io.stderr.write("errata: no command given (expected a command such as `errata add ...`; run `errata --help` for the list)\n");
    return exitCodeOfKind("input");
  }
  // The .env values of the folder a command is run in are the owner's own secrets: whatever it
  // writes (a complaint, a reason for a no, a loosening's why) is scrubbed of them, whether or
  // not `errata secrets learn` ever read that folder (docs/privacy.md, "Walked as a user").
  // Imported here, not at the top: `errata --version` and a bare `errata` load no privacy room.
  (await import("../runtime/privacy/index.js")).knowProjectValues(io.cwd);
  const program = buildProgram(ctx, await loadRegisters(commandsFor(argv[0], commandNames()), argv));
  if (json) {
    // With --json a usage error is reported as the one JSON value on stdout, not by commander on stderr.
    const quiet = (cmd: Command): void => {
      cmd.showHelpAfterError(false).configureOutput({ writeErr: () => undefined, writeOut: (s) => void io.stdout.write(s) });
      for (const sub of cmd.commands) quiet(sub);
    };
    quiet(program);
  }
  try {
    // A mistyped command exits 2 naming it, even with --help (which commander would answer first).
    const unknown = unknownCommand(program, argv);
    if (unknown !== null) throw unknown;
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (err) {
    stopAll(); // a bar left drawing would print over the error line
    return reportError(err, io, { json: json && !printed });
  } finally {
    stopAll();
  }
}

/** What a failed run reports: a stable code, the message, and what was expected and found. */
export interface ErrorReport {
  code: string;
  message: string;
  expected: string | null;
  found: string | null;
  exit: number;
  /** Printed after the message on stderr (an internal error's stack); never in the JSON. */
  stack?: string | undefined;
}

/**
 * Messages may quote what the person gave (a file's bytes, an argument): control bytes are
 * shown escaped (`\x1b`, `\u009b`) so an error never moves the cursor or rings the bell; a
 * newline or tab inside is escaped too, keeping the message on one line.
 *
 * Example: `escapeControl("bad \u001b[2J")` -> "bad \\x1b[2J".
 */
export function escapeControl(text: string): string {
  // C0, DEL and C1 (which some terminals act on as well).
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => {
    const n = c.charCodeAt(0);
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return n < 0x80 ? `\\x${n.toString(16).padStart(2, "0")}` : `\\u${n.toString(16).padStart(4, "0")}`;
  });
}

/**
 * System errors whose Node message hides the path (a read of a folder says only "EISDIR:
 * illegal operation on a directory, read"), in words with a stable code. Others keep Node's
 * message, which names the path.
 */
const SYSTEM_ERRORS: Record<string, { code: string; message: (path: string | null) => string; expected: string }> = {
  // A read of an open folder has no path on the error: the message says what was wrong instead.
  EISDIR: { code: "IS_A_FOLDER", message: (p) => (p === null ? "a folder was given where a file is read" : `${p} is a folder`), expected: "a file" },
  ENOTDIR: { code: "NOT_A_FOLDER", message: (p) => `a part of ${p ?? "the path"} is a file, not a folder`, expected: "a path whose every parent is a folder" },
};

/** The report of one thrown error (see `reportError`). */
export function describeError(err: unknown): ErrorReport {
  if (err instanceof CommanderError) {
    const message = err.message.replace(/^error: /, "");
    // commander.unknownOption -> USAGE_UNKNOWN_OPTION
    const code = err.code.replace(/^commander\./, "usage_").replace(/[A-Z]/g, (c) => `_${c}`).replace(/[.-]/g, "_").toUpperCase();
    return { code, message, expected: "arguments as `errata <command> --help` shows", found: null, exit: exitCodeOfKind("input") };
  }
  if (err instanceof CodedError) {
    const internal = err.kind === "internal";
    return { code: err.code, message: internal ? `internal error: ${err.name}: ${err.message}` : err.message, expected: err.expected ?? null, found: err.found ?? null, exit: exitCodeOfKind(err.kind), stack: internal ? err.stack : undefined };
  }
  if (isSystemError(err)) {
    const path = (err as { path?: unknown }).path;
    const known = SYSTEM_ERRORS[err.code];
    if (known) {
      const found = `${err.code} from ${err.syscall}`;
      return { code: known.code, message: withDetail(known.message(typeof path === "string" ? path : null), known.expected, found), expected: known.expected, found, exit: exitCodeOfKind("io") };
    }
    return { code: err.code, message: `I/O error: ${err.message}`, expected: null, found: null, exit: exitCodeOfKind("io") };
  }
  const e = err as Error | undefined;
  return { code: "INTERNAL", message: `internal error: ${e instanceof Error ? `${e.name}: ${e.message}` : String(err)}`, expected: null, found: null, exit: exitCodeOfKind("internal"), stack: e instanceof Error ? e.stack : undefined };
}

/**
 * The one place a thrown error becomes an exit code and a report: commander's usage errors
 * exit 2 (help and version 0); an error of the base (`CodedError`, core/errors.ts) exits by
 * its kind; a Node system error (recognised by its `errno` and `syscall`, not by its code's
 * first letter) is an I/O fault, in words for the common ones (EISDIR: "X is a folder");
 * anything else is an internal error, printed with its stack. With `json` the report is the
 * one JSON value on stdout, `{ok: false, error: {code, message, expected, found}}`; the line
 * on stderr is written either way (without `json`, only it).
 *
 * Example: an `EvalInputError` with code EMPTY -> "errata: quantile of an empty list
 * (expected at least one value; found 0 values)", 2.
 */
export function reportError(err: unknown, io: Io, opts: { json?: boolean } = {}): number {
  if (err instanceof CommanderError && (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help")) return 0;
  const r = describeError(err);
  const message = escapeControl(r.message);
  if (opts.json) {
    const esc = (v: string | null): string | null => (v === null ? null : escapeControl(v));
    io.stdout.write(`${JSON.stringify({ ok: false, error: { code: r.code, message, expected: esc(r.expected), found: esc(r.found) } }, null, 2)}\n`);
  }
  // Commander already printed its own usage error (unless --json silenced it). An internal
  // error's line is its stack (which starts with its name and message), for the bug report.
  if (!(err instanceof CommanderError) || opts.json) io.stderr.write(`errata: ${r.stack !== undefined ? `internal error: ${r.stack}` : message}\n`);
  return r.exit;
}
