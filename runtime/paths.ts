import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Where Errata keeps things. The ledger folder is ERRATA_DIR (default
 * `~/.local/share/errata`). Run state (the record stream, cursors, daily state, attachments)
 * goes to, first match wins:
 *
 * 1. ERRATA_STATE_DIR, when set, for any ledger (the owner named it, so it is used even with
 *    ERRATA_DIR set);
 * 2. for the default ledger, `$XDG_STATE_HOME/errata` (default `~/.local/state/errata`);
 * 3. for any other ledger, `.state/` inside its own folder, so a run over a scratch ledger
 *    never rewrites the real run state unless ERRATA_STATE_DIR says so.
 *
 * The v4 folder is ERRATA_V4_DIR, else `v4/` inside the ledger. docs/ledger.md ("Paths")
 * states this precedence once.
 */
export interface ErrataPaths {
  ledgerDir: string;
  stateDir: string;
  v4Dir: string;
  /** Large attachments, outside the ledger. */
  attachmentsDir: string;
  /** True when this is the owner's default ledger (only it writes the live record stream). */
  isDefaultLedger: boolean;
}

export function defaultLedgerDir(env: Record<string, string | undefined>): string {
  const home = env["HOME"] ?? homedir();
  return join(env["XDG_DATA_HOME"] ?? join(home, ".local", "share"), "errata");
}

/** The ledger folder: ERRATA_DIR (relative to `cwd`), else the default (bin/errata-tool-hook.cjs is built with it). */
export function ledgerDirOf(env: Record<string, string | undefined>, cwd: string): string {
  return env["ERRATA_DIR"] ? resolve(cwd, env["ERRATA_DIR"]) : defaultLedgerDir(env);
}

export function resolvePaths(env: Record<string, string | undefined>, cwd: string): ErrataPaths {
  const ledgerDir = ledgerDirOf(env, cwd);
  const isDefaultLedger = resolve(ledgerDir) === resolve(defaultLedgerDir(env));
  const home = env["HOME"] ?? homedir();
  const stateDir = env["ERRATA_STATE_DIR"]
    ? resolve(cwd, env["ERRATA_STATE_DIR"])
    : isDefaultLedger
      ? join(env["XDG_STATE_HOME"] ?? join(home, ".local", "state"), "errata")
      : join(ledgerDir, ".state");
  const v4Dir = env["ERRATA_V4_DIR"] ? resolve(cwd, env["ERRATA_V4_DIR"]) : join(ledgerDir, "v4");
  return {
    ledgerDir,
    stateDir,
    v4Dir,
    attachmentsDir: join(stateDir, "attachments"),
    isDefaultLedger,
  };
}
