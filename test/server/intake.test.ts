// The intake server in process (Fastify's inject) over the JSONL store, and the same contract
// over a real PostgreSQL: every route refuses without a live token, bad input is a 4xx that
// names what was expected and found and writes nothing, an idempotency key writes once,
// reporters are pseudonymised, secrets redacted, a fuzzed body never gets a 5xx.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { HOOK_EVENTS } from "../../runtime/server/index.js";
import { incidentId, openRuleLedger } from "../../runtime/ladder/index.js";
import { openPostgresStore } from "../../runtime/stores/index.js";
import { POSTGRES_BIN, startPostgres, type TestPostgres } from "../helpers/postgres.js";
import { bearer, good, harness, type Harness } from "./helpers.js";

const ROUTES: Array<[string, string]> = [
  ["POST", "/v1/errata"],
  ["GET", "/v1/errata"],
  ...Object.keys(HOOK_EVENTS).map((r): [string, string] => ["POST", `/v1/hooks/${r}`]),
  ["GET", "/v1/pages/pulse"],
  ["GET", "/v1/team/rules"],
  ["GET", "/v1/hooks/errata"],
  ["POST", "/v1/team/rule-lines"],
];

function filesText(dir: string): string {
  let out = "";
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    out += statSync(p).isDirectory() ? filesText(p) : readFileSync(p, "utf8");
  }
  return out;
}

async function total(h: Harness, token = h.token): Promise<number> {
  const r = await h.app.inject({ method: "GET", url: "/v1/errata?limit=500", headers: bearer(token) });
  return (r.json() as { errata: unknown[] }).errata.length;
}

