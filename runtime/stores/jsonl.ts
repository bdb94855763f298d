/**
 * The JSONL store: one ledger per tenant (`<dir>/tenants/<tenant>/ledger/`, the same month
 * files, patches and redaction as `errata add`, through `openLedger`), a receipt log per
 * tenant (`intake.jsonl`: `{seq, id, key}` in the order errata arrived, the sync cursor and
 * the idempotency keys), and the tokens (`<dir>/tokens.jsonl`, hashes only; a revocation is
 * a line of its own). One server process writes a folder; every write is one whole-line
 * append, so a killed server leaves every acknowledged erratum readable once.
 *
 * Order within an idempotent append: the receipt line (with the id drawn) first, then the
 * erratum. A crash between the two leaves a receipt with no erratum; the retry with the same
 * key finds the receipt and writes the erratum under the recorded id, so nothing is written
 * twice and nothing acknowledged is lost.
 *
 * Example: `openJsonlStore("./srv").append("acme", e, "k1")` -> `{ id, seq: 1, created: true }`.
 */
import { existsSync, mkdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { ErrataError } from "../../core/errors.js";
import type { Erratum, PatchSet } from "../../schemas/erratum.js";
import type { ErrataPaths } from "../paths.js";
import { appendLine, IdTakenError, newErratumId, openLedger, type Ledger } from "../store/index.js";
import { hashToken, newToken } from "./tokens.js";
import type { AppendResult, ErrataStore, Page, Principal, StoredErratum, TokenRecord } from "./types.js";

interface Receipt {
  seq: number;
  id: string;
  key: string | null;
}

interface TenantState {
  ledger: Ledger;
  receiptsFile: string;
  receipts: Receipt[];
  byKey: Map<string, Receipt>;
  written: Set<string>;
  folded: Map<string, StoredErratum["erratum"] & object> | null;
  updated: Map<string, string>;
}

export function tenantPaths(dir: string, tenant: string): ErrataPaths {
  const ledgerDir = join(dir, "tenants", tenant, "ledger");
  const stateDir = join(ledgerDir, ".state");
  return { ledgerDir, stateDir, v4Dir: join(ledgerDir, "v4"), attachmentsDir: join(stateDir, "attachments"), isDefaultLedger: false };
}

export function openJsonlStore(dir: string, opts: { systems?: ReadonlySet<string>; fsync?: boolean } = {}): ErrataStore {
  const tokensFile = join(dir, "tokens.jsonl");
  const tenants = new Map<string, TenantState>();
  let tokenCache: { stamp: string; tokens: Map<string, TokenRecord & { hash: string }> } | null = null;

  const readTokens = (): Map<string, TokenRecord & { hash: string }> => {
    let stamp = "none";
    try {
      const st = statSync(tokensFile);
      stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
    } catch {
      /* no tokens yet */
    }
    if (tokenCache?.stamp === stamp) return tokenCache.tokens;
    const tokens = new Map<string, TokenRecord & { hash: string }>();
    const text = stamp === "none" ? "" : readFileSync(tokensFile, "utf8");
    for (const line of text.split("\n")) {
      if (line.trim() === "") continue;
      let v: { schema?: string; token_id?: string; tenant?: string; label?: string; hash?: string; created?: string; ts?: string };
      try {
        v = JSON.parse(line) as typeof v;
      } catch {
        continue; // a torn last line from a killed writer: never a whole token
      }
      if (v.schema === "tenant-token/1" && v.token_id && v.tenant && v.label && v.hash && v.created) {
        tokens.set(v.token_id, { token_id: v.token_id, tenant: v.tenant, label: v.label, hash: v.hash, created: v.created, revoked: null });
      } else if (v.schema === "tenant-revoke/1" && v.token_id && v.ts) {
        const t = tokens.get(v.token_id);
        if (t && t.revoked === null) t.revoked = v.ts;
      }
    }
    tokenCache = { stamp, tokens };
    return tokens;
  };

  const tenantState = (tenant: string): TenantState => {
    let s = tenants.get(tenant);
    if (s) return s;
    const paths = tenantPaths(dir, tenant);
    const receiptsFile = join(dir, "tenants", tenant, "intake.jsonl");
    const receipts: Receipt[] = [];
    const byKey = new Map<string, Receipt>();
    if (existsSync(receiptsFile)) {
      for (const line of readFileSync(receiptsFile, "utf8").split("\n")) {
        if (line.trim() === "") continue;
        try {
          const r = JSON.parse(line) as Receipt;
          receipts.push(r);
          if (r.key !== null) byKey.set(r.key, r);
        } catch {
          /* a torn last line: its erratum was never acknowledged */
        }
      }
    }
    const ledger = openLedger(paths, { ...(opts.systems ? { systems: opts.systems } : {}), fsync: opts.fsync ?? false, warn: () => undefined });
    const written = new Set(ledger.readAll().errata.map((f) => f.erratum.id));
    s = { ledger, receiptsFile, receipts, byKey, written, folded: null, updated: new Map() };
    tenants.set(tenant, s);
    return s;
  };

  const fold = (s: TenantState): Map<string, Erratum> => {
    if (s.folded === null) {
      s.folded = new Map();
      for (const f of s.ledger.readAll().errata) {
        s.folded.set(f.erratum.id, f.erratum);
        s.updated.set(f.erratum.id, f.updated);
      }
    }
    return s.folded;
  };

  // The folded view is kept up to date by the store's own writes (it is the only writer of
  // the tenant's ledger), so a read after a write does not read the whole ledger again.
  const writeErratum = (s: TenantState, e: Erratum): void => {
    const out = s.ledger.append(e, { takenIds: s.written });
    s.written.add(e.id);
    s.folded?.set(out.erratum.id, out.erratum);
    s.updated.set(out.erratum.id, out.erratum.ts);
  };

  return {
    kind: "jsonl",
    async addToken(tenant, label, nowIso, dryRun = false) {
      const t = newToken();
      const record: TokenRecord = { token_id: t.token_id, tenant, label, created: nowIso, revoked: null };
      if (!dryRun) {
        mkdirSync(dir, { recursive: true });
        appendLine(tokensFile, JSON.stringify({ schema: "tenant-token/1", ...record, revoked: undefined, hash: t.hash }), { fsync: true });
      }
      return { token: t.token, record };
    },
    async listTokens() {
      return [...readTokens().values()].map(({ hash: _h, ...r }) => r);
    },
    async revoke(what, nowIso, dryRun = false) {
      const hits = [...readTokens().values()].filter((t) => t.revoked === null && (t.token_id === what || t.tenant === what));
      if (!dryRun) for (const t of hits) appendLine(tokensFile, JSON.stringify({ schema: "tenant-revoke/1", token_id: t.token_id, ts: nowIso }), { fsync: true });
      return hits.map(({ hash: _h, ...r }) => ({ ...r, revoked: nowIso }));
    },
    async authenticate(token): Promise<Principal | null> {
      const h = hashToken(token);
      for (const t of readTokens().values()) if (t.hash === h && t.revoked === null) return { tenant: t.tenant, token_id: t.token_id, label: t.label };
      return null;
    },
    async append(tenant, erratum, key): Promise<AppendResult> {
      const s = tenantState(tenant);
      const seen = key === null ? undefined : s.byKey.get(key);
      if (seen) {
        if (s.written.has(seen.id)) return { id: seen.id, seq: seen.seq, created: false };
        writeErratum(s, { ...erratum, id: seen.id }); // the receipt was written, the erratum not: finish it
        return { id: seen.id, seq: seen.seq, created: true };
      }
      let e = erratum;
      for (let tries = 0; s.written.has(e.id); tries++) {
        if (tries > 50) throw new IdTakenError(e.id);
        e = { ...e, id: newErratumId(Date.parse(e.ts)) };
      }
      mkdirSync(join(dir, "tenants", tenant, "ledger"), { recursive: true });
      const receipt: Receipt = { seq: (s.receipts.at(-1)?.seq ?? 0) + 1, id: e.id, key };
      appendLine(s.receiptsFile, JSON.stringify(receipt), { fsync: opts.fsync ?? false });
      s.receipts.push(receipt);
      if (key !== null) s.byKey.set(key, receipt);
      writeErratum(s, e);
      return { id: e.id, seq: receipt.seq, created: true };
    },
    async patch(tenant, id, set: PatchSet, ts) {
      const s = tenantState(tenant);
      if (!s.written.has(id)) throw new ErrataError("NOT_FOUND", `no erratum with id ${id} for this tenant`, { expected: "an id this tenant posted", found: id });
      const out = s.ledger.patch(id, set, { ts });
      s.folded?.set(id, out.erratum);
      if (ts > (s.updated.get(id) ?? "")) s.updated.set(id, ts);
    },
    async list(tenant, after, limit): Promise<Page> {
      const s = tenantState(tenant);
      const folded = fold(s);
      const items: StoredErratum[] = [];
      let i = s.receipts.findIndex((r) => r.seq > after);
      if (i < 0) return { items, next: null };
      for (; i < s.receipts.length && items.length < limit; i++) {
        const r = s.receipts[i]!;
        const e = folded.get(r.id);
        if (e) items.push({ seq: r.seq, erratum: e, updated: s.updated.get(r.id) ?? e.ts });
      }
      const last = items.at(-1)?.seq ?? after;
      return { items, next: i < s.receipts.length ? last : null };
    },
    async count(tenant) {
      return fold(tenantState(tenant)).size;
    },
    async close() {
      tenants.clear();
    },
  };
}
