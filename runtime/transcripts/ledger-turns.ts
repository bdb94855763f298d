import type { ErrataPaths } from "../paths.js";
import { CapturedIndex, type LedgerTurn } from "./captured.js";

/** The parts of an erratum that `captured` reads (see schemas/erratum.ts, owned by the ledger). */
interface ErratumLike {
  ts?: unknown;
  complaint?: unknown;
  context?: { session_id?: unknown } | null;
}

/** Turns errata into the matcher's input; errata with no session id cannot capture a turn. */
export function ledgerTurns(errata: Iterable<ErratumLike>): LedgerTurn[] {
  const out: LedgerTurn[] = [];
  for (const e of errata) {
    const session = e.context && typeof e.context.session_id === "string" ? e.context.session_id : null;
    if (session === null) continue;
    const ts = typeof e.ts === "string" ? Date.parse(e.ts) : NaN;
    out.push({ sessionId: session, text: typeof e.complaint === "string" ? e.complaint : "", tsMs: Number.isNaN(ts) ? null : ts });
  }
  return out;
}

/**
 * Reads the ledger through the store (`openLedger(paths).readAll()`) and indexes its turns.
 * Returns null, with the reason, when the store is not available or cannot be read: the
 * exchanges are still written, with `captured: false`.
 */
export async function loadCapturedIndex(paths: ErrataPaths): Promise<{ index: CapturedIndex | null; warning: string | null }> {
  // A computed specifier: the store is another module's room, loaded only when present.
  const spec = new URL("../store/index.js", import.meta.url).href;
  let mod: { openLedger?: (p: ErrataPaths) => { readAll: () => unknown } };
  try {
    mod = (await import(spec)) as typeof mod;
  } catch {
    return { index: null, warning: "ledger store not available; captured is false for every exchange" };
  }
  if (typeof mod.openLedger !== "function") return { index: null, warning: "ledger store has no openLedger; captured is false" };
  try {
    const all = await mod.openLedger(paths).readAll();
    const errata = extractErrata(all);
    return { index: new CapturedIndex(ledgerTurns(errata)), warning: null };
  } catch (err) {
    return { index: null, warning: `ledger not readable (${(err as Error).message}); captured is false` };
  }
}

function extractErrata(all: unknown): ErratumLike[] {
  if (Array.isArray(all)) return all as ErratumLike[];
  if (all !== null && typeof all === "object") {
    for (const key of ["errata", "entries", "records", "items"]) {
      const v = (all as Record<string, unknown>)[key];
      if (Array.isArray(v)) return v as ErratumLike[];
    }
  }
  return [];
}
