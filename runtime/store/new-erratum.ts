/**
 * Builds a complete erratum from the few fields a door knows, filling the rest with their
 * empty values (null, [], {}), status "new" and a fresh id. It does not validate: `append`
 * does.
 *
 * Example: `newErratum({ nowMs: Date.parse("2026-11-30T12:00:00Z"), complaint: "wrong file",
 * reporter: { id: "rp-0123456789abcdef", role: "owner" } })` -> `{ schema: "erratum/1",
 * id: "er-20261130-…", ts: "2026-11-30T12:00:00.000Z", system: "assistant", target: "instance",
 * source: "owner", channel: "terminal", kind: "complaint", rating: null, …, status: "new", links: {} }`
 */
import { hostname } from "node:os";
import type { Erratum, ErratumContext, Links, Reporter } from "../../schemas/erratum.js";
import { nodeCrypto } from "../../core/node-crypto.js";
import { isoTime, newErratumId } from "./ids.js";

export interface NewErratumInput {
  nowMs: number;
  complaint: string;
  reporter: Reporter;
  /** Capture time if not now (backfill, imports); the id's date follows it. */
  ts?: string;
  id?: string;
  system?: string;
  instance?: string;
  target?: Erratum["target"];
  source?: Erratum["source"];
  channel?: string;
  kind?: Erratum["kind"];
  rating?: number | null;
  frustration?: number | null;
  context?: Partial<ErratumContext>;
  links?: Links;
  random?: (n: number) => Uint8Array;
}

/** "i-" + 12 hex of the hostname's SHA-256: which install, without naming the machine. */
export function instanceId(host: string = hostname()): string {
  return `i-${nodeCrypto().createHash("sha256").update(host).digest("hex").slice(0, 12)}`;
}

export function emptyContext(): ErratumContext {
  return {
    requested: null,
    doing: null,
    response_preview: null,
    response_hash: null,
    session_id: null,
    output_ids: [],
    component: null,
    cwd: null,
    version: null,
    model: null,
  };
}

export function newErratum(input: NewErratumInput): Erratum {
  const ts = input.ts ?? isoTime(input.nowMs);
  const tsMs = Date.parse(ts);
  return {
    schema: "erratum/1",
    id: input.id ?? newErratumId(Number.isNaN(tsMs) ? input.nowMs : tsMs, input.random),
    ts,
    system: input.system ?? "assistant",
    instance: input.instance ?? instanceId(),
    target: input.target ?? "instance",
    source: input.source ?? "owner",
    channel: input.channel ?? "terminal",
    kind: input.kind ?? "complaint",
    rating: input.rating ?? null,
    frustration: (input.frustration ?? null) as Erratum["frustration"],
    complaint: input.complaint,
    context: { ...emptyContext(), ...input.context },
    reporter: input.reporter,
    enrichment: null,
    status: "new",
    links: input.links ?? {},
  };
}
