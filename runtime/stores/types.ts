/**
 * One interface over the two stores of errata a server keeps: the JSONL ledger (one folder per
 * tenant, the embedded default: `jsonl.ts`) and PostgreSQL (a team or an app deployment:
 * `postgres.ts`). Both take a whole, validated erratum; both redact its text at write with the
 * ledger's own redactor; both keep patches apart and fold them on at read; both number what
 * they received in one sequence per store, which is the cursor `errata sync` resumes from.
 *
 * Example: `await store.append("acme", erratum, "key-1")` -> `{ id: "er-20261130-3fa9c1",
 * seq: 1, created: true }`; the same call again -> `{ ..., created: false }`.
 */
import type { Erratum, PatchSet } from "../../schemas/erratum.js";
import type { KnownPush } from "../../schemas/known-values.js";
import type { RuleLedgerLine } from "../../schemas/rule-ledger.js";

/** A tenant's token as listed: never the token, only its id and whose it is. */
export interface TokenRecord {
  token_id: string;
  tenant: string;
  /** Who holds it: an app's name, or a developer's (the http hooks keep one ledger per label). */
  label: string;
  created: string;
  revoked: string | null;
}

export interface Principal {
  tenant: string;
  token_id: string;
  label: string;
}

export interface AppendResult {
  id: string;
  seq: number;
  /** False when the idempotency key had already written this erratum. */
  created: boolean;
}

export interface StoredErratum {
  seq: number;
  erratum: Erratum;
  /** The last patch's time, or the erratum's own. */
  updated: string;
}

export interface Page {
  items: StoredErratum[];
  /** The cursor to ask with next, or null when this page reached the end. */
  next: number | null;
}

export interface ErrataStore {
  readonly kind: "jsonl" | "postgres";
  addToken(tenant: string, label: string, nowIso: string, dryRun?: boolean): Promise<{ token: string; record: TokenRecord }>;
  listTokens(): Promise<TokenRecord[]>;
  /** Revokes a token by its id, or every live token of a tenant; returns what it revoked. */
  revoke(tokenIdOrTenant: string, nowIso: string, dryRun?: boolean): Promise<TokenRecord[]>;
  /** The principal of a live token, or null (unknown or revoked): read on every call, so a revocation holds at once. */
  authenticate(token: string): Promise<Principal | null>;
  /**
   * Appends a validated erratum (its id may be redrawn when taken). With a key, a second call
   * with the same key writes nothing and answers the first erratum's id.
   */
  append(tenant: string, erratum: Erratum, key: string | null): Promise<AppendResult>;
  patch(tenant: string, id: string, set: PatchSet, ts: string): Promise<void>;
  /** Errata received after `after` (a sequence number), oldest first, at most `limit`. */
  list(tenant: string, after: number, limit: number): Promise<Page>;
  count(tenant: string): Promise<number>;
  /**
   * A developer's rule-ledger lines (docs/ladder.md), appended once each (a line already held
   * for that developer, by its content, is not written again), in file order. Only the
   * Postgres store keeps them: the JSONL server keeps each developer's ladder folder as files.
   */
  appendRuleLines?(tenant: string, developer: string, lines: readonly RuleLedgerLine[]): Promise<{ written: number; present: number }>;
  /** Every developer's rule-ledger lines of a tenant, each developer's in the order appended; rows that no longer parse are counted. */
  ruleLines?(tenant: string): Promise<{ byDeveloper: Map<string, RuleLedgerLine[]>; problems: number }>;
  /**
   * A developer's known values as pushed (`errata secrets push`, schemas/known-values.ts),
   * appended as one row per push; the last push of each developer is the one read. Only the
   * Postgres store keeps them: the JSONL server keeps one file per developer (runtime/server/known.ts).
   */
  putKnownValues?(tenant: string, developer: string, push: KnownPush, nowIso: string): Promise<void>;
  /** Every developer's last push of a tenant; rows that no longer parse are left out. */
  knownValues?(tenant: string): Promise<Array<{ developer: string; push: KnownPush; pushed: string }>>;
  close(): Promise<void>;
}

export const TENANT_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;
export const LABEL_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;
