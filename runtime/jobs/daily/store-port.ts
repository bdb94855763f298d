import { ErrataError, badInput } from "../../../core/errors.js";
import { ErratumSchema, PatchSchema, type Erratum, type PatchSet } from "../../../schemas/erratum.js";
import type { ErrataPaths } from "../../paths.js";
import { loadSystems } from "../../config.js";
import { applySet, checkErratumRules, checkPatchRules, IdTakenError, issuesToProblems, patchRefusal, recordRowFor, redactErratum, writeRecordRow } from "../../store/index.js";
import type { ErrataStore } from "../../stores/index.js";
import { redactSet } from "./ledger-port.js";
import type { KnownPatchPort } from "./ledger-port.js";

/**
 * The daily loop's view of a server's store (`runtime/stores`: PostgreSQL, or the JSONL store
 * of a server folder) for one tenant, so `errata daily --database URL --tenant T` runs the
 * same stages over the team's errata as over a person's ledger. Reads page through
 * `store.list` (patches folded at read, by the store); a patch is one row through
 * `store.patch` after the same checks as the ledger's (schema, rules, redaction of enrichment
 * prose, lifecycle); the record stream stays in the local state folder, as the ledger's does.
 *
 * Mining appends synchronously (it catches an id collision at once, as the ledger throws it):
 * here the check against the run's ids, the schema and the redaction happen at once, and the
 * insert is queued with the idempotency key `daily:<id>`; `flush` waits for the queue and is
 * called by the mine stage's end and before any patch, so a stage never patches a row not yet
 * written, and a failed insert fails the stage that made it.
 *
 * Example: `(await storePort(store, "acme", { paths, now, warn }).readAll()).errata.length` -> 12.
 */
export interface StorePort extends KnownPatchPort {
  flush(): Promise<void>;
}

const PAGE = 500;

export function storePort(store: ErrataStore, tenant: string, opts: { paths: ErrataPaths; now: () => number; warn: (line: string) => void }): StorePort {
  let systemsCache: ReadonlySet<string> | undefined;
  const systems = (): ReadonlySet<string> => (systemsCache ??= loadSystems(opts.paths.ledgerDir));
  // Each queued insert settles to its error or null, so none is an unhandled rejection before flush reads it.
  const pending: Array<Promise<unknown>> = [];
  const wrote = new Set<string>();

  const flush = async (): Promise<void> => {
    const errors = (await Promise.all(pending.splice(0))).filter((e) => e !== null);
    if (errors.length > 0) throw errors[0];
  };

  const checkedPatch = (current: Erratum, set: PatchSet, ts: string): PatchSet => {
    const candidate = { schema: "erratum-patch/1", id: current.id, ts, set };
    const checked = PatchSchema.safeParse(candidate);
    if (!checked.success) throw new ErrataError("BAD_INPUT", `patch refused, nothing written: ${checked.error.issues[0]?.message ?? "invalid"}`);
    const clean = redactSet(checked.data.set);
    const problems = checkPatchRules(clean, systems());
    if (problems.length > 0) throw new ErrataError("BAD_INPUT", `patch refused, nothing written: ${problems.map((p) => p.message).join("; ")}`);
    const refusal = patchRefusal(current, clean);
    if (refusal) throw badInput(refusal);
    return clean;
  };

  const readAll = async () => {
    await flush();
    const errata: Erratum[] = [];
    let after = 0;
    for (;;) {
      const page = await store.list(tenant, after, PAGE);
      for (const i of page.items) errata.push(i.erratum);
      if (page.next === null) break;
      after = page.next;
    }
    return { errata, warnings: 0, damaged: [] };
  };

  const patchKnown = async (current: Erratum, set: PatchSet): Promise<Erratum> => {
    await flush();
    const ts = new Date(opts.now()).toISOString();
    const clean = checkedPatch(current, set, ts);
    await store.patch(tenant, current.id, clean, ts);
    const after = applySet(current, clean);
    if (set.status !== undefined || set.enrichment !== undefined) writeRecordRow(opts.paths.stateDir, recordRowFor("patch", after, ts), opts.warn);
    return after;
  };

  return {
    readAll,
    flush,
    patchKnown,
    async patch(id, set) {
      // Without the caller's view: read the erratum as it stands now (one page walk).
      const current = (await readAll()).errata.find((e) => e.id === id);
      if (!current) throw new ErrataError("NOT_FOUND", `no erratum with id ${id} for tenant ${tenant}`, { expected: "an id of this tenant's errata", found: id });
      await patchKnown(current, set);
    },
    append(input, takenIds) {
      const parsed = ErratumSchema.safeParse(input);
      if (!parsed.success) throw new ErrataError("BAD_INPUT", `erratum refused, nothing written: ${issuesToProblems(parsed.error.issues, input).map((p) => `${p.code}: ${p.message}`).join("; ")}`);
      const rules = checkErratumRules(parsed.data, systems());
      if (rules.length > 0) throw new ErrataError("BAD_INPUT", `erratum refused, nothing written: ${rules.map((p) => `${p.code}: ${p.message}`).join("; ")}`);
      const e = parsed.data;
      if (wrote.has(e.id) || takenIds?.has(e.id)) throw new IdTakenError(e.id);
      const clean = redactErratum(e).erratum;
      wrote.add(e.id);
      pending.push(
        store.append(tenant, clean, `daily:${e.id}`).then((r) => {
          // Another writer took the id between the run's read and this insert: the store drew a new one.
          if (r.id !== e.id) throw new ErrataError("IO", `erratum ${e.id} was written under ${r.id}: another writer took its id; the next run reads it`);
          writeRecordRow(opts.paths.stateDir, recordRowFor("append", clean, new Date(opts.now()).toISOString()), opts.warn);
          return null;
        }).catch((err: unknown) => err),
      );
      return clean;
    },
  };
}
