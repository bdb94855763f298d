import type { Counts } from "../../../schemas/daily.js";
import type { Erratum, PatchSet } from "../../../schemas/erratum.js";
import type { ResolvedDailyConfig } from "./config.js";
import type { DailyFiles } from "./files.js";

/**
 * What every stage of the daily loop is given. Stages never read the clock, the
 * environment or the process themselves: `nowMs` and the paths come in here, so tests and
 * the benchmark drive them exactly.
 */
export interface LedgerView {
  errata: Erratum[];
  /** Lines skipped while reading (torn tail, malformed middle lines). */
  warnings: number;
  /** Whole files (or an archive's end) that could not be read: the run is degraded. */
  damaged?: DamagedFile[];
}

/** A file a reader could not read, named with what it should have been and what it was. */
export interface DamagedFile {
  file: string;
  expected: string;
  found: string;
}

export interface LedgerPort {
  readAll(): Promise<LedgerView>;
  patch(id: string, set: PatchSet): Promise<void>;
  /**
   * Appends a new erratum through the store (validation, redaction, record row); returns it as
   * written. `takenIds`: the ids of a whole read the caller holds, checked instead of the
   * store reading the month's file again. An id already taken throws the store's `IdTakenError`.
   */
  append(e: Erratum, takenIds?: { has(id: string): boolean }): Erratum;
  /** Waits for appends a store writes asynchronously (a server's store); absent: appends are written when they return. */
  flush?(): Promise<void>;
}

export interface StageContext {
  nowMs: () => number;
  dryRun: boolean;
  files: DailyFiles;
  cfg: ResolvedDailyConfig;
  ledger: LedgerPort;
  /** One line on stderr (progress and notes, never data on stdout). */
  log: (line: string) => void;
}

export interface StageOutput {
  counts: Counts;
  /** Short human notes for the stage's line ("v4 ran in shadow: nothing promoted"). */
  notes: string[];
  /** Files the stage wrote (or would write, on a dry run). */
  wrote: Record<string, string>;
}

export function stageOutput(counts: Counts, notes: string[] = [], wrote: Record<string, string> = {}): StageOutput {
  return { counts, notes, wrote };
}

/**
 * A ledger port that reads once and keeps the view, folding its own appends and patches onto
 * it, so the stages of one run read the ledger once. Another writer's lines in the meantime
 * are seen by the next run.
 *
 * Fault isolation: what a stage reads is what the ledger holds, never what another stage did
 * in memory. Each `readAll` hands out its own array, and every erratum in the view is frozen
 * (a stage that changed one in place would throw inside itself, failing only that stage); the
 * view changes only by a write the store accepted (a refused append or patch leaves it as it
 * was), which a fresh read would have seen too.
 */
export function cachedLedger(port: LedgerPort & { patchKnown?: (current: Erratum, set: PatchSet) => Promise<Erratum> }): LedgerPort {
  let view: LedgerView | null = null;
  let pos: Map<string, number> | null = null;
  return {
    ...(port.flush ? { flush: () => port.flush!() } : {}),
    async readAll() {
      if (view === null) {
        const read = await port.readAll();
        for (const e of read.errata) deepFreeze(e);
        view = read;
        pos = new Map(read.errata.map((e, i) => [e.id, i]));
      }
      return { ...view, errata: view.errata.slice() };
    },
    append(e, takenIds) {
      // The view's ids (every id of the one read, and those appended since) spare the store a
      // second read of each month's file; another writer's id since the read is the only one
      // not seen (24 random bits in a day's ids: see docs/daily.md).
      const ids = takenIds ?? (pos ? { has: (id: string) => (pos as Map<string, number>).has(id) } : undefined);
      const written = deepFreeze(port.append(e, ids));
      // Mining appends before anything reads; if the view is already held, keep it whole.
      if (view && pos) {
        pos.set(written.id, view.errata.length);
        view.errata.push(written);
      }
      return written;
    },
    async patch(id, set) {
      await port.flush?.();
      const i = pos?.get(id);
      const e = i === undefined ? undefined : view?.errata[i];
      if (i === undefined || !e || !view) {
        await port.patch(id, set);
        return;
      }
      if (port.patchKnown) {
        view.errata[i] = deepFreeze(await port.patchKnown(e, set));
        return;
      }
      await port.patch(id, set);
      const next: Erratum = { ...e };
      if (set.status !== undefined) next.status = set.status;
      if (set.enrichment !== undefined) next.enrichment = set.enrichment;
      if (set.links !== undefined) next.links = { ...e.links, ...set.links };
      if (set.kind !== undefined) next.kind = set.kind;
      if (set.system !== undefined) next.system = set.system;
      if (set.target !== undefined) next.target = set.target;
      if (set.frustration !== undefined) next.frustration = set.frustration;
      view.errata[i] = deepFreeze(next);
    },
  };
}

/** Freezes an erratum and the objects and arrays inside it (context, links, enrichment ...). */
function deepFreeze<T>(o: T): T {
  if (o !== null && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o);
    for (const v of Object.values(o as object)) deepFreeze(v);
  }
  return o;
}

/**
 * Patches one entry; a refusal (the store found the entry changed under us, an illegal
 * transition) is logged by id and counted by the caller, never fatal to the other entries.
 * Returns true when the patch was written.
 */
export async function patchOne(ctx: Pick<StageContext, "ledger" | "log">, stage: string, id: string, set: PatchSet): Promise<boolean> {
  try {
    await ctx.ledger.patch(id, set);
    return true;
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown };
    ctx.log(`${stage}: ${id}: patch refused (${typeof e.code === "string" ? e.code : "Error"}: ${String(e.message ?? err).slice(0, 160)})`);
    return false;
  }
}