describe("the intake server (JSONL store)", () => {
  let h: Harness;
  afterEach(async () => h?.close());

  it("refuses every route but /openapi.json without a live token, and a revoked token at once", async () => {
    h = await harness();
    for (const [method, url] of ROUTES) {
      for (const headers of [{}, { authorization: "Bearer et_not-a-token" }, { authorization: `Basic ${h.token}` }]) {
        const r = await h.app.inject({ method: method as "GET", url, headers, ...(method === "POST" ? { payload: good() } : {}) });
        expect(r.statusCode, `${method} ${url} ${JSON.stringify(headers)}`).toBe(401);
        expect(r.json()).toMatchObject({ error: "unauthorized", expected: expect.stringContaining("Bearer"), found: expect.any(String) });
      }
    }
    const doc = await h.app.inject({ method: "GET", url: "/openapi.json" });
    expect(doc.statusCode).toBe(200);
    const paths = Object.keys((doc.json() as { paths: Record<string, unknown> }).paths);
    for (const [, url] of ROUTES) expect(paths).toContain(url);
    expect((await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.token) })).statusCode).toBe(200);
    const [tok] = (await h.store.listTokens()).filter((t) => t.tenant === "acme");
    await h.store.revoke(tok!.token_id, "2026-11-30T12:01:00.000Z");
    expect((await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.token) })).statusCode).toBe(401);
    expect(await total(h, h.other)).toBe(0);
  });

  it("writes a posted erratum under the tenant, reporter pseudonymised and secrets redacted", async () => {
    h = await harness();
    const r = await h.app.inject({ method: "POST", url: "/v1/errata", headers: bearer(h.token), payload: good({ complaint: "it printed my key AKIAIOSFODNN7EXAMPLQ", rating: 2, source: "customer" }) });
    expect(r.statusCode).toBe(201);
    const [one] = (r.json() as { errata: Array<{ id: string; seq: number; created: boolean }> }).errata;
    expect(one).toMatchObject({ seq: 1, created: true });
    const page = (await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.token) })).json() as { errata: Array<{ erratum: Record<string, unknown> }>; next: null };
    expect(page.next).toBeNull();
    const e = page.errata[0]!.erratum as { id: string; instance: string; reporter: { id: string; role: string }; complaint: string; rating: number; source: string; channel: string };
    expect(e).toMatchObject({ id: one!.id, instance: "acme", rating: 2, source: "customer", channel: "api", reporter: { role: "customer" } });
    expect(e.reporter.id).toMatch(/^rp-[0-9a-f]{16}$/);
    expect(e.complaint).toMatch(/\[REDACTED:[a-z-]+\]/);
    const written = filesText(h.dir);
    expect(written).not.toContain("ana@example.com");
    expect(written).not.toContain("AKIAIOSFODNN7EXAMPLQ");
    // the other tenant sees nothing of it
    expect(await total(h, h.other)).toBe(0);
  });

  it("writes once per idempotency key, a batch's items keyed apart", async () => {
    h = await harness();
    const post = (payload: unknown, key: string) => h.app.inject({ method: "POST", url: "/v1/errata", headers: { ...bearer(h.token), "idempotency-key": key }, payload: payload as object });
    const a = await post(good(), "k-1");
    const b = await post(good(), "k-1");
    expect([a.statusCode, b.statusCode]).toEqual([201, 200]);
    expect(b.json()).toEqual({ ...(a.json() as object), errata: [{ ...(a.json() as { errata: object[] }).errata[0], created: false }] });
    const batch = { errata: [good({ complaint: "one" }), good({ complaint: "two" }), good({ complaint: "three" })] };
    const c = await post(batch, "k-2");
    const d = await post(batch, "k-2");
    expect((c.json() as { errata: Array<{ created: boolean }> }).errata.map((x) => x.created)).toEqual([true, true, true]);
    expect((d.json() as { errata: Array<{ created: boolean }> }).errata.map((x) => x.created)).toEqual([false, false, false]);
    expect(await total(h)).toBe(4);
    const bad = await h.app.inject({ method: "POST", url: "/v1/errata", headers: { ...bearer(h.token), "idempotency-key": "has space" }, payload: good() });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: "bad-idempotency-key", expected: expect.any(String), found: '"has space"' });
  });

  it("refuses bad input with 4xx naming expected and found, writing nothing", async () => {
    h = await harness({ bodyLimit: 8192 });
    const cases: Array<[unknown, string | object, number, string]> = [
      ["machine source with a rating", good({ source: "hook", rating: 3 }), 400, "machine-source-rating"],
      ["enrichment no model wrote", good({ enrichment: { schema: "enrichment/1", how_upset: 1, which_part: "", what_upset: "", reporter_right: null, reporter_right_reason: "", root_cause_hypothesis: "", class: null, proposed_fix: "", confidence: 0.5, model: "", enrichment_version: "x" } }), 400, "enrichment-without-model"],
      ["a rating off the scale", good({ rating: 11 }), 400, "rating-off-scale"],
      ["an unknown field", good({ email: "x@y.z" }), 400, "schema"],
      ["an unknown system", good({ system: "billing-bot" }), 400, "unknown-system"],
      ["no complaint", { reporter: { id: "a" } }, 400, "schema"],
      ["a batch of 101", { errata: Array.from({ length: 101 }, () => ({ complaint: "x", reporter: { id: "a" } })) }, 400, "schema"],
      ["an empty batch", { errata: [] }, 400, "schema"],
      ["a batch with one bad item", { errata: [good(), good({ rating: 0 })] }, 400, "rating-off-scale"],
      ["malformed JSON", '{"complaint": "x", ', 400, "malformed-json"],
      ["a body over the limit", good({ complaint: "x".repeat(9000) }), 413, "body-too-large"],
    ];
    for (const [what, payload, status, code] of cases) {
      const r = await h.app.inject({ method: "POST", url: "/v1/errata", headers: { ...bearer(h.token), "content-type": "application/json" }, payload: typeof payload === "string" ? payload : JSON.stringify(payload) });
      expect(r.statusCode, String(what)).toBe(status);
      const body = r.json() as { expected: string; found: string; problems?: Array<{ code: string }>; error: string };
      expect(body.expected, String(what)).toEqual(expect.any(String));
      expect(body.found, String(what)).toEqual(expect.any(String));
      expect(body.problems?.[0]?.code ?? body.error, String(what)).toBe(code);
    }
    expect(await total(h)).toBe(0);
    expect(readdirSync(h.dir).filter((f) => f === "tenants")).toEqual([]);
    const q = await h.app.inject({ method: "GET", url: "/v1/errata?limit=9999", headers: bearer(h.token) });
    expect(q.statusCode).toBe(400);
  });

  it("rate-limits per tenant: one tenant's burst does not spend another's", async () => {
    h = await harness({ ratePerMinute: 3 });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.token) })).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    expect((await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.other) })).statusCode).toBe(200);
  });

  it("answers the four hooks as Claude Code http hooks, in the developer's own ledger, reading no file a payload names", async () => {
    h = await harness();
    const secretFile = join(h.dir, "server-only.txt");
    writeFileSync(secretFile, '{"type":"assistant","message":{"content":[{"type":"text","text":"SERVER-FILE-SENTINEL"}]}}\n');
    const hook = (route: string, payload: object) => h.app.inject({ method: "POST", url: `/v1/hooks/${route}`, headers: bearer(h.token), payload });
    const p = await hook("user-prompt-submit", { session_id: "s1", prompt: "No, that is wrong. Use pnpm, not npm.", transcript_path: secretFile, hook_event_name: "UserPromptSubmit" });
    expect(p.statusCode).toBe(200);
    expect(p.json()).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: expect.stringMatching(/^Errata captured this prompt as a correction \(er-\d{8}-[0-9a-f]{6}\)/) } });
    const ordinary = await hook("user-prompt-submit", { session_id: "s1", prompt: "add a test for the parser" });
    expect(ordinary.json()).toEqual({});
    expect((await hook("stop", { session_id: "s1", last_assistant_message: "Done." })).json()).toEqual({});
    expect((await hook("pre-tool-use", { session_id: "s1", tool_name: "Bash", tool_input: { command: "ls" } })).json()).toEqual({});
    expect((await hook("instructions-loaded", { session_id: "s1", file_path: "/p/CLAUDE.md", memory_type: "Project", load_reason: "session_start" })).statusCode).toBe(200);
    expect((await hook("stop", [] as unknown as object)).statusCode).toBe(400);
    const ledgerDir = join(h.dir, "hooks", "acme", "ana", "ledger");
    const months = readdirSync(ledgerDir).filter((f) => f.startsWith("errata-"));
    expect(months.length).toBe(1);
    expect(readFileSync(join(ledgerDir, months[0]!), "utf8")).toContain("Use pnpm, not npm.");
    expect(filesText(h.dir).split("SERVER-FILE-SENTINEL").length).toBe(2); // only the file itself
  });

  it("serves the Pulse page behind the token, ids and counts only", async () => {
    h = await harness();
    await h.app.inject({ method: "POST", url: "/v1/errata", headers: bearer(h.token), payload: good({ complaint: "PULSE-TEXT-SENTINEL" }) });
    const r = await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: bearer(h.token) });
    expect(r.statusCode).toBe(200);
    expect(r.headers["content-type"]).toContain("text/html");
    expect(r.body).toContain("<html");
    expect(r.body).not.toContain("PULSE-TEXT-SENTINEL");
    expect(r.body).toContain("assistant/complaint");
    expect(r.body).not.toContain("assistant/correction");
    // A developer's capture through the http hook counts on the tenant's page too.
    await h.app.inject({ method: "POST", url: "/v1/hooks/user-prompt-submit", headers: bearer(h.token), payload: { session_id: "s1", prompt: "No, that is wrong. Use pnpm, not npm." } });
    const after = await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: bearer(h.token) });
    expect(after.body).toContain("assistant/correction");
    expect(after.body).not.toContain("Use pnpm");
    // another tenant's page counts neither
    const theirs = await h.app.inject({ method: "GET", url: "/v1/pages/pulse", headers: bearer(h.other) });
    expect(theirs.body).not.toContain("assistant/complaint");
    expect(theirs.body).not.toContain("assistant/correction");
  });

  it("joins the developers' rule ledgers into the team's most-broken rules, each incident tied to its developer's project", async () => {
    h = await harness();
    const rule = (id: string, project: string | null) => ({
      kind: "rule" as const, v: 1 as const, rule_id: id, at: "2026-11-01T00:00:00Z", text: "Use pnpm, not npm.", why: null, when: null, when_not: null, rung: 1 as const,
      location: { kind: "text" as const, file: "CLAUDE.md", section: null }, origin: "index" as const, keywords: ["pnpm"], witness: null, exempt: false, project,
    });
    const inc = (ruleId: string, ex: string, project: string) => ({
      kind: "incident" as const, v: 1 as const, incident_id: incidentId(ruleId, ex), rule_id: ruleId, exchange_id: ex, session_id: ex, date: "2026-11-20T10:00:00Z",
      severity: 2 as const, signal: "explicit" as const, in_view: true, rung: 1 as const, cause: "rule_gap" as const, project,
    });
    const ledgerOf = (label: string) => openRuleLedger(join(h.dir, "hooks", "acme", label, "ledger", "ladder"));
    ledgerOf("ana").append([rule("claude-md.tooling.aaaaaa", "/src/app"), inc("claude-md.tooling.aaaaaa", "ex-1", "/src/app"), inc("claude-md.tooling.aaaaaa", "ex-1", "/src/app"), inc("claude-md.tooling.aaaaaa", "ex-2", "/src/app"), rule("claude-md.git.bbbbbb", null), inc("claude-md.git.bbbbbb", "ex-3", "/src/app")]);
    ledgerOf("bob").append([rule("claude-md.tooling.aaaaaa", "/src/app"), inc("claude-md.tooling.aaaaaa", "ex-9", "/src/api"), rule("claude-md.git.bbbbbb", null)]);
    const other = openRuleLedger(join(h.dir, "hooks", "globex", "carl", "ledger", "ladder"));
    other.append([rule("claude-md.git.bbbbbb", null), inc("claude-md.git.bbbbbb", "ex-7", "/g"), inc("claude-md.git.bbbbbb", "ex-8", "/g")]);
    const r = await h.app.inject({ method: "GET", url: "/v1/team/rules?top=5", headers: bearer(h.token) });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({
      developers: 2,
      problems: 0,
      rules: [
        { rule_id: "claude-md.tooling.aaaaaa", incidents: 3, developers: 2, file: "CLAUDE.md", by: [{ developer: "ana", project: "/src/app", incidents: 2 }, { developer: "bob", project: "/src/api", incidents: 1 }] },
        { rule_id: "claude-md.git.bbbbbb", incidents: 1, developers: 1, file: "CLAUDE.md", by: [{ developer: "ana", project: "/src/app", incidents: 1 }] },
      ],
    });
    expect(r.body).not.toContain("pnpm");
    expect((await h.app.inject({ method: "GET", url: "/v1/team/rules?top=0", headers: bearer(h.token) })).statusCode).toBe(400);
  });

  it("never logs a token", async () => {
    let log = "";
    const stream = new Writable({ write: (chunk, _enc, done) => ((log += String(chunk)), done()) });
    h = await harness({ logger: { level: "info", stream } });
    await h.app.inject({ method: "POST", url: "/v1/errata", headers: bearer(h.token), payload: good() });
    await h.app.inject({ method: "GET", url: "/v1/errata", headers: { authorization: "Bearer et_wrong-token-SENTINEL" } });
    expect(log).toContain("/v1/errata");
    expect(log).not.toContain(h.token);
    expect(log).not.toContain("SENTINEL");
  });

  it("fuzz: no body, JSON or not, gets a 5xx, and a refused one writes nothing", async () => {
    h = await harness();
    const reporter = fc.oneof(fc.record({ id: fc.string() }), fc.record({ id: fc.emailAddress(), role: fc.string() }), fc.anything());
    const intakeLike = fc.record(
      {
        complaint: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
        reporter,
        source: fc.oneof(fc.constantFrom("customer", "user", "hook", "agent", "owner"), fc.string()),
        rating: fc.oneof(fc.integer({ min: -2, max: 12 }), fc.double(), fc.constant(null)),
        kind: fc.oneof(fc.constantFrom("bug", "complaint"), fc.string()),
        ts: fc.oneof(fc.date({ noInvalidDate: true }).map((d) => d.toISOString()), fc.string()),
        context: fc.oneof(fc.record({ cwd: fc.string(), output_ids: fc.array(fc.string()) }), fc.anything()),
        enrichment: fc.anything(),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(intakeLike, fc.record({ errata: fc.array(intakeLike, { maxLength: 5 }) }), fc.jsonValue(), fc.string().map((s) => ({ raw: s })));
    let before = await total(h);
    await fc.assert(
      fc.asyncProperty(body, async (b) => {
        const raw = typeof b === "object" && b !== null && "raw" in b && Object.keys(b).length === 1 ? String((b as { raw: unknown }).raw) : JSON.stringify(b);
        const r = await h.app.inject({ method: "POST", url: "/v1/errata", headers: { ...bearer(h.token), "content-type": "application/json" }, payload: raw ?? "null" });
        expect(r.statusCode).toBeLessThan(500);
        const after = await total(h);
        if (r.statusCode >= 400) expect(after).toBe(before);
        before = after;
      }),
      { numRuns: 300 },
    );
  });
});

