import { join } from "node:path";
import { ErrataError, badInput } from "../../../core/errors.js";
import { PatchSchema, type Erratum, type PatchSet } from "../../../schemas/erratum.js";
import type { ErrataPaths } from "../../paths.js";
import { redactNullable } from "../../privacy/index.js";
import { openLedger } from "../../store/index.js";
import { appendLine } from "../../store/index.js";
import { applySet, patchRefusal } from "../../store/index.js";
import { monthFileName, monthOf } from "../../store/index.js";
import { recordRowFor, writeRecordRow } from "../../store/index.js";
import { checkPatchRules } from "../../store/index.js";
import { DAMAGE_CODES } from "../../store/index.js";
import type { LedgerPort } from "./context.js";

/**
 * The daily loop's view of the store (helper A's `openLedger`): read every erratum folded
 * with its patches (torn and malformed lines are skipped by the store and counted here as
 * warnings), and patch through the store's validation, redaction and record stream.
 *
 * `patchKnown` patches an erratum whose current state the caller already holds (the daily
 * run's one read of the ledger). The store's own `patch` re-reads the whole ledger to find
 * the erratum, which costs O(ledger) per patch: on a 100,000-entry ledger a run that
 * patches hundreds of entries would spend minutes re-reading. `patchKnown` runs the same
 * steps as the store's `patch` (schema, rules, redaction of enrichment prose, lifecycle,
 * one O_APPEND line in the month of its time, one record row) from the store's exported
 * pieces, without the re-read.
 *
 * Example: `(await ledgerPort(paths, opts).readAll()).errata.length` -> 12.
 */
export interface KnownPatchPort extends LedgerPort {
  patchKnown(current: Erratum, set: PatchSet): Promise<Erratum>;
}

export function ledgerPort(paths: ErrataPaths, opts: { now: () => number; warn: (line: string) => void }): KnownPatchPort {
  const ledger = openLedger(paths, { now: opts.now, warn: opts.warn });
  return {
    async readAll() {
      const { errata, problems } = ledger.readAll();
      const damaged = problems.filter((p) => DAMAGE_CODES.has(p.code)).map((p) => ({ file: p.file, expected: p.expected ?? "a readable file", found: p.found ?? p.message }));
      return { errata: errata.map((f) => f.erratum), warnings: problems.length, damaged };
    },
    async patch(id, set) {
      ledger.patch(id, set);
    },
    append(e, takenIds) {
      return ledger.append(e, takenIds ? { takenIds } : {}).erratum;
    },
    async patchKnown(current, set) {
      const ts = new Date(opts.now()).toISOString();
      const candidate = { schema: "erratum-patch/1", id: current.id, ts, set };
      const checked = PatchSchema.safeParse(candidate);
      if (!checked.success) throw new ErrataError("BAD_INPUT", `patch refused, nothing written: ${checked.error.issues[0]?.message ?? "invalid"}`);
      const patch = { ...checked.data, set: redactSet(checked.data.set) };
      const problems = checkPatchRules(patch.set, ledger.systems);
      if (problems.length > 0) throw new ErrataError("BAD_INPUT", `patch refused, nothing written: ${problems.map((p) => p.message).join("; ")}`);
      const refusal = patchRefusal(current, patch.set);
      if (refusal) throw badInput(refusal);
      const after = applySet(current, patch.set);
      appendLine(join(paths.ledgerDir, monthFileName(monthOf(ts))), JSON.stringify(patch));
      if (set.status !== undefined || set.enrichment !== undefined) writeRecordRow(paths.stateDir, recordRowFor("patch", after, ts), opts.warn);
      return after;
    },
  };
}

/** Enrichment prose is redacted too, as the store does: a model may quote a secret back. */
export function redactSet(set: PatchSet): PatchSet {
  if (!set.enrichment) return set;
  const kinds: string[] = [];
  const e = set.enrichment;
  const r = (s: string): string => redactNullable(s, kinds) ?? s;
  return {
    ...set,
    enrichment: { ...e, which_part: r(e.which_part), what_upset: r(e.what_upset), reporter_right_reason: r(e.reporter_right_reason), root_cause_hypothesis: r(e.root_cause_hypothesis), proposed_fix: r(e.proposed_fix) },
  };
}
