import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runEnrich } from "../../runtime/jobs/daily/enrich.js";
import { loadDailyConfig } from "../../runtime/jobs/daily/config.js";
import { proseLaneFor, proseLaneWithReason } from "../../runtime/jobs/daily/wire.js";
import { tempDir } from "../helpers/io.js";
import { GOOD_REPLY, pathsFor, seedLedger, stageCtx } from "./fixtures.js";

/** A local OpenAI-compatible server on loopback: the real SDK talks to it, nothing leaves the machine. */
let server: Server;
let baseURL = "";
const bodies: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      bodies.push(body);
      const user = (JSON.parse(body) as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === "user")?.content ?? "";
      const content = user.includes("MALFORMED") ? '{"how_upset": 9, "which_part": null}' : user.includes("PROSE") ? "I think the user is upset." : JSON.stringify(GOOD_REPLY);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: "c1", object: "chat.completion", created: 0, model: "gpt-local", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content } }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("enrich through the OpenAI lane (real SDK, loopback server)", () => {
  it("validates every reply: out-of-range and non-JSON replies leave the entry null and are counted", async () => {
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, "daily.json"), JSON.stringify({ openai: { base_url: baseURL, model: "gpt-local", api_key_env: "TEST_KEY" } }));
      const [, bad, prose] = seedLedger(t.dir, [
        { complaint: "you broke the build", ageHours: 1, context: { session_id: "sess-XYZ", cwd: "/home/owner/secret-project" } },
        { complaint: "MALFORMED please", ageHours: 2 },
        { complaint: "PROSE please", ageHours: 3 },
      ]);
      const env = { TEST_KEY: "sk-local-test" };
      const cfg = loadDailyConfig(pathsFor(t.dir), env, t.dir);
      const lane = proseLaneFor(cfg);
      expect(lane?.model).toBe("gpt-local");
      const out = await runEnrich(stageCtx(t.dir, { env }), { embedded: null, prose: lane });
      expect(out.counts).toMatchObject({ batch: 3, enriched: 1, malformed: 2 });
      const { errata } = await stageCtx(t.dir).ledger.readAll();
      const byId = new Map(errata.map((e) => [e.id, e]));
      expect(byId.get(bad!.id)?.enrichment).toBeNull();
      expect(byId.get(prose!.id)?.enrichment).toBeNull();
      const good = errata.find((e) => e.enrichment !== null)!;
      expect(good.enrichment).toMatchObject({ model: "gpt-local", what_upset: GOOD_REPLY.what_upset, how_upset: 2 });
      // What was sent carries the words, never the session id, cwd or erratum id.
      for (const b of bodies) {
        expect(b).not.toContain("sess-XYZ");
        expect(b).not.toContain("/home/owner");
        expect(b).not.toMatch(/er-\d{8}-/);
      }
    } finally {
      t.cleanup();
    }
  });

  it("without an openai section, the engine config's OpenAI lane fills the prose (loopback needs no key)", async () => {
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, "errata-engine.json"), JSON.stringify({ lane: "low", lanes: { low: { kind: "openai", baseURL: baseURL, model: "gpt-low" } } }));
      const paths = pathsFor(t.dir);
      const r = proseLaneWithReason(loadDailyConfig(paths, {}, t.dir), undefined, { paths, env: {} });
      expect(r).toMatchObject({ problem: null, lane: { model: "gpt-low" } });
      seedLedger(t.dir, [{ complaint: "you broke it" }]);
      const out = await runEnrich(stageCtx(t.dir), { embedded: null, prose: r.lane });
      expect(out.counts).toMatchObject({ enriched: 1, prose_filled: 1 });
      // A remote server with no key: no lane, and the reason is given.
      writeFileSync(join(t.dir, "errata-engine.json"), JSON.stringify({ lane: "low", lanes: { low: { kind: "openai", baseURL: "https://llm.example.invalid/v1", model: "gpt-low" } } }));
      const none = proseLaneWithReason(loadDailyConfig(paths, {}, t.dir), undefined, { paths, env: {} });
      expect(none.lane).toBeNull();
      expect(none.problem).toMatch(/no API key/);
    } finally {
      t.cleanup();
    }
  });

  it("no key in the environment: no lane (offline)", () => {
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, "daily.json"), JSON.stringify({ openai: { base_url: baseURL, model: "gpt-local" } }));
      expect(proseLaneFor(loadDailyConfig(pathsFor(t.dir), {}, t.dir))).toBeNull();
    } finally {
      t.cleanup();
    }
  });
});
