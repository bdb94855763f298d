/**
 * `errata serve`'s server: Fastify over one store. Routes: `/openapi.json` (public), the
 * intake contract (`POST`/`GET /v1/errata`), the four Claude Code http hooks
 * (`POST /v1/hooks/<event>`), the team's most-broken rules, the developers' pushed known
 * values (`PUT /v1/known-values`, with which every request body is scrubbed first), and the pages (Pulse at
 * `GET /v1/pages/pulse`, the labelling page at `GET /v1/pages/label`), all behind a tenant
 * token (auth.ts: a bearer header, or for the pages the session cookie `POST /v1/login` sets),
 * rate-limited per tenant. Bad input answers 4xx with `expected` and
 * `found` and writes nothing; only a fault of the server itself is a 5xx.
 *
 * Example: `const app = await buildServer({ store, dir: "./srv" }); await app.listen({ port: 8787, host: "127.0.0.1" })`.
 */
import { join } from "node:path";
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from "fastify";
import rateLimit from "@fastify/rate-limit";
import { CodedError } from "../../core/errors.js";
import { INTAKE_VERSION } from "../../schemas/intake.js";
import { loadSystems } from "../config.js";
import { loadOrCreateReporterKey } from "../privacy/index.js";
import type { ErrataStore } from "../stores/index.js";
import { installAuth, principalOf, Sessions } from "./auth.js";
import { installLabelling, type LabellingOptions } from "./labelling.js";
import { installKnownValues } from "./known.js";
import { installLogin } from "./login.js";
import { deleteHookInput, developerErrataPage, parseRuleLines, pushRuleLines, putHookInput, readHookLog } from "./developer.js";
import { answerHook, HOOK_EVENTS, type HookRoute } from "./hooks.js";
import { buildErrata, IDEMPOTENCY_KEY } from "./intake.js";
import { openApiDocument } from "./openapi.js";
import { pulsePage } from "./pages.js";
import { teamMostBroken } from "./team.js";

export { answerHook, developerDir, HOOK_EVENTS } from "./hooks.js";
export { developerLadderDir, HOOK_INPUTS, HOOK_LOGS } from "./developer.js";
export { buildErrata } from "./intake.js";
export { KNOWN_CACHE_MS, KNOWN_VALUES_ROUTE, knownValuesOf } from "./known.js";
export { openApiDocument } from "./openapi.js";
export { joinTeam, teamMostBroken, type TeamRule, type TeamView } from "./team.js";

export interface ServerOptions {
  store: ErrataStore;
  /** The server's folder: the reporter key, errata-systems.json, the developers' hook ledgers. */
  dir: string;
  /** Largest request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Requests a tenant may make a minute (default 6,000). */
  ratePerMinute?: number;
  /** A pino logger configuration or instance; default off. */
  logger?: boolean | { level: string; stream?: NodeJS.WritableStream } | FastifyBaseLogger;
  now?: () => number;
  version?: string;
  /** A labelling server to front at /v1/pages/label (labelling.ts); absent: that page answers 404. */
  labelling?: LabellingOptions;
}

const MAX_LIMIT = 500;

function toStatus(err: FastifyError | CodedError | Error): { status: number; body: Record<string, unknown> } {
  const code = (err as FastifyError).code;
  if (code === "FST_ERR_CTP_BODY_TOO_LARGE") return { status: 413, body: { error: "body-too-large", expected: "a body under the server's --body-limit", found: "a larger body" } };
  if (code === "FST_ERR_CTP_INVALID_MEDIA_TYPE") return { status: 415, body: { error: "unsupported-media-type", expected: "Content-Type: application/json", found: "another content type" } };
  if (code === "FST_ERR_CTP_EMPTY_JSON_BODY") return { status: 400, body: { error: "bad-request", expected: "a JSON body", found: "an empty body" } };
  if (code === "FST_ERR_CTP_INVALID_JSON_BODY" || err instanceof SyntaxError) return { status: 400, body: { error: "malformed-json", expected: "one JSON value", found: err.message } };
  if (err instanceof CodedError && err.kind !== "internal" && err.kind !== "io") {
    return { status: err.kind === "not_found" ? 404 : 400, body: { error: err.code, expected: err.expected ?? "input the contract accepts", found: err.found ?? err.message } };
  }
  const status = (err as FastifyError).statusCode;
  if (typeof status === "number" && status >= 400 && status < 500) return { status, body: { error: code ?? "bad-request", expected: "a request the contract accepts (docs/intake.md)", found: err.message } };
  return { status: 500, body: { error: "internal", expected: "a working server", found: "an internal fault (logged)" } };
}

