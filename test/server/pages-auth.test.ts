// The pages behind the server's auth: the Pulse page and the labelling page (fronting a real
// labelling server on loopback), each route refused without a token, with a wrong one, with an
// unknown, expired, logged-out or revoked session cookie; the login form setting an HttpOnly
// session cookie that holds no token; a cookie never opening the API; a cookie write from
// another origin refused; a token whose label is no labeller refused.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startLabelServer, type LabelServer } from "../../runtime/pages/index.js";
import { HOOK_EVENTS } from "../../runtime/server/index.js";
import { SESSION_MS } from "../../runtime/server/auth.js";
import { tempDir } from "../helpers/io.js";
import { bearer, good, harness, NOW, type Harness } from "./helpers.js";

const PAGE_ROUTES: Array<[string, string]> = [
  ["GET", "/v1/pages/pulse"],
  ["GET", "/v1/pages/label"],
  ["GET", "/api/sheet"],
  ["GET", "/api/export.csv"],
  ["POST", "/api/change"],
  ["GET", "/api/adjudication"],
  ["POST", "/api/decide"],
  ["POST", "/v1/logout"],
];
const API_ROUTES: Array<[string, string]> = [
  ["POST", "/v1/errata"],
  ["GET", "/v1/errata"],
  ...Object.keys(HOOK_EVENTS).map((r): [string, string] => ["POST", `/v1/hooks/${r}`]),
  ["GET", "/v1/team/rules"],
];

const items = [
  { exchange_id: "ex-1", previous_ask: null, reply_end: "Done: pushed to main.", tool_calls: "", prompt: "no, open a PR instead" },
  { exchange_id: "ex-2", previous_ask: null, reply_end: "Here is the fix.", tool_calls: "", prompt: "thanks, that works" },
];
const questions = [{ id: "detect.unhappy", kind: "yesno" as const }];

const tmp = tempDir("errata-pages-auth-");
let label: LabelServer;
const stateDir = join(tmp.dir, "label-state");
beforeAll(async () => {
  label = await startLabelServer({ host: "127.0.0.1", port: 0, stateDir, labelers: ["ana"], items, questions, brief: "# Brief\n" });
});
afterAll(async () => {
  await label.close();
  tmp.cleanup();
});

let clock = NOW;
let h: Harness;
afterEach(async () => {
  await h?.close();
  clock = NOW;
});
const serve = () => harness({ now: () => clock, labelling: { url: `http://127.0.0.1:${label.port}`, stateDir } });

async function login(token: string, next?: string) {
  const payload = new URLSearchParams({ token, ...(next !== undefined ? { next } : {}) }).toString();
  return h.app.inject({ method: "POST", url: "/v1/login", headers: { "content-type": "application/x-www-form-urlencoded" }, payload });
}
const cookieOf = (setCookie: string | string[] | undefined): string => String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(";")[0]!;
const send = (method: string, url: string, headers: Record<string, string>) =>
  h.app.inject({ method: method as "GET", url, headers: { ...headers, ...(method === "POST" ? { "content-type": "application/json" } : {}) }, ...(method === "POST" ? { payload: { exchange_id: "ex-1", question: "detect.unhappy", op: "answer", value: "yes" } } : {}) });

