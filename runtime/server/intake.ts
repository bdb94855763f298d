/**
 * The intake contract's write side: a body (one erratum or `{"errata": [...]}` of 1-100)
 * checked whole against `schemas/intake.ts` and then each built erratum against the ledger's
 * own schema and rules (a machine source with a rating, an enrichment no model wrote, an
 * unknown system), before anything is written. The reporter's id becomes a keyed-hash
 * pseudonym here: the e-mail or user id an app sends is never stored.
 *
 * Example: `buildErrata({complaint: "wrong total", reporter: {id: "ana@example.com"}}, ctx)`
 * -> `{ errata: [{ schema: "erratum/1", instance: "acme", source: "customer", reporter: {id: "rp-…", role: "customer"}, … }] }`.
 */
import type { z } from "zod";
import { ErratumSchema, type Erratum, type ErratumContext } from "../../schemas/erratum.js";
import { IntakeBatchSchema, IntakeErratumSchema, MAX_BATCH, type IntakeErratum } from "../../schemas/intake.js";
import { pseudonymize } from "../privacy/index.js";
import { checkErratumRules, issuesToProblems, newErratum } from "../store/index.js";

export interface Problem {
  /** The batch item (0-based), or null for the body as a whole. */
  item: number | null;
  code: string;
  message: string;
}

export interface Refusal {
  expected: string;
  found: string;
  problems: Problem[];
}

export interface BuildContext {
  tenant: string;
  reporterKey: Buffer;
  systems: ReadonlySet<string>;
  nowMs: number;
}

const EXPECTED = `an erratum object of the intake contract, or {"errata": [1 to ${MAX_BATCH} of them]} (docs/intake.md)`;

function refusal(problems: Problem[]): Refusal {
  const first = problems[0];
  return { expected: EXPECTED, found: first ? `${first.item === null ? "" : `item ${first.item}: `}${first.code}: ${first.message}` : "nothing usable", problems };
}

function zodProblems(issues: readonly z.core.$ZodIssue[], body: unknown, batch: boolean): Problem[] {
  return issues.map((issue) => {
    const path = issue.path;
    // A batch item's issue is named as the item's own (so "rating" is still rating-off-scale).
    if (batch && path[0] === "errata" && typeof path[1] === "number") {
      const item = path[1];
      const value = (body as { errata: unknown[] }).errata[item];
      const [p] = issuesToProblems([{ ...issue, path: path.slice(2) }], value);
      return { item, code: p!.code, message: p!.message };
    }
    const [p] = issuesToProblems([issue], body);
    return { item: batch ? null : 0, code: p!.code, message: p!.message };
  });
}

export function buildErrata(body: unknown, ctx: BuildContext): { errata: Erratum[] } | { refused: Refusal } {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { refused: { expected: EXPECTED, found: body === null || body === undefined ? "no body" : Array.isArray(body) ? "an array" : typeof body, problems: [] } };
  }
  const batch = Object.hasOwn(body, "errata");
  let items: IntakeErratum[];
  if (batch) {
    const parsed = IntakeBatchSchema.safeParse(body);
    if (!parsed.success) return { refused: refusal(zodProblems(parsed.error.issues, body, true)) };
    items = parsed.data.errata;
  } else {
    const parsed = IntakeErratumSchema.safeParse(body);
    if (!parsed.success) return { refused: refusal(zodProblems(parsed.error.issues, body, false)) };
    items = [parsed.data];
  }
  const out: Erratum[] = [];
  const problems: Problem[] = [];
  items.forEach((it, item) => {
    const source = it.source ?? "customer";
    const e: Erratum = {
      ...newErratum({
        nowMs: ctx.nowMs,
        complaint: it.complaint,
        reporter: { id: pseudonymize(it.reporter.id, ctx.reporterKey), role: it.reporter.role ?? source },
        instance: ctx.tenant,
        source,
        channel: it.channel ?? "api",
        ...(it.ts !== undefined ? { ts: it.ts } : {}),
        ...(it.system !== undefined ? { system: it.system } : {}),
        ...(it.target !== undefined ? { target: it.target } : {}),
        ...(it.kind !== undefined ? { kind: it.kind } : {}),
        ...(it.rating !== undefined ? { rating: it.rating } : {}),
        ...(it.frustration !== undefined ? { frustration: it.frustration } : {}),
        ...(it.context !== undefined ? { context: definedOnly(it.context) } : {}),
        ...(it.links !== undefined ? { links: it.links } : {}),
      }),
    };
    if (it.enrichment) {
      e.enrichment = it.enrichment;
      e.status = "enriched";
    }
    const checked = ErratumSchema.safeParse(e);
    if (!checked.success) {
      for (const p of issuesToProblems(checked.error.issues, e)) problems.push({ item, ...p });
      return;
    }
    for (const p of checkErratumRules(checked.data, ctx.systems)) problems.push({ item, ...p });
    out.push(checked.data);
  });
  return problems.length > 0 ? { refused: refusal(problems) } : { errata: out };
}

function definedOnly(c: Record<string, unknown>): Partial<ErratumContext> {
  return Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) as Partial<ErratumContext>;
}

/** An Idempotency-Key header's value: 1-200 visible ASCII characters. */
export const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,200}$/;
