import type { Command } from "commander";
import damerauLevenshtein from "damerau-levenshtein";
import { CodedError, withDetail } from "../../core/errors.js";

/**
 * The word on a command line that names no command, as an error to exit 2 on: `errata frobnicate`,
 * `errata eval nosuch`. Commander answers `--help` before it looks at the command word, so
 * `errata serve --help` printed the program's help and exited 0 before `serve` existed; this
 * check runs before commander parses, so a mistyped command fails the same way with or
 * without `--help`, naming the word and the commands that do exist.
 *
 * The walk follows the words after `errata` down the groups (commands that have
 * subcommands): a word that names a subcommand (or an alias, or commander's `help`) goes one
 * level down; a flag the group takes without a value is stepped over; any other flag, or a
 * group that takes arguments of its own, ends the walk (commander judges the rest).
 *
 * Example: `unknownCommand(program, ["eval", "sampel", "--help"])` -> a CodedError, code
 * USAGE_UNKNOWN_COMMAND: "unknown command 'sampel' for `errata eval`; did you mean `sample`?
 * (expected one of: brief, predictions, sample, label, agreement, score, help; found 'sampel')".
 */
export function unknownCommand(program: Command, argv: readonly string[]): CodedError | null {
  let cmd = program;
  const path = ["errata"];
  for (const word of argv) {
    if (cmd.commands.length === 0 || takesArguments(cmd)) return null;
    if (word.startsWith("-")) {
      if (isHelpFlag(cmd, word) || isSwitch(cmd, word)) continue;
      return null;
    }
    const visible = cmd.createHelp().visibleCommands(cmd);
    const sub = visible.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub === undefined) {
      const names = visible.map((c) => c.name());
      const near = nearest(word, names);
      const where = path.join(" ");
      return new CodedError("input", "USAGE_UNKNOWN_COMMAND", withDetail(`unknown command '${word}' for \`${where}\`${near.length > 0 ? `; did you mean ${near.map((n) => `\`${n}\``).join(" or ")}?` : ""}`, `one of: ${names.join(", ")}`, `'${word}'`), {
        expected: `one of: ${names.join(", ")}`,
        found: `'${word}'`,
      });
    }
    // `errata help nosuch` is commander's to answer.
    if (!cmd.commands.includes(sub)) return null;
    cmd = sub;
    path.push(word);
  }
  return null;
}

/** The command's own operands: a group that also runs as a command takes words that are not subcommands. */
function takesArguments(cmd: Command): boolean {
  return cmd.registeredArguments.length > 0 || (cmd as unknown as { _actionHandler: unknown })._actionHandler != null;
}

function isHelpFlag(cmd: Command, word: string): boolean {
  const help = cmd.createHelp().visibleOptions(cmd).find((o) => o.long === "--help");
  return word === "--help" || word === "-h" || (help !== undefined && (word === help.long || word === help.short));
}

/** A flag of the command that takes no value (`--quiet`), so the next word is not its value. */
function isSwitch(cmd: Command, word: string): boolean {
  const o = cmd.options.find((x) => x.long === word || x.short === word);
  return o !== undefined && !o.required && !o.optional;
}

/**
 * The names nearest to a mistyped word, by the rule commander's own suggestions follow (it does
 * not export them): the fewest edits (a swap of two neighbouring letters is one), under 3, and
 * more than 40% of the longer word left unchanged; ties are all given.
 */
function nearest(word: string, names: readonly string[]): string[] {
  const scored = names
    .filter((n) => n.length > 1)
    .map((n) => ({ n, d: damerauLevenshtein(word, n).steps }))
    .filter((x) => x.d < 3 && (Math.max(word.length, x.n.length) - x.d) / Math.max(word.length, x.n.length) > 0.4);
  const best = Math.min(...scored.map((x) => x.d));
  return scored.filter((x) => x.d === best).map((x) => x.n);
}
