/**
 * Bearer tenant tokens: every route but `/openapi.json` needs `Authorization: Bearer <token>`
 * naming a live token (a revoked one is refused on its next request: the store is asked each
 * time). The principal (tenant, token id, label) rides on the request. A token is never
 * logged: the logger's request serialiser prints method and URL only.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrataStore, Principal } from "../stores/index.js";

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const PUBLIC_ROUTES = new Set(["/openapi.json"]);

export function installAuth(app: FastifyInstance, store: ErrataStore): void {
  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split("?")[0] ?? "";
    if (PUBLIC_ROUTES.has(path)) return;
    const header = req.headers.authorization;
    const m = typeof header === "string" ? /^Bearer ([\x21-\x7e]{1,512})$/.exec(header) : null;
    const found = header === undefined ? "no Authorization header" : m === null ? "an Authorization header that is not 'Bearer <token>'" : "a token that is unknown or revoked";
    const principal = m ? await store.authenticate(m[1]!) : null;
    if (principal === null) {
      await reply.code(401).header("www-authenticate", 'Bearer realm="errata"').send({ error: "unauthorized", expected: "Authorization: Bearer <a live tenant token> (errata tenants add)", found });
      return reply;
    }
    req.principal = principal;
  });
}

/** The principal of an authenticated request (the hook above ran). */
export function principalOf(req: FastifyRequest): Principal {
  if (req.principal === null) throw new Error("route reached without a principal");
  return req.principal;
}
