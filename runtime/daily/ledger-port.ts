import type { ErrataPaths } from "../paths.js";
import { openLedger } from "../store/index.js";
import type { LedgerPort } from "./context.js";

/**
 * The daily loop's view of the store (helper A's `openLedger`): read every erratum folded
 * with its patches (torn and malformed lines are skipped by the store and counted here as
 * warnings), and patch through the store's validation, redaction and record stream.
 *
 * Example: `(await ledgerPort(paths, opts).readAll()).errata.length` -> 12.
 */
export function ledgerPort(paths: ErrataPaths, opts: { now: () => number; warn: (line: string) => void }): LedgerPort {
  const ledger = openLedger(paths, { now: opts.now, warn: opts.warn });
  return {
    async readAll() {
      const { errata, problems } = ledger.readAll();
      return { errata: errata.map((f) => f.erratum), warnings: problems.length };
    },
    async patch(id, set) {
      ledger.patch(id, set);
    },
  };
}
