import type { ErrataPaths } from "../paths.js";
import { openLedger } from "../store/index.js";
import { CapturedIndex, type LedgerTurn } from "./captured.js";

/** The parts of an erratum that `captured` reads. */
interface ErratumLike {
  ts: string;
  complaint: string;
  context: { session_id: string | null };
}

/** Turns errata into the matcher's input; errata with no session id cannot capture a turn. */
export function ledgerTurns(errata: Iterable<ErratumLike>): LedgerTurn[] {
  const out: LedgerTurn[] = [];
  for (const e of errata) {
    const session = e.context.session_id;
    if (session === null) continue;
    const ts = Date.parse(e.ts);
    out.push({ sessionId: session, text: e.complaint, tsMs: Number.isNaN(ts) ? null : ts });
  }
  return out;
}

/**
 * Reads the ledger through the store (`openLedger(paths).readAll()`) and indexes its turns.
 * A ledger that cannot be read gives null and the reason: exchanges are still written, with
 * `captured: false`, and the command says so on stderr.
 */
export function loadCapturedIndex(paths: ErrataPaths, warn?: (line: string) => void): { index: CapturedIndex | null; warning: string | null } {
  try {
    const read = openLedger(paths, warn === undefined ? {} : { warn }).readAll();
    const warning = read.problems.length > 0 ? `${read.problems.length} ledger lines could not be read (see errata validate)` : null;
    return { index: new CapturedIndex(ledgerTurns(read.errata.map((f) => f.erratum))), warning };
  } catch (err) {
    return { index: null, warning: `ledger not readable (${(err as Error).message}); captured is false` };
  }
}
