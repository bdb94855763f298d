/**
 * The browser's way in: `GET /v1/login` a form (public: it holds nothing), `POST /v1/login`
 * with a tenant token (a form post or JSON `{token, next}`) sets the HttpOnly session cookie
 * (auth.ts) and sends the browser on to a page, `POST /v1/logout` ends the session. A wrong
 * token is a 401 and sets nothing; `next` is one of the server's pages, never another site.
 *
 * Example: `curl -i -d token=et_… http://127.0.0.1:8787/v1/login` -> `303`, `Location:
 * /v1/pages/pulse`, `Set-Cookie: errata_session=…; HttpOnly; SameSite=Strict; Path=/; Max-Age=43200`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ErrataStore } from "../stores/index.js";
import { CLEARED_COOKIE, principalOf, sessionCookie, sessionIdOf, type Sessions } from "./auth.js";

const PAGE = /^\/v1\/pages\/[a-z-]{1,40}$/;
const DEFAULT_NEXT = "/v1/pages/pulse";
const HEADERS = {
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "content-security-policy": "default-src 'none'; form-action 'self'; frame-ancestors 'none'",
};

const escape = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function form(next: string, problem: string | null): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>errata: log in</title>
<h1>errata</h1>${problem === null ? "" : `<p role="alert">${escape(problem)}</p>`}
<form method="post" action="/v1/login"><label>Tenant token <input type="password" name="token" autocomplete="current-password" required></label>
<input type="hidden" name="next" value="${escape(next)}"><button>Log in</button></form>
<p>A token from <code>errata tenants add</code>. The page keeps a session cookie for 12 hours, never the token.</p></html>\n`;
}

export function installLogin(app: FastifyInstance, store: ErrataStore, sessions: Sessions): void {
  app.get("/v1/login", async (req, reply) => {
    const q = (req.query as Record<string, unknown>)["next"];
    const next = typeof q === "string" && PAGE.test(q) ? q : DEFAULT_NEXT;
    return reply.headers(HEADERS).type("text/html; charset=utf-8").send(form(next, null));
  });

  // The form's body type is taken by this route alone: every other route stays JSON-only (415 otherwise).
  void app.register(async (scope) => {
    scope.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string" }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    scope.post("/v1/login", async (req: FastifyRequest, reply: FastifyReply) => {
      const browser = (req.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded");
      const body = (typeof req.body === "object" && req.body !== null ? req.body : {}) as Record<string, unknown>;
      const token = body["token"];
      const nextGiven = body["next"];
      if (nextGiven !== undefined && (typeof nextGiven !== "string" || !PAGE.test(nextGiven))) {
        return reply.code(400).send({ error: "bad-next", expected: "next: a page of this server, /v1/pages/<name>", found: JSON.stringify(String(nextGiven).slice(0, 60)) });
      }
      const next = typeof nextGiven === "string" ? nextGiven : DEFAULT_NEXT;
      const principal = typeof token === "string" && /^[\x21-\x7e]{1,512}$/.test(token) ? await store.authenticate(token) : null;
      if (principal === null) {
        const found = typeof token === "string" ? "a token that is unknown or revoked" : "no token";
        if (browser) return reply.code(401).headers(HEADERS).type("text/html; charset=utf-8").send(form(next, `Not logged in: ${found}.`));
        return reply.code(401).send({ error: "unauthorized", expected: "token: a live tenant token (errata tenants add)", found });
      }
      const cookie = sessionCookie(sessions.open(token as string), req.protocol === "https");
      reply.header("set-cookie", cookie);
      if (browser) return reply.code(303).header("location", next).send();
      return reply.send({ tenant: principal.tenant, label: principal.label, next });
    });
  });

  app.post("/v1/logout", async (req, reply) => {
    principalOf(req);
    const sid = sessionIdOf(req.headers.cookie);
    if (sid !== null) sessions.close(sid);
    return reply.code(303).header("set-cookie", CLEARED_COOKIE).header("location", "/v1/login").send();
  });
}
