/**
 * The erratum's closed vocabularies and the status lifecycle, zod-free so the hook path
 * (which must not load zod) can use them. `schemas/erratum.ts` builds the schemas from them.
 *
 * Example: `isLegalTransition("new", "enriched")` -> true; `isLegalTransition("new", "fixed")` -> false.
 */

export const ERRATUM_SCHEMA = "erratum/1" as const;
export const PATCH_SCHEMA = "erratum-patch/1" as const;
export const RECORD_SCHEMA = "record/1" as const;
export const ENRICHMENT_SCHEMA = "enrichment/1" as const;

/** Built-in systems; more come from `errata-systems.json` in the ledger folder. */
export const BUILTIN_SYSTEMS = ["assistant", "other"] as const;

export const SOURCES = ["owner", "team", "customer", "user", "hook", "agent", "job", "backfill", "detected"] as const;
export type Source = (typeof SOURCES)[number];

/** Sources a machine writes: they never carry a rating (a rating is a number a person gave). */
export const MACHINE_SOURCES = ["hook", "agent", "job", "backfill", "detected"] as const;

export const KINDS = ["complaint", "bug", "feature-request", "correction", "directive", "praise", "question", "incident"] as const;
export type Kind = (typeof KINDS)[number];

export const STATUSES = ["new", "enriched", "triaged", "upgrade-filed", "fixed", "wontfix", "duplicate"] as const;
export type Status = (typeof STATUSES)[number];

/** The rating scale: a number from 1 to 10 that the person typed. */
export const RATING_MIN = 1;
export const RATING_MAX = 10;

/** `er-YYYYMMDD-` + 6 lowercase hex. */
export const ERRATUM_ID_PATTERN = /^er-\d{8}-[0-9a-f]{6}$/;
/** A reporter pseudonym: `rp-` + 16 hex of a keyed hash. */
export const REPORTER_ID_PATTERN = /^rp-[0-9a-f]{16}$/;
export const SYSTEM_NAME_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The lifecycle: new -> enriched -> triaged | upgrade-filed -> fixed | wontfix | duplicate.
 * A triaged erratum may still be filed as an upgrade later. Setting the current status
 * again is a no-op and always allowed.
 */
export const NEXT_STATUSES: Readonly<Record<Status, readonly Status[]>> = {
  new: ["enriched"],
  enriched: ["triaged", "upgrade-filed"],
  triaged: ["upgrade-filed", "fixed", "wontfix", "duplicate"],
  "upgrade-filed": ["fixed", "wontfix", "duplicate"],
  fixed: [],
  wontfix: [],
  duplicate: [],
};

export function isLegalTransition(from: Status, to: Status): boolean {
  return from === to || NEXT_STATUSES[from].includes(to);
}

export function isMachineSource(source: string): boolean {
  return (MACHINE_SOURCES as readonly string[]).includes(source);
}
