import type { Command } from "commander";
import type { Io } from "./io.js";

/**
 * A command module in `cli/commands/` exports `register`, which adds its one command to the
 * parent it is given: the program for a top-level command, the group for a subcommand. A
 * group's `index.ts` creates the group and passes it to each subcommand's `register`.
 * Actions are async and throw `ErrataError` for bad input; they set `ctx.exitCode` to 1 when
 * a check fails.
 */
export interface CommandContext {
  io: Io;
  exitCode: number;
}

export type Register = (program: Command, ctx: CommandContext) => void;

/**
 * What a command module exports. A group's `index.ts` also exports `subcommands`, a table from
 * each subcommand's name to the import of its module, and its `register` takes the loaded
 * subcommands' registers as a third argument (cli/shared/subcommands.ts loads them).
 */
export interface CommandModule {
  register?: (program: Command, ctx: CommandContext, subs: readonly Register[]) => void;
  subcommands?: Subcommands;
}

/** A group's subcommands by name, in the order help lists them; each loads its module when called. */
export type Subcommands = Record<string, () => Promise<CommandModule>>;
