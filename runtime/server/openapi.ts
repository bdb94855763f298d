/**
 * `/openapi.json`: the intake contract as an OpenAPI 3.1 document, its schemas generated from
 * the zod schemas the server validates with (so the document cannot drift from the check).
 * Public: it says what to send, and nothing about any tenant.
 */
import { z } from "zod";
import { ErratumSchema } from "../../schemas/erratum.js";
import { INTAKE_VERSION, IntakeBatchSchema, IntakeErratumSchema, MAX_BATCH } from "../../schemas/intake.js";
import { HOOK_EVENTS } from "./hooks.js";

const json = (schema: z.ZodType) => z.toJSONSchema(schema, { target: "draft-2020-12", unrepresentable: "any" });

export function openApiDocument(version: string): Record<string, unknown> {
  const error = { description: "refused, nothing written", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
  const auth = [{ bearer: [] }];
  const pageAuth = [{ bearer: [] }, { session: [] }];
  const hookPaths = Object.fromEntries(
    Object.entries(HOOK_EVENTS).map(([route, name]) => [
      `/v1/hooks/${route}`,
      {
        post: {
          summary: `Claude Code ${name} as an http hook (the same hook as errata hook ${route})`,
          security: auth,
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", description: `the ${name} hook JSON Claude Code posts` } } } },
          responses: { "200": { description: "the hook's answer, as a command hook's JSON stdout", content: { "application/json": { schema: { type: "object" } } } }, "401": error, "400": error },
        },
      },
    ]),
  );
  return {
    openapi: "3.1.0",
    info: { title: "Errata intake", version: INTAKE_VERSION, description: `The intake contract (docs/intake.md). Server ${version}.` },
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "a tenant token from `errata tenants add`" },
        session: { type: "apiKey", in: "cookie", name: "errata_session", description: "the pages only: the HttpOnly cookie POST /v1/login sets" },
      },
      schemas: {
        IntakeErratum: json(IntakeErratumSchema),
        IntakeBatch: json(IntakeBatchSchema),
        Erratum: json(ErratumSchema),
        Error: {
          type: "object",
          required: ["error", "expected", "found"],
          properties: { error: { type: "string" }, expected: { type: "string" }, found: { type: "string" }, problems: { type: "array", items: { type: "object", properties: { item: { type: ["integer", "null"] }, code: { type: "string" }, message: { type: "string" } } } } },
        },
      },
    },
    paths: {
      "/v1/errata": {
        post: {
          summary: `Report one erratum or a batch of 1-${MAX_BATCH}`,
          security: auth,
          parameters: [{ name: "Idempotency-Key", in: "header", required: false, schema: { type: "string", pattern: "^[\\x21-\\x7e]{1,200}$" }, description: "a retried post with the same key writes once (a batch's item i is keyed key#i)" }],
          requestBody: { required: true, content: { "application/json": { schema: { oneOf: [{ $ref: "#/components/schemas/IntakeErratum" }, { $ref: "#/components/schemas/IntakeBatch" }] } } } },
          responses: {
            "201": { description: "written (or, for a retried key, already written)", content: { "application/json": { schema: { type: "object", properties: { version: { type: "string" }, errata: { type: "array", items: { type: "object", properties: { id: { type: "string" }, seq: { type: "integer" }, created: { type: "boolean" } } } } } } } } },
            "400": error, "401": error, "413": error, "415": error, "429": error,
          },
        },
        get: {
          summary: "The tenant's errata in the order received (the read side errata sync pulls)",
          security: auth,
          parameters: [
            { name: "after", in: "query", schema: { type: "integer", minimum: 0 }, description: "a cursor: the `next` of the previous page (0 or absent: from the start)" },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500 } },
          ],
          responses: { "200": { description: "a page", content: { "application/json": { schema: { type: "object", properties: { version: { type: "string" }, errata: { type: "array", items: { type: "object", properties: { seq: { type: "integer" }, updated: { type: "string" }, erratum: { $ref: "#/components/schemas/Erratum" } } } }, next: { type: ["integer", "null"] } } } } } }, "400": error, "401": error },
        },
      },
      ...hookPaths,
      "/v1/hooks/errata": {
        get: {
          summary: "What the http prompt hook captured for the token's developer, in the ledger's order, patches folded on (errata sync --hooks pulls it)",
          security: auth,
          parameters: [
            { name: "after", in: "query", schema: { type: "integer", minimum: 0 }, description: "a cursor: the `next` of the previous page" },
            { name: "limit", in: "query", schema: { type: "integer", minimum: 1, maximum: 500 } },
          ],
          responses: { "200": { description: "a page, as GET /v1/errata's" }, "400": error, "401": error },
        },
      },
      "/v1/hooks/ladder/{file}": {
        get: {
          summary: "Whole lines the http hooks appended to one of the developer's ladder logs (tool-events.jsonl, instructions-loaded.jsonl, sorted.jsonl) after a byte offset",
          security: auth,
          parameters: [{ name: "file", in: "path", required: true, schema: { type: "string", enum: ["tool-events.jsonl", "instructions-loaded.jsonl", "sorted.jsonl"] } }, { name: "after", in: "query", schema: { type: "integer", minimum: 0 } }],
          responses: { "200": { description: "{lines, next, size}", content: { "application/json": { schema: { type: "object", properties: { lines: { type: "array", items: { type: "string" } }, next: { type: "integer" }, size: { type: "integer" } } } } } }, "400": error, "401": error, "404": error },
        },
        put: {
          summary: "The developer's checks.json or line-holdouts.json for the http hooks to read (checked by the hooks' own parser, written whole)",
          security: auth,
          parameters: [{ name: "file", in: "path", required: true, schema: { type: "string", enum: ["checks.json", "line-holdouts.json"] } }],
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", description: "the file, as the ladder writes it (docs/ladder.md)" } } } },
          responses: { "200": { description: "{file, entries}" }, "400": error, "401": error, "404": error },
        },
        delete: {
          summary: "Remove the developer's checks.json or line-holdouts.json when their ladder no longer has it (an undone approval)",
          security: auth,
          parameters: [{ name: "file", in: "path", required: true, schema: { type: "string", enum: ["checks.json", "line-holdouts.json"] } }],
          responses: { "200": { description: "{file, removed}" }, "401": error, "404": error },
        },
      },
      "/v1/team/rule-lines": {
        post: {
          summary: "The token's developer's rule-ledger lines, held once each by content, for the team's most-broken rules",
          security: auth,
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["lines"], properties: { lines: { type: "array", maxItems: 5000, items: { type: "object", description: "a rule, incident, mention or patch line (docs/ladder.md)" } } } } } } },
          responses: { "200": { description: "{developer, written, already_here}" }, "400": error, "401": error },
        },
      },
      "/v1/known-values": {
        put: {
          summary: "The token's developer's known values as salted hashes (errata secrets push: strong values only, 8 fingerprint bits or fewer), replacing their last push; every later request body of the tenant is scrubbed with them before anything reads it",
          security: auth,
          requestBody: { required: true, content: { "application/json": { schema: { type: "object", required: ["version", "salt", "fp_bits", "entries"], properties: { version: { const: 1 }, salt: { type: "string", pattern: "^[0-9a-f]{32,128}$" }, fp_bits: { type: "integer", minimum: 1, maximum: 8 }, entries: { type: "array", maxItems: 2000, items: { type: "object", required: ["n", "fp", "h"], properties: { n: { type: "integer", minimum: 8, maximum: 4096 }, fp: { type: "integer", minimum: 0 }, h: { type: "string", pattern: "^[0-9a-f]{64}$" } } } } } } } } },
          responses: { "200": { description: "{developer, stored}" }, "400": error, "401": error },
        },
        get: { summary: "How many values the token's developer's last push holds, and when (no hash)", security: auth, responses: { "200": { description: "{developer, values, pushed}" }, "401": error } },
      },
      "/v1/team/rules": { get: { summary: "The team's most-broken rules across its developers' ladders (ids and counts, each incident's developer and project)", security: auth, parameters: [{ name: "top", in: "query", schema: { type: "integer", minimum: 1 } }], responses: { "200": { description: "rules" }, "400": error, "401": error } } },
      "/v1/pages/pulse": { get: { summary: "The Pulse page over the tenant's errata (HTML)", security: pageAuth, responses: { "200": { description: "HTML" }, "401": error } } },
      "/v1/pages/label": { get: { summary: "The labelling page of the labeller the token's label names (HTML; its calls go to /api/sheet, /api/change, /api/export.csv under the same auth)", security: pageAuth, responses: { "200": { description: "HTML" }, "401": error, "403": error, "404": error } } },
      "/api/sheet": { get: { summary: "The labelling page's call: the labeller's items, questions and saved answers (passed to the labelling server)", security: pageAuth, responses: { "200": { description: "JSON" }, "401": error, "403": error, "404": error } } },
      "/api/change": { post: { summary: "The labelling page's call: one answer, skip or clear, saved before the reply (passed to the labelling server)", security: pageAuth, responses: { "200": { description: "JSON" }, "400": error, "401": error, "403": error, "404": error, "413": error } } },
      "/api/export.csv": { get: { summary: "The labelling page's call: the labeller's filled sheet as CSV (passed to the labelling server)", security: pageAuth, responses: { "200": { description: "CSV" }, "401": error, "403": error, "404": error } } },
      "/api/adjudication": { get: { summary: "The adjudication view's call: the items to decide for the adjudicator the token's label names (passed to the labelling server)", security: pageAuth, responses: { "200": { description: "JSON" }, "401": error, "403": error, "404": error } } },
      "/api/decide": { post: { summary: "The adjudication view's call: one decision (passed to the labelling server)", security: pageAuth, responses: { "200": { description: "JSON" }, "400": error, "401": error, "403": error, "404": error, "413": error } } },
      "/v1/login": {
        get: { summary: "The login form (public)", responses: { "200": { description: "HTML" } } },
        post: {
          summary: "Check a tenant token and set the HttpOnly session cookie the pages accept (form post: 303 to next; JSON: 200)",
          requestBody: { required: true, content: { "application/x-www-form-urlencoded": { schema: { type: "object", properties: { token: { type: "string" }, next: { type: "string" } } } }, "application/json": { schema: { type: "object", properties: { token: { type: "string" }, next: { type: "string", pattern: "^/v1/pages/[a-z-]{1,40}$" } } } } } },
          responses: { "200": { description: "logged in" }, "303": { description: "logged in, to next" }, "400": error, "401": error },
        },
      },
      "/v1/logout": { post: { summary: "End the browser session", security: pageAuth, responses: { "303": { description: "to /v1/login" }, "401": error } } },
    },
  };
}
