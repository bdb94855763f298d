/**
 * The developers' known values on the server (issue 34): a developer's bare secrets (their
 * environment's and `.env` files' values) are known only on their machine, and an app's
 * erratum or an http hook's prompt can carry one here. `errata secrets push` sends the strong
 * ones as salted hashes (runtime/privacy/known-push.ts); this file keeps them and scrubs every
 * request with them before any route reads it.
 *
 * - `PUT /v1/known-values`: the token's developer's push (schemas/known-values.ts), checked
 *   whole, replacing their last one (a row per push on the Postgres store, the last read; else
 *   `<dir>/known/<tenant>/<label>.json`, 0600, written whole by atomic rename). A body that is
 *   not one is a 400 naming what was expected and found, and nothing is stored.
 * - `GET /v1/known-values`: how many values the developer's last push holds, and when (no hash).
 * - every other POST, PUT and PATCH body of a tenant is scrubbed with all its developers'
 *   pushes (held in memory for KNOWN_CACHE_MS between reads) (an app's token carries no values of its own: its tenant's developers' are what it
 *   can leak), in a preHandler, so the intake, the http hooks and the ladder's pushed files
 *   read it scrubbed, and what they write passes the redactor as before.
 *
 * Example: after `PUT /v1/known-values` with ana's push, `POST /v1/hooks/user-prompt-submit`
 * with `{"prompt": "the staging one is Zq8vT2bLpR7sWk3mQ9xD"}` is captured as
 * `the staging one is [REDACTED:known-secret]`.
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { FastifyInstance } from "fastify";
import { KnownPushSchema, type KnownPush } from "../../schemas/known-values.js";
import { writeFileAtomic } from "../files/index.js";
import { scrubWithStores, type KnownStore } from "../privacy/index.js";
import type { ErrataStore } from "../stores/index.js";
import { principalOf } from "./auth.js";

export const KNOWN_VALUES_ROUTE = "/v1/known-values";

function tenantFolder(dir: string, tenant: string): string {
  return join(dir, "known", tenant);
}

/** Stores a developer's push: a row on a store that keeps them, else their file in the server's folder. */
export async function putKnownValues(store: ErrataStore, dir: string, tenant: string, developer: string, push: KnownPush, nowIso: string): Promise<void> {
  if (store.putKnownValues) return store.putKnownValues(tenant, developer, push, nowIso);
  const folder = tenantFolder(dir, tenant);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(folder, `${developer}.json`), `${JSON.stringify({ pushed: nowIso, ...push })}\n`, { mode: 0o600 });
}

/** Every developer's last push of a tenant (a file that no longer parses is left out: it scrubs nothing, as a bad local store). */
export async function knownValuesOf(store: ErrataStore, dir: string, tenant: string): Promise<Array<{ developer: string; push: KnownPush; pushed: string }>> {
  if (store.knownValues) return store.knownValues(tenant);
  const folder = tenantFolder(dir, tenant);
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith(".json"));
  } catch {
    return []; // no developer of the tenant pushed yet
  }
  const out: Array<{ developer: string; push: KnownPush; pushed: string }> = [];
  for (const name of names) {
    try {
      const { pushed, ...rest } = JSON.parse(readFileSync(join(folder, name), "utf8")) as Record<string, unknown>;
      const p = KnownPushSchema.safeParse(rest);
      if (p.success && typeof pushed === "string") out.push({ developer: name.slice(0, -".json".length), push: p.data, pushed });
    } catch {
      // unreadable or half-written by another tool: skipped
    }
  }
  return out;
}

function asStore(p: KnownPush): KnownStore {
  return { version: 1, salt: p.salt, fp_bits: p.fp_bits, entries: p.entries };
}

const EXPECTED = `{"version": 1, "salt": 32-128 hex digits, "fp_bits": 1-8, "entries": [{"n", "fp", "h"}, ...]} as \`errata secrets push\` sends it (docs/intake.md)`;

/**
 * How long a tenant's pushes are kept in memory between reads. A push to this server is seen
 * at once (it empties the tenant's entry); one to another server on the same database within
 * this long. Why a cache: on Postgres a read is a transaction of its own, five round trips on
 * every hook call.
 */
export const KNOWN_CACHE_MS = 5_000;

export function installKnownValues(app: FastifyInstance, store: ErrataStore, dir: string, now: () => number): void {
  const cache = new Map<string, { atMs: number; stores: KnownStore[] }>();
  const storesOf = async (tenant: string): Promise<KnownStore[]> => {
    const hit = cache.get(tenant);
    if (hit !== undefined && now() - hit.atMs < KNOWN_CACHE_MS && now() >= hit.atMs) return hit.stores;
    const stores = (await knownValuesOf(store, dir, tenant)).map((k) => asStore(k.push));
    cache.set(tenant, { atMs: now(), stores });
    return stores;
  };
  app.put(KNOWN_VALUES_ROUTE, async (req, reply) => {
    const p = principalOf(req);
    const parsed = KnownPushSchema.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const found = issue === undefined ? "nothing usable" : `${issue.path.join(".") || "the body"}: ${issue.message}`;
      return reply.code(400).send({ error: "bad-known-values", stored: 0, expected: EXPECTED, found });
    }
    await putKnownValues(store, dir, p.tenant, p.label, parsed.data, new Date(now()).toISOString());
    cache.delete(p.tenant);
    return { developer: p.label, stored: parsed.data.entries.length };
  });
  app.get(KNOWN_VALUES_ROUTE, async (req) => {
    const p = principalOf(req);
    const mine = (await knownValuesOf(store, dir, p.tenant)).find((k) => k.developer === p.label);
    return { developer: p.label, values: mine?.push.entries.length ?? 0, pushed: mine?.pushed ?? null };
  });
  // Before any route reads a body: the tenant's pushed values out of every string in it.
  app.addHook("preHandler", async (req) => {
    if (req.method !== "POST" && req.method !== "PUT" && req.method !== "PATCH") return;
    if (req.principal === null || req.body === undefined || req.body === null || typeof req.body !== "object") return;
    if ((req.url.split("?")[0] ?? "") === KNOWN_VALUES_ROUTE) return;
    const stores = await storesOf(req.principal.tenant);
    if (stores.length === 0) return;
    req.body = scrubWithStores(req.body, stores).value;
  });
}
