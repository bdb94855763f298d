import { afterEach, describe, expect, it } from "vitest";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { engineEnricher, howUpsetRule } from "../../runtime/jobs/daily/enrich-embedded.js";
import { runEnrich } from "../../runtime/jobs/daily/enrich.js";
import { tempDir } from "../helpers/io.js";
import { GOOD_REPLY, NOW, fakeEngine, fakeProse, seedLedger, stageCtx } from "./fixtures.js";

describe("enrich", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("enriches newest first up to the limit, skipping backfill, detected, praise and unauthorized tenants", async () => {
    const [older, newer, newest] = seedLedger(t.dir, [
      { complaint: "no, that's wrong", ageHours: 30 },
      { complaint: "wrong file again", ageHours: 20 },
      { complaint: "still wrong [mode:risky_action_unasked]", ageHours: 10 },
    ]);
    seedLedger(t.dir, [
      { complaint: "imported", source: "backfill", ageHours: 1 },
      { complaint: "inferred", source: "detected", ageHours: 1 },
      { complaint: "lovely", kind: "praise", ageHours: 1 },
      { complaint: "app says no", source: "customer", instance: "tenant:acme", ageHours: 1 },
    ]);
    const ctx = stageCtx(t.dir);
    const out = await runEnrich(ctx, { embedded: engineEnricher(fakeEngine(), { caller: "errata-triage" }), prose: null, limit: 2 });
    expect(out.counts).toMatchObject({ eligible: 3, batch: 2, enriched: 2, malformed: 0, excluded_tenant: 1 });
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    const byId = new Map(errata.map((e) => [e.id, e]));
    expect(byId.get(newest!.id)?.status).toBe("enriched");
    expect(byId.get(newer!.id)?.status).toBe("enriched");
    expect(byId.get(older!.id)?.enrichment).toBeNull();
    const en = byId.get(newest!.id)!.enrichment!;
    expect(en.class).toBe("risky_action");
    expect(en.confidence).toBeCloseTo(0.9);
    expect(en.how_upset).toBe(2); // P(unhappy) 0.95 -> at least 2
    expect(en.model).toBe("embedded/fake-1");
    expect(en.what_upset).toBe(""); // prose needs the OpenAI lane
    expect(out.sources.get(newest!.id)).toMatchObject({ class: "engine-modes:embedded/fake-1", what_upset: "none" });
  });

  it("an authorized tenant is enriched", async () => {
    writeFileSync(join(t.dir, "daily.json"), JSON.stringify({ authorized_tenants: ["tenant:acme"] }));
    seedLedger(t.dir, [{ complaint: "app says no", source: "customer", instance: "tenant:acme" }]);
    const out = await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: null });
    expect(out.counts).toMatchObject({ enriched: 1, excluded_tenant: 0 });
  });

  it("a malformed model reply leaves the entry null and is counted; the others are enriched", async () => {
    const [bad, good] = seedLedger(t.dir, [{ complaint: "make it fail please", ageHours: 2 }, { complaint: "no, wrong again", ageHours: 1 }]);
    const prose = fakeProse((e) => (e.complaint.includes("fail") ? '{"how_upset": "very", "which_part": 3}' : GOOD_REPLY));
    const ctx = stageCtx(t.dir);
    const out = await runEnrich(ctx, { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose });
    expect(out.counts).toMatchObject({ batch: 2, enriched: 1, malformed: 1, prose_filled: 1 });
    expect(ctx.logs.some((l) => l.includes(bad!.id) && l.includes("malformed"))).toBe(true);
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    const byId = new Map(errata.map((e) => [e.id, e]));
    expect(byId.get(bad!.id)?.enrichment).toBeNull();
    expect(byId.get(bad!.id)?.status).toBe("new");
    const en = byId.get(good!.id)!.enrichment!;
    // Embedded fields win where the engine answered; prose comes from the OpenAI lane.
    expect(en.what_upset).toBe(GOOD_REPLY.what_upset);
    expect(en.reporter_right).toBe(true);
    expect(en.model).toBe("embedded/fake-1+gpt-test");
    expect(out.sources.get(good!.id)).toMatchObject({ what_upset: "openai:gpt-test", how_upset: "rule:capture+embedded/fake-1" });
    // Without an engine class, the model's class fills in.
    expect(en.class).toBe("broke_standing_rule");
  });

  it("not JSON at all is malformed too", async () => {
    seedLedger(t.dir, [{ complaint: "hm" }]);
    const out = await runEnrich(stageCtx(t.dir), { embedded: null, prose: fakeProse(() => "Sure! Here is the enrichment: ...") });
    expect(out.counts).toMatchObject({ enriched: 0, malformed: 1 });
  });

  it("stops at the time budget and defers the rest", async () => {
    seedLedger(t.dir, Array.from({ length: 5 }, (_, i) => ({ complaint: `c${i}`, ageHours: i + 1 })));
    let now = NOW;
    const ctx = stageCtx(t.dir, { now: () => now });
    const prose = fakeProse(() => {
      now += 4 * 60_000; // each reply takes four minutes
      return GOOD_REPLY;
    });
    const out = await runEnrich(ctx, { embedded: null, prose });
    expect(out.counts).toMatchObject({ batch: 5, enriched: 3, deferred: 2 });
  });

  it("a re-run enriches nothing twice; dry run writes nothing", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }]);
    const dry = await runEnrich(stageCtx(t.dir, { dryRun: true }), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: null });
    expect(dry.counts["enriched"]).toBe(1);
    const first = await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: null });
    expect(first.counts["enriched"]).toBe(1);
    const second = await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: null });
    expect(second.counts).toMatchObject({ eligible: 0, enriched: 0 });
  });

  it("what the engine sees carries no erratum id, session id or cwd", async () => {
    const [e] = seedLedger(t.dir, [{ complaint: "no, wrong", context: { session_id: "sess-secret-42", cwd: "/home/someone/proj", requested: "fix it" } }]);
    const engine = fakeEngine();
    await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(engine, { caller: "x" }), prose: null });
    expect(engine.seen.length).toBeGreaterThan(0);
    for (const s of engine.seen) {
      expect(s).not.toContain(e!.id);
      expect(s).not.toContain("sess-secret-42");
      expect(s).not.toContain("/home/someone");
    }
  });

  it("howUpsetRule: capture frustration and rating set the floor; the engine can raise it", () => {
    expect(howUpsetRule({ frustration: null, rating: null, kind: "praise" }, null)).toBe(0);
    expect(howUpsetRule({ frustration: null, rating: null, kind: "complaint" }, 0.1)).toBe(1);
    expect(howUpsetRule({ frustration: 3, rating: null, kind: "complaint" }, 0.1)).toBe(3);
    expect(howUpsetRule({ frustration: null, rating: 2, kind: "complaint" }, null)).toBe(3);
    expect(howUpsetRule({ frustration: 0, rating: null, kind: "bug" }, 0.92)).toBe(2);
  });
});