/** `after` and `limit` of a page query, or what was wrong with them. */
function pageQuery(query: unknown): { after: number; limit: number } | { found: string } {
  const q = (query ?? {}) as Record<string, unknown>;
  const int = (name: string, dflt: number, min: number, max: number): number | string => {
    const v = q[name];
    if (v === undefined) return dflt;
    if (typeof v !== "string" || !/^\d{1,15}$/.test(v) || Number(v) < min || Number(v) > max) return `${name}=${JSON.stringify(v)}`;
    return Number(v);
  };
  const after = int("after", 0, 0, Number.MAX_SAFE_INTEGER);
  const limit = int("limit", 100, 1, MAX_LIMIT);
  if (typeof after === "string" || typeof limit === "string") return { found: [after, limit].filter((x) => typeof x === "string").join(", ") };
  return { after, limit };
}

export async function buildServer(opts: ServerOptions): Promise<FastifyInstance> {
  const now = opts.now ?? (() => Date.now());
  const app = Fastify({
    bodyLimit: opts.bodyLimit ?? 1024 * 1024,
    // The default request serialiser logs method and URL, never headers: a token is not logged.
    ...(opts.logger !== undefined && typeof opts.logger === "object" && "child" in opts.logger ? { loggerInstance: opts.logger } : { logger: opts.logger ?? false }),
    return503OnClosing: true,
  });
  // Made on the first erratum, so a server that never took one has written nothing.
  let key: Buffer | null = null;
  const reporterKey = (): Buffer => (key ??= loadOrCreateReporterKey(join(opts.dir, ".state")));
  const systems = loadSystems(opts.dir);
  const store = opts.store;

  app.setErrorHandler((err, req, reply) => {
    const { status, body } = toStatus(err as Error);
    if (status >= 500) req.log.error({ err }, "internal fault");
    void reply.code(status).send(body);
  });
  app.setNotFoundHandler((req, reply) => {
    void reply.code(404).send({ error: "not-found", expected: "a route of /openapi.json", found: `${req.method} ${req.url.split("?")[0]}` });
  });

  const sessions = new Sessions(now);
  installAuth(app, store, sessions);
  await app.register(rateLimit, {
    hook: "preHandler",
    max: opts.ratePerMinute ?? 6000,
    timeWindow: 60_000,
    keyGenerator: (req) => req.principal?.tenant ?? req.ip,
    errorResponseBuilder: (_req, ctx) => ({ statusCode: ctx.statusCode, error: "rate-limited", expected: `at most ${ctx.max} requests a minute for this tenant`, found: `more; retry after ${ctx.after}` }),
  });

  // Built and serialised once: the document is generated from the zod schemas (about 2 ms of
  // CPU) and its 24 KB of JSON took ~1 ms more a call to serialise; the route is public.
  let doc: string | null = null;
  app.get("/openapi.json", async (_req, reply) => reply.type("application/json; charset=utf-8").send((doc ??= JSON.stringify(openApiDocument(opts.version ?? "dev")))));
  installLogin(app, store, sessions);
  installLabelling(app, opts.labelling ?? null);
  // The developers' pushed known values, and every request body scrubbed with them (known.ts).
  installKnownValues(app, store, opts.dir, now);

  app.post("/v1/errata", async (req, reply) => {
    const p = principalOf(req);
    const key = req.headers["idempotency-key"];
    if (key !== undefined && (typeof key !== "string" || !IDEMPOTENCY_KEY.test(key))) {
      return reply.code(400).send({ error: "bad-idempotency-key", expected: "Idempotency-Key: 1-200 visible ASCII characters", found: JSON.stringify(String(key).slice(0, 40)) });
    }
    const built = buildErrata(req.body, { tenant: p.tenant, reporterKey: reporterKey(), systems, nowMs: now() });
    if ("refused" in built) return reply.code(400).send({ error: "refused", written: 0, ...built.refused });
    const batch = typeof req.body === "object" && req.body !== null && Object.hasOwn(req.body, "errata");
    const results = [];
    for (const [i, e] of built.errata.entries()) {
      results.push(await store.append(p.tenant, e, key === undefined ? null : batch ? `${key}#${i}` : key));
    }
    return reply.code(results.some((r) => r.created) ? 201 : 200).send({ version: INTAKE_VERSION, errata: results });
  });

  app.get("/v1/errata", async (req, reply) => {
    const p = principalOf(req);
    const q = pageQuery(req.query);
    if ("found" in q) return reply.code(400).send({ error: "bad-query", expected: `after an integer >= 0 and limit an integer 1-${MAX_LIMIT}`, found: q.found });
    const page = await store.list(p.tenant, q.after, q.limit);
    return { version: INTAKE_VERSION, errata: page.items, next: page.next };
  });

  // The developer's own folder (developer.ts): what the http hooks captured and logged for
  // them, pulled by `errata sync --hooks`; the checks their ladder approved, pushed back.
  app.get("/v1/hooks/errata", async (req, reply) => {
    const p = principalOf(req);
    const q = pageQuery(req.query);
    if ("found" in q) return reply.code(400).send({ error: "bad-query", expected: `after an integer >= 0 and limit an integer 1-${MAX_LIMIT}`, found: q.found });
    const page = developerErrataPage(opts.dir, p.tenant, p.label, q.after, q.limit);
    return { version: INTAKE_VERSION, errata: page.items, next: page.next };
  });
  app.get("/v1/hooks/ladder/:file", async (req, reply) => {
    const p = principalOf(req);
    const after = (req.query as Record<string, unknown>)["after"] ?? "0";
    if (typeof after !== "string" || !/^\d{1,15}$/.test(after)) return reply.code(400).send({ error: "bad-query", expected: "after a byte offset (an integer >= 0)", found: JSON.stringify(after) });
    const r = readHookLog(opts.dir, p.tenant, p.label, (req.params as { file: string }).file, Number(after));
    return { lines: r.lines, next: r.next, size: r.size };
  });
  app.put("/v1/hooks/ladder/:file", async (req) => {
    const p = principalOf(req);
    return putHookInput(opts.dir, p.tenant, p.label, (req.params as { file: string }).file, JSON.stringify(req.body, null, 2));
  });
  app.delete("/v1/hooks/ladder/:file", async (req) => {
    const p = principalOf(req);
    const file = (req.params as { file: string }).file;
    return { file, removed: deleteHookInput(opts.dir, p.tenant, p.label, file) };
  });
  app.post("/v1/team/rule-lines", async (req) => {
    const p = principalOf(req);
    const lines = parseRuleLines(req.body);
    const r = await pushRuleLines(store, opts.dir, p.tenant, p.label, lines);
    return { developer: p.label, written: r.written, already_here: r.present };
  });

  for (const route of Object.keys(HOOK_EVENTS) as HookRoute[]) {
    app.post(`/v1/hooks/${route}`, async (req, reply) => {
      const p = principalOf(req);
      if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
        return reply.code(400).send({ error: "bad-hook-input", expected: `the ${HOOK_EVENTS[route]} hook's JSON object`, found: Array.isArray(req.body) ? "an array" : typeof req.body });
      }
      const { answer, stderr } = await answerHook(route, req.body as Record<string, unknown>, { dir: opts.dir, tenant: p.tenant, label: p.label, nowMs: now });
      if (stderr !== "") req.log.warn({ hook: route, tenant: p.tenant }, stderr.trim().slice(0, 500));
      return answer;
    });
  }

  app.get("/v1/pages/pulse", async (req, reply) => {
    const p = principalOf(req);
    const html = await pulsePage(store, opts.dir, p.tenant, now(), join(opts.dir, "v4", p.tenant));
    return reply.type("text/html; charset=utf-8").send(html);
  });

  app.get("/v1/team/rules", async (req, reply) => {
    const p = principalOf(req);
    const top = (req.query as Record<string, unknown>)["top"] ?? "20";
    if (typeof top !== "string" || !/^\d{1,4}$/.test(top) || Number(top) < 1) return reply.code(400).send({ error: "bad-query", expected: "top an integer 1-9999", found: JSON.stringify(top) });
    return teamMostBroken(store, opts.dir, p.tenant, Number(top));
  });

  return app;
}
