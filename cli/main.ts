import { Command, CommanderError } from "commander";
import type { CommandContext, Register } from "./shared/command.js";
import { CodedError, exitCodeOfKind, isSystemError } from "../core/errors.js";
import { defaultIo, type Io } from "./shared/io.js";
import { examples } from "./shared/help.js";

type CommandModule = { register?: Register };

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
  rules: () => import("./commands/rules/index.js"),
  show: () => import("./commands/show.js"),
  skills: () => import("./commands/skills.js"),
  stats: () => import("./commands/stats.js"),
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

/** Imports the modules of the named commands and returns their `register` functions. */
export async function loadRegisters(names: string[]): Promise<Register[]> {
  const registers: Register[] = [];
  for (const name of names) {
    const load = COMMAND_MODULES[name];
    if (load === undefined) continue;
    const mod = await load();
    if (typeof mod.register === "function") registers.push(mod.register);
  }
  return registers;
}

export function buildProgram(ctx: CommandContext, registers: Register[]): Command {
  const program = new Command("errata")
    .description("Errata: turns the moments a person is unhappy with an AI assistant into measured evidence.")
    .version("0.1.0")
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
 * Runs the CLI in process and returns the exit code: 0 ok, 1 a check failed, 2 bad input
 * or I/O error. Never calls `process.exit`.
 */
export async function run(argv: string[], io: Io = defaultIo()): Promise<number> {
  const ctx: CommandContext = { io, exitCode: 0 };
  const program = buildProgram(ctx, await loadRegisters(commandsFor(argv[0], commandNames())));
  try {
    await program.parseAsync(argv, { from: "user" });
    return ctx.exitCode;
  } catch (err) {
    return reportError(err, io);
  }
}

/**
 * The one place a thrown error becomes an exit code and a line on stderr: commander's usage
 * errors exit 2 (help and version 0); an error of the base (`CodedError`, core/errors.ts)
 * exits by its kind; a Node system error (recognised by its `errno` and `syscall`, not by
 * its code's first letter) is an I/O fault; anything else is an internal error, printed with
 * its stack.
 *
 * Example: an `EvalInputError` with code EMPTY -> "errata: quantile of an empty list
 * (expected at least one value; found 0 values)", 2.
 */
export function reportError(err: unknown, io: Io): number {
  if (err instanceof CommanderError) {
    if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return 0;
    return exitCodeOfKind("input");
  }
  if (err instanceof CodedError) {
    if (err.kind === "internal") io.stderr.write(`errata: internal error: ${err.stack ?? err.message}\n`);
    else io.stderr.write(`errata: ${err.message}\n`);
    return exitCodeOfKind(err.kind);
  }
  if (isSystemError(err)) {
    io.stderr.write(`errata: I/O error: ${err.message}\n`);
    return exitCodeOfKind("io");
  }
  io.stderr.write(`errata: internal error: ${(err as Error)?.stack ?? String(err)}\n`);
  return exitCodeOfKind("internal");
}
