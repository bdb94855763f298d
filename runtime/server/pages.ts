/**
 * The Pulse page for a tenant, behind the same token: the report stage's state computed over
 * the tenant's errata (every page of the store), rendered by runtime/pages. Ids and counts
 * only, as the page promises. The server keeps no daily-run receipts, so the page's
 * missing-run line says what it says for a ledger no daily job runs on.
 */
import { DailyConfigSchema } from "../../schemas/daily.js";
import type { Erratum } from "../../schemas/erratum.js";
import { computeReport, readHost } from "../jobs/index.js";
import { gatherPulse, renderPulse } from "../pages/index.js";
import type { ErrataStore } from "../stores/index.js";

export async function allErrata(store: ErrataStore, tenant: string): Promise<Erratum[]> {
  const out: Erratum[] = [];
  let after = 0;
  for (;;) {
    const page = await store.list(tenant, after, 1000);
    for (const i of page.items) out.push(i.erratum);
    if (page.next === null) return out;
    after = page.next;
  }
}

export async function pulsePage(store: ErrataStore, tenant: string, nowMs: number, v4Dir: string): Promise<string> {
  const errata = await allErrata(store, tenant);
  const cfg = DailyConfigSchema.parse({});
  const host = readHost(null);
  const { state } = computeReport({
    errata, ledgerWarnings: 0, receipts: [], upgrades: [], host, previous: null, nowMs,
    windowDays: 7, stuckHours: cfg.stuck_hours, pipelineKinds: cfg.enrich.kinds, impactDays: 14,
  });
  return renderPulse(gatherPulse({ errata, state, host, v4Dir, promotedFile: `${v4Dir}/promoted.json`, warn: () => undefined }));
}
