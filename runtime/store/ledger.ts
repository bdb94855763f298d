/**
 * The ledger: append-only monthly JSONL with patch lines folded on at read time.
 *
 * `append` validates (schema and rules), redacts secrets, refuses an id already used, then
 * writes one line with one O_APPEND write and one record-stream row. `patch` checks the
 * erratum exists and the lifecycle allows the status change, then appends a patch line to
 * the month of its own time; a patch that sets a status or an enrichment writes a record
 * row. Bad input throws `ErrataError` (BAD_INPUT / NOT_FOUND) and writes nothing.
 *
 * Example:
 * ```ts
 * const ledger = openLedger(resolvePaths(process.env, process.cwd()));
 * const { erratum } = ledger.append(newErratum({ complaint: "it pushed to main", ... }));
 * ledger.patch(erratum.id, { status: "enriched", enrichment });
 * ledger.readAll().errata[0].erratum.status; // "enriched"
 * ```
 */
import { join } from "node:path";
import { ErrataError, badInput } from "../../core/errors.js";
import { loadSystems } from "../config.js";
import type { ErrataPaths } from "../paths.js";
import { redactNullable } from "../privacy/index.js";
import { ErratumSchema, PatchSchema, type Enrichment, type Erratum, type Patch, type PatchSet } from "../../schemas/erratum.js";
import { appendLine } from "./append-line.js";
import { applySet, foldLines, parseLine, patchRefusal, type FoldedErratum, type ParsedLine } from "./fold.js";
import { monthFileName, monthOf } from "./ids.js";
import { appendErratumRaw, redactErratum } from "./raw-append.js";
import { listMonths, readMonthText, visitMonth, type ReadProblem } from "./read-files.js";
import { recordRowFor, writeRecordRow } from "./record.js";
import { checkErratumRules, checkPatchRules, issuesToProblems } from "./rules.js";

export interface LedgerOptions {
  now?: () => number;
  /** One line for stderr (record faults, etc.). Default: process.stderr. */
  warn?: (line: string) => void;
  /** fsync each append before returning (survives power loss). Default false. */
  fsync?: boolean;
  /** Allowed systems; default read from `errata-systems.json` in the ledger folder. */
  systems?: ReadonlySet<string>;
}

/**
 * An append refused because the id is already in the ledger. Still bad input (exit 2), but a
 * type of its own so a writer that drew the id itself (the mine) can tell it from other
 * refusals: skip the turn when the ledger's erratum is the same one, else draw again.
 */
export class IdTakenError extends ErrataError {
  readonly id: string;
  constructor(id: string) {
    super("BAD_INPUT", "erratum id already in the ledger", { expected: "a new id", found: id });
    this.name = "IdTakenError";
    this.id = id;
  }
}

export interface AppendOptions {
  dryRun?: boolean;
  /**
   * The ids of the caller's own read of the whole ledger (the daily run's one read), checked
   * instead of reading the month's file again for its ids; ids this ledger object wrote are
   * checked too. Without it the month's file is read once per month for its ids.
   */
  takenIds?: { has(id: string): boolean };
}

export interface LedgerRead {
  /** Folded errata in reading order (oldest month first, file order). */
  errata: FoldedErratum[];
  problems: ReadProblem[];
}

export interface AppendOutcome {
  erratum: Erratum;
  file: string;
  redacted: string[];
  recorded: boolean;
  written: boolean;
}

export interface PatchOutcome {
  patch: Patch;
  erratum: Erratum;
  file: string;
  recorded: boolean;
  written: boolean;
}

export interface Ledger {
  readonly paths: ErrataPaths;
  readonly systems: ReadonlySet<string>;
  append(e: Erratum, opts?: AppendOptions): AppendOutcome;
  patch(id: string, set: PatchSet, opts?: { dryRun?: boolean; ts?: string }): PatchOutcome;
  readAll(): LedgerRead;
  get(id: string): FoldedErratum | null;
}

