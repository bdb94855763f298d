import { homedir } from "node:os";
import { join, resolve } from "node:path";

/**
 * Where Errata keeps things. The ledger folder is ERRATA_DIR (default
 * `~/.local/share/errata`); the default ledger keeps run state in ERRATA_STATE_DIR
 * (default `~/.local/state/errata`), any other ledger in `.state/` inside its own folder,
 * so a run over a scratch ledger never rewrites the real run state.
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

export function resolvePaths(env: Record<string, string | undefined>, cwd: string): ErrataPaths {
  const defaultDir = defaultLedgerDir(env);
  const ledgerDir = env["ERRATA_DIR"] ? resolve(cwd, env["ERRATA_DIR"]) : defaultDir;
  const isDefaultLedger = resolve(ledgerDir) === resolve(defaultDir);
  const home = env["HOME"] ?? homedir();
  const stateDir = isDefaultLedger
    ? env["ERRATA_STATE_DIR"]
      ? resolve(cwd, env["ERRATA_STATE_DIR"])
      : join(env["XDG_STATE_HOME"] ?? join(home, ".local", "state"), "errata")
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
