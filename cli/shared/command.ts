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