describe("the pages behind the server's auth", () => {
  it("refuses every page route without a token, with a wrong one, and with an unknown session cookie", async () => {
    h = await serve();
    const unknownCookie = `errata_session=${"A".repeat(43)}`;
    for (const [method, url] of PAGE_ROUTES) {
      for (const headers of [{}, { authorization: "Bearer et_not-a-token" }, { authorization: `Basic ${h.token}` }, { cookie: unknownCookie }, { cookie: `errata_session=${h.token}` }]) {
        const r = await send(method, url, headers);
        expect(r.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.json()).toMatchObject({ error: "unauthorized", expected: expect.stringContaining("POST /v1/login"), found: expect.any(String) });
      }
    }
    // A browser asking for the page is pointed at the login form.
    const html = await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: { accept: "text/html" } });
    expect(html.statusCode).toBe(401);
    expect(html.body).toContain('href="/v1/login?next=%2Fv1%2Fpages%2Fpulse"');
    expect(html.body).not.toContain(h.token);
    // Every page route is in the public contract, with the cookie as its second way in.
    const doc = (await h.app.inject({ method: "GET", url: "/openapi.json" })).json() as { paths: Record<string, Record<string, { security?: unknown[] }>>; components: { securitySchemes: Record<string, { in?: string; name?: string }> } };
    for (const [method, url] of PAGE_ROUTES) expect(doc.paths[url]?.[method.toLowerCase()]?.security, `${method} ${url}`).toEqual([{ bearer: [] }, { session: [] }]);
    expect(doc.components.securitySchemes["session"]).toMatchObject({ in: "cookie", name: "errata_session" });
    // Nothing was written upstream by the refused change.
    expect(existsSync(join(stateDir, "ana.json"))).toBe(false);
  });

  it("logs a browser in with an HttpOnly cookie that holds no token, and serves every page route through it", async () => {
    h = await serve();
    const form = await h.app.inject({ method: "GET", url: "/v1/login?next=/v1/pages/label" });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('<form method="post" action="/v1/login">');
    expect(form.body).toContain('value="/v1/pages/label"');
    const r = await login(h.token, "/v1/pages/label");
    expect(r.statusCode).toBe(303);
    expect(r.headers["location"]).toBe("/v1/pages/label");
    const set = String(r.headers["set-cookie"]);
    expect(set).toMatch(/^errata_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/; Max-Age=43200$/);
    expect(set).not.toContain(h.token);
    const cookie = { cookie: cookieOf(r.headers["set-cookie"]) };

    const pulse = await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: cookie });
    expect(pulse.statusCode).toBe(200);
    expect(pulse.headers["content-type"]).toContain("text/html");
    const page = await h.app.inject({ method: "GET", url: "/v1/pages/label", headers: cookie });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-security-policy"]).toContain("default-src 'none'");
    expect(page.body).toContain("ana");
    const sheet = await h.app.inject({ method: "GET", url: "/api/sheet", headers: cookie });
    expect(sheet.statusCode).toBe(200);
    expect((sheet.json() as { labeler: string; items: unknown[] }).labeler).toBe("ana");
    expect((sheet.json() as { items: unknown[] }).items).toHaveLength(2);
    const change = await send("POST", "/api/change", cookie);
    expect(change.statusCode).toBe(200);
    expect(change.json()).toMatchObject({ ok: true, progress: { items: 2, done: 1 } });
    expect((JSON.parse(readFileSync(join(stateDir, "ana.json"), "utf8")) as { answers: Record<string, unknown> }).answers).toHaveProperty("ex-1");
    const csv = await h.app.inject({ method: "GET", url: "/api/export.csv?t=", headers: cookie });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    expect(csv.body).toContain("ex-1");
    // The adjudication view's calls go through too, and the labelling server answers a labeller's token there as it does itself.
    const adj = await h.app.inject({ method: "GET", url: "/api/adjudication", headers: cookie });
    expect(adj.statusCode).toBe(404);
    expect(adj.body).toContain("no route GET /api/adjudication");
    // The bearer header opens the pages too (a script, curl).
    expect((await h.app.inject({ method: "GET", url: "/api/sheet", headers: bearer(h.token) })).statusCode).toBe(200);

    // A cookie never opens the API.
    for (const [method, url] of API_ROUTES) {
      const a = await h.app.inject({ method: method as "GET", url, headers: cookie, ...(method === "POST" ? { payload: good() } : {}) });
      expect(a.statusCode, `${method} ${url}`).toBe(401);
    }
    // A write through the cookie from another origin is refused; from the server's own origin it goes through.
    expect((await send("POST", "/api/change", { ...cookie, origin: "http://evil.example" })).statusCode).toBe(401);
    expect((await send("POST", "/api/change", { ...cookie, origin: "http://localhost:80" })).statusCode).toBe(200);

    // Logging out ends the session.
    const out = await h.app.inject({ method: "POST", url: "/v1/logout", headers: cookie });
    expect(out.statusCode).toBe(303);
    expect(String(out.headers["set-cookie"])).toContain("Max-Age=0");
    expect((await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: cookie })).statusCode).toBe(401);
  });

  it("refuses a session whose token was revoked or whose 12 hours are over", async () => {
    h = await serve();
    const cookie = { cookie: cookieOf((await login(h.token)).headers["set-cookie"]) };
    expect((await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: cookie })).statusCode).toBe(200);
    clock = NOW + SESSION_MS;
    expect((await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: cookie })).statusCode).toBe(401);
    clock = NOW;
    const again = { cookie: cookieOf((await login(h.token)).headers["set-cookie"]) };
    const [tok] = (await h.store.listTokens()).filter((t) => t.tenant === "acme");
    await h.store.revoke(tok!.token_id, "2026-11-30T12:01:00.000Z");
    for (const [method, url] of PAGE_ROUTES) expect((await send(method, url, again)).statusCode, `${method} ${url}`).toBe(401);
  });

  it("refuses a wrong token at login, setting nothing, and a next that is not one of its pages", async () => {
    h = await serve();
    const bad = await login("et_not-a-token");
    expect(bad.statusCode).toBe(401);
    expect(bad.headers["set-cookie"]).toBeUndefined();
    expect(bad.body).toContain("unknown or revoked");
    for (const next of ["https://evil.example/", "//evil.example", "/v1/errata"]) {
      const r = await login(h.token, next);
      expect(r.statusCode, next).toBe(400);
      expect(r.headers["set-cookie"]).toBeUndefined();
    }
    const json = await h.app.inject({ method: "POST", url: "/v1/login", payload: { token: h.token } });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ tenant: "acme", label: "ana", next: "/v1/pages/pulse" });
    // Only the login route takes a form body: the API still answers 415 to one.
    const form = await h.app.inject({ method: "POST", url: "/v1/errata", headers: { ...bearer(h.token), "content-type": "application/x-www-form-urlencoded" }, payload: "complaint=x" });
    expect(form.statusCode).toBe(415);
  });

  it("refuses the labelling page to a token whose label is no labeller, and says when no labelling server is behind", async () => {
    h = await serve();
    const app = (await h.store.addToken("acme", "billing-app", new Date(NOW).toISOString())).token;
    for (const [method, url] of PAGE_ROUTES.filter(([, u]) => u.startsWith("/api/") || u === "/v1/pages/label")) {
      const r = await send(method, url, bearer(app));
      expect(r.statusCode, `${method} ${url}`).toBe(403);
      expect(r.json()).toMatchObject({ error: "not-a-labeller", found: 'label "billing-app"' });
    }
    await h.close();
    h = await harness({ now: () => clock });
    const none = await h.app.inject({ method: "GET", url: "/v1/pages/label", headers: bearer(h.token) });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ error: "not-served", expected: expect.stringContaining("--labelling") });
  });
});