describe("how_upset from the capture classifier when the door did not count frustration", () => {
  it("an owner's furious /er entry (frustration null at capture) is counted by the same classifier", async () => {
    const t = tempDir();
    try {
      const [calm, loud] = seedLedger(t.dir, [
        { complaint: "the summary misses the last section" },
        { complaint: "WHY DID YOU DELETE MY FILES AGAIN?!!! STOP DOING THIS!!!" },
      ]);
      expect(loud!.frustration).toBeNull();
      await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: null });
      const byId = new Map((await stageCtx(t.dir).ledger.readAll()).errata.map((e) => [e.id, e]));
      expect(byId.get(calm!.id)?.enrichment?.how_upset).toBe(1);
      expect(byId.get(loud!.id)?.enrichment?.how_upset).toBeGreaterThanOrEqual(2);
    } finally {
      t.cleanup();
    }
  });
});

describe("enrich concurrency", () => {
  it("keeps at most enrich.concurrency model calls in flight, and applies results in newest-first order", async () => {
    const t = tempDir();
    try {
      writeFileSync(join(t.dir, "daily.json"), JSON.stringify({ enrich: { concurrency: 3 } }));
      seedLedger(t.dir, Array.from({ length: 10 }, (_, i) => ({ complaint: `c${i}`, ageHours: i + 1 })));
      let inFlight = 0;
      let most = 0;
      const order: string[] = [];
      const prose = {
        model: "gpt-test",
        async enrich(e: { complaint: string }) {
          inFlight++;
          most = Math.max(most, inFlight);
          // Replies come back out of order.
          await new Promise((r) => setTimeout(r, e.complaint === "c0" ? 15 : 1));
          inFlight--;
          return { ok: true as const, reply: GOOD_REPLY };
        },
      };
      const ctx = stageCtx(t.dir);
      const inner = ctx.ledger;
      ctx.ledger = { ...inner, readAll: () => inner.readAll(), append: (e) => inner.append(e), patch: async (id, set) => { order.push(id); return inner.patch(id, set); } };
      const out = await runEnrich(ctx, { embedded: null, prose: prose as never });
      expect(out.counts["enriched"]).toBe(10);
      expect(most).toBe(3);
      const { errata } = await stageCtx(t.dir).ledger.readAll();
      const newestFirst = [...errata].sort((a, b) => b.ts.localeCompare(a.ts)).map((e) => e.id);
      expect(order).toEqual(newestFirst);
    } finally {
      t.cleanup();
    }
  });
});
