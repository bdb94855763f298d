import { Command, CommanderError } from "commander";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { CommandContext, Register } from "./command.js";
import { CodedError, exitCodeOfKind, isSystemError } from "../core/errors.js";
import { defaultIo, type Io } from "./io.js";

const commandsDir = new URL("./commands/", import.meta.url);

/** Command module files: every `.js`/`.ts` file in `cli/commands/` (tests excluded). */
export function commandFiles(): string[] {
  return readdirSync(fileURLToPath(commandsDir))
    .filter((f) => /\.(js|ts)$/.test(f) && !f.endsWith(".d.ts") && !f.includes(".test."))
    .sort();
}

/**
 * The files that can register top-level command `name`: a file is named after the command it
 * registers (`eval.ts`, `eval-brief.ts` for `eval`; a test holds every file to that rule), so
 * a run loads only the modules its command needs. With no known command (help, a typo) every
 * module is loaded, so help lists everything and a typo gets its suggestion.
 */
export function filesFor(name: string | undefined, files: string[]): string[] {
  if (name === undefined || name.startsWith("-")) return files;
  const stem = (f: string) => f.replace(/\.(js|ts)$/, "");
  const matched = files.filter((f) => stem(f) === name || stem(f).startsWith(`${name}-`));
  return matched.length > 0 ? matched : files;
}

/** Imports the command modules a run needs and returns their `register` functions. */
export async function loadRegisters(files: string[]): Promise<Register[]> {
  const registers: Register[] = [];
  for (const file of files) {
    const mod = (await import(new URL(file, commandsDir).href)) as { register?: Register };
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
  const program = buildProgram(ctx, await loadRegisters(filesFor(argv[0], commandFiles())));
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
