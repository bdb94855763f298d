/**
 * `errata secrets`: the owner's own secrets and the redactor's rule data (`learn`, `push`,
 * `rules import|status`, one file each in this folder).
 *
 * `errata secrets learn` remembers the owner's own secrets so that the redactor removes them
 * wherever they appear, whatever their shape (runtime/privacy/known-values.ts): the values of
 * the secret-looking environment variables, and of the `.env` files in the folders the ledger's
 * errata were captured in (and any `--project` given). Only salted hashes are written
 * (`<state>/known-secrets.json`, 0600); the values themselves never reach a file.
 *
 * `errata secrets push --to <url>` sends an errata server the strong ones as salted hashes (the
 * weak ones are named, not sent), so it redacts them from what apps and http hooks post there.
 *
 * `errata secrets rules import <betterleaks.toml> --release v1.7.0 [--samples fixtures.json]`:
 * converts betterleaks' rule file once into the state folder (runtime/privacy/import-rules-file.ts);
 * the redactor then runs its rules in place of gitleaks' of the same id. Run it again with a
 * newer file to refresh; `errata secrets rules status` shows what is imported. docs/privacy.md,
 * "betterleaks' rules at run time".
 *
 * Example: `errata secrets learn` -> `known secrets: 7 values (from the environment and 2 projects' .env files) as salted hashes in <state>/known-secrets.json`
 */
import type { Command } from "commander";
import type { CommandContext, Register, Subcommands } from "../../shared/command.js";
import { examples } from "../../shared/help.js";

/**
 * The subcommands, in the order help lists them. Each module is imported only when needed: just
 * the one a command line names, or all of them for help (cli/shared/subcommands.ts).
 */
export const subcommands: Subcommands = {
  learn: () => import("./learn.js"),
  push: () => import("./push.js"),
  rules: () => import("./rules/index.js"),
};

export function register(program: Command, ctx: CommandContext, subs: readonly Register[]): void {
  const group = program
    .command("secrets")
    .description("Remember the owner's own secrets (as salted hashes) so they are redacted whatever their shape")
    .addHelpText("after", examples(["errata secrets learn --dry-run", "errata secrets push --dry-run"]));
  for (const sub of subs) sub(group, ctx);
}