export function openLedger(paths: ErrataPaths, opts: LedgerOptions = {}): Ledger {
  const now = opts.now ?? (() => Date.now());
  const warn = opts.warn ?? ((line: string) => void process.stderr.write(`${line}\n`));
  // Read lazily: reading the ledger never needs the systems config, writing does.
  let systemsCache: ReadonlySet<string> | undefined = opts.systems;
  const systems = (): ReadonlySet<string> => (systemsCache ??= loadSystems(paths.ledgerDir));
  const idsByMonth = new Map<string, Set<string>>();
  const wroteIds = new Set<string>();

  const monthIds = (month: string): Set<string> => {
    let ids = idsByMonth.get(month);
    if (!ids) {
      ids = new Set();
      const files = listMonths(paths.ledgerDir).find((m) => m.month === month);
      if (files) {
        const problems: ReadProblem[] = [];
        for (const l of readMonthText(files).lines) {
          const p = parseLine(l, problems);
          if (p?.kind === "erratum") ids.add(p.value.id);
        }
      }
      idsByMonth.set(month, ids);
    }
    return ids;
  };

  const readAll = (): LedgerRead => {
    // Month by month, so a month's text is dropped once parsed.
    const problems: ReadProblem[] = [];
    const parsed: ParsedLine[] = [];
    for (const m of listMonths(paths.ledgerDir)) {
      const fileProblems = visitMonth(m, (l) => {
        const p = parseLine(l, problems);
        if (p) parsed.push(p);
      });
      for (const p of fileProblems) problems.push(p);
    }
    const folded = foldLines(parsed, problems);
    return { errata: [...folded.values()], problems };
  };

  return {
    paths,
    get systems() {
      return systems();
    },
    readAll,
    get(id) {
      return readAll().errata.find((f) => f.erratum.id === id) ?? null;
    },
    append(input, aopts = {}) {
      const parsed = ErratumSchema.safeParse(input);
      if (!parsed.success) throw refused("erratum", issuesToProblems(parsed.error.issues, input));
      const ruleProblems = checkErratumRules(parsed.data, systems());
      if (ruleProblems.length > 0) throw refused("erratum", ruleProblems);
      const e = parsed.data;
      const month = monthOf(e.ts);
      const taken = aopts.takenIds ? aopts.takenIds.has(e.id) || wroteIds.has(e.id) : monthIds(month).has(e.id);
      if (taken) throw new IdTakenError(e.id);
      const file = join(paths.ledgerDir, monthFileName(month));
      if (aopts.dryRun) {
        const r = redactErratum(e);
        return { erratum: r.erratum, file, redacted: r.redacted, recorded: false, written: false };
      }
      const res = appendErratumRaw(paths, e, warn, { fsync: opts.fsync ?? false, nowIso: new Date(now()).toISOString() });
      wroteIds.add(e.id);
      idsByMonth.get(month)?.add(e.id);
      return { erratum: res.line, file: res.file, redacted: res.redacted, recorded: res.recorded, written: true };
    },
    patch(id, set, popts = {}) {
      const ts = popts.ts ?? new Date(now()).toISOString();
      const candidate = { schema: "erratum-patch/1", id, ts, set };
      const checked = PatchSchema.safeParse(candidate);
      if (!checked.success) throw refused("patch", issuesToProblems(checked.error.issues, candidate));
      const parsed = { data: { ...checked.data, set: redactSet(checked.data.set) } };
      const ruleProblems = checkPatchRules(parsed.data.set, systems());
      if (ruleProblems.length > 0) throw refused("patch", ruleProblems);
      const current = readAll().errata.find((f) => f.erratum.id === id);
      if (!current) throw new ErrataError("NOT_FOUND", `no erratum with id ${id}`, { expected: "an id listed by `errata list`", found: id });
      const refusal = patchRefusal(current.erratum, parsed.data.set);
      if (refusal) throw badInput(refusal);
      const after = applySet(current.erratum, parsed.data.set);
      const file = join(paths.ledgerDir, monthFileName(monthOf(ts)));
      if (popts.dryRun) return { patch: parsed.data, erratum: after, file, recorded: false, written: false };
      appendLine(file, JSON.stringify(parsed.data), { fsync: opts.fsync ?? false });
      let recorded = false;
      if (set.status !== undefined || set.enrichment !== undefined) {
        recorded = writeRecordRow(paths.stateDir, recordRowFor("patch", after, ts), warn);
      }
      return { patch: parsed.data, erratum: after, file, recorded, written: true };
    },
  };
}

function refused(what: string, problems: Array<{ code: string; message: string }>): ErrataError {
  const list = problems.map((p) => `${p.code}: ${p.message}`).join("; ");
  return new ErrataError("BAD_INPUT", `${what} refused, nothing written: ${list}`);
}

/** Enrichment prose is redacted too: a model may quote a secret back. */
function redactSet(set: PatchSet): PatchSet {
  if (!set.enrichment) return set;
  const kinds: string[] = [];
  const e: Enrichment = set.enrichment;
  const r = (s: string): string => redactNullable(s, kinds) ?? s;
  return {
    ...set,
    enrichment: {
      ...e,
      which_part: r(e.which_part),
      what_upset: r(e.what_upset),
      reporter_right_reason: r(e.reporter_right_reason),
      root_cause_hypothesis: r(e.root_cause_hypothesis),
      proposed_fix: r(e.proposed_fix),
    },
  };
}