describe.skipIf(POSTGRES_BIN === null)("the intake server over PostgreSQL", () => {
  let pgc: TestPostgres;
  let h: Harness;
  beforeAll(async () => {
    pgc = await startPostgres();
  });
  afterAll(() => pgc?.stop());
  afterEach(async () => h?.close());

  it("keeps the contract: once per key, tenants apart in the database, nothing written on refusal", async () => {
    h = await harness({ store: await openPostgresStore(pgc.database("intake_test")) });
    const headers = { ...bearer(h.token), "idempotency-key": "pg-1" };
    const a = await h.app.inject({ method: "POST", url: "/v1/errata", headers, payload: good() });
    const b = await h.app.inject({ method: "POST", url: "/v1/errata", headers, payload: good() });
    expect([a.statusCode, b.statusCode]).toEqual([201, 200]);
    await h.app.inject({ method: "POST", url: "/v1/errata", headers: bearer(h.other), payload: good({ complaint: "globex's" }) });
    const bad = await h.app.inject({ method: "POST", url: "/v1/errata", headers: bearer(h.token), payload: { errata: [good(), good({ source: "agent", rating: 4 })] } });
    expect(bad.statusCode).toBe(400);
    expect(await total(h)).toBe(1);
    const theirs = (await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.other) })).json() as { errata: Array<{ erratum: { complaint: string; instance: string } }> };
    expect(theirs.errata.map((e) => [e.erratum.complaint, e.erratum.instance])).toEqual([["globex's", "globex"]]);
    const [tok] = (await h.store.listTokens()).filter((t) => t.tenant === "globex");
    await h.store.revoke(tok!.token_id, "2026-11-30T12:01:00.000Z");
    expect((await h.app.inject({ method: "GET", url: "/v1/errata", headers: bearer(h.other) })).statusCode).toBe(401);
  });
});
