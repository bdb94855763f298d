/**
 * Tenant tokens on every route but the public ones (`/openapi.json`, the login form). The API
 * takes `Authorization: Bearer <token>`; the pages (`/v1/pages/*` and the labelling page's own
 * `/api/*` calls) take the same header or, for a browser, the session cookie that
 * `POST /v1/login` sets after checking a token: `errata_session`, HttpOnly, SameSite=Strict,
 * Path=/, 12 hours, Secure behind https. The cookie holds a random session id, never the
 * token; the token stays in the server's memory and is checked against the store on every
 * request, so a revoked token is refused at once through its cookie too. A cookie never
 * opens the API routes, and a cookie-carried request that writes must come from the server's
 * own origin. The principal (tenant, token id, label) rides on the request. A token is never
 * logged: the logger's request serialiser prints method and URL only.
 */
import { randomBytes } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrataStore, Principal } from "../stores/index.js";

declare module "fastify" {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const PUBLIC_ROUTES = new Set(["/openapi.json", "/v1/login"]);
export const SESSION_COOKIE = "errata_session";
export const SESSION_MS = 12 * 3_600_000;

/** Routes a browser reaches with the session cookie: the pages and the labelling page's calls. */
export function isPageRoute(path: string): boolean {
  return path.startsWith("/v1/pages/") || path.startsWith("/api/") || path === "/v1/logout";
}

/** Browser sessions: a random id to the token it was opened with, in memory only (a restart logs everyone out). */
export class Sessions {
  private readonly byId = new Map<string, { token: string; expiresMs: number }>();
  constructor(private readonly now: () => number) {}
  open(token: string): string {
    const id = randomBytes(32).toString("base64url");
    this.byId.set(id, { token, expiresMs: this.now() + SESSION_MS });
    return id;
  }
  tokenOf(id: string): string | null {
    const s = this.byId.get(id);
    if (!s) return null;
    if (s.expiresMs <= this.now()) {
      this.byId.delete(id);
      return null;
    }
    return s.token;
  }
  close(id: string): void {
    this.byId.delete(id);
  }
}

/** The session id in a Cookie header, or null. */
export function sessionIdOf(cookie: string | undefined): string | null {
  if (cookie === undefined) return null;
  for (const part of cookie.split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SESSION_COOKIE) {
      const v = rest.join("=");
      return /^[A-Za-z0-9_-]{43}$/.test(v) ? v : null;
    }
  }
  return null;
}

export function sessionCookie(id: string, secure: boolean): string {
  return `${SESSION_COOKIE}=${id}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${SESSION_MS / 1000}${secure ? "; Secure" : ""}`;
}

export const CLEARED_COOKIE = `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0`;

const BEARER = /^Bearer ([\x21-\x7e]{1,512})$/;

/** The token a request carries in its Authorization header: the token, null for none, or "malformed". */
export function bearerOf(header: string | undefined): string | null | "malformed" {
  if (header === undefined) return null;
  const m = BEARER.exec(header);
  return m ? m[1]! : "malformed";
}

function sameOrigin(req: FastifyRequest): boolean {
  const origin = req.headers.origin;
  if (origin === undefined) return req.headers["sec-fetch-site"] === undefined || req.headers["sec-fetch-site"] === "same-origin";
  return origin === `${req.protocol}://${req.headers.host ?? ""}`;
}

export function installAuth(app: FastifyInstance, store: ErrataStore, sessions: Sessions): void {
  app.decorateRequest("principal", null);
  app.addHook("onRequest", async (req: FastifyRequest, reply: FastifyReply) => {
    const path = req.url.split("?")[0] ?? "";
    if (PUBLIC_ROUTES.has(path)) return;
    const page = isPageRoute(path);
    const bearer = bearerOf(req.headers.authorization);
    const sid = page && bearer === null ? sessionIdOf(req.headers.cookie) : null;
    let token: string | null = typeof bearer === "string" && bearer !== "malformed" ? bearer : null;
    let found = bearer === "malformed" ? "an Authorization header that is not 'Bearer <token>'" : "a token that is unknown or revoked";
    if (bearer === null) {
      if (sid !== null) {
        token = sessions.tokenOf(sid);
        if (token === null) found = "a session cookie that is unknown or expired";
        else if (req.method !== "GET" && req.method !== "HEAD" && !sameOrigin(req)) {
          token = null;
          found = "a session cookie on a write from another origin";
        }
      } else found = page ? "no Authorization header and no session cookie" : "no Authorization header";
    }
    const principal = token === null ? null : await store.authenticate(token);
    if (principal === null) {
      const expected = page ? "Authorization: Bearer <a live tenant token>, or the session cookie POST /v1/login sets" : "Authorization: Bearer <a live tenant token> (errata tenants add)";
      if (sid !== null && token !== null) sessions.close(sid); // its token was revoked: the session ends with it
      reply.code(401).header("www-authenticate", 'Bearer realm="errata"');
      if (page && req.method === "GET" && (req.headers.accept ?? "").includes("text/html")) {
        await reply.type("text/html; charset=utf-8").send(`<!doctype html><meta charset="utf-8"><title>errata: log in</title><p>Unauthorized: ${found}. <a href="/v1/login?next=${encodeURIComponent(path)}">Log in with a tenant token</a>.</p>\n`);
      } else await reply.send({ error: "unauthorized", expected, found });
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
