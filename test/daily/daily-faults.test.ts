import { afterEach, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { runDaily, type DailyDeps } from "../../runtime/jobs/daily/daily.js";
import { stageOutput } from "../../runtime/jobs/daily/context.js";
import { engineEnricher, v3Judge } from "../../runtime/jobs/daily/enrich-embedded.js";
import { readRunReceipts } from "../../runtime/jobs/daily/receipts.js";
import { runEnrich } from "../../runtime/jobs/daily/enrich.js";
import { runTriage } from "../../runtime/jobs/daily/triage.js";
import { tempDir } from "../helpers/io.js";
import { fakeEngine, fakeProse, seedLedger, stageCtx } from "./fixtures.js";

function deps(over: Partial<DailyDeps> = {}): DailyDeps {
  const engine = fakeEngine();
  return {
    mine: async () => ({ counts: { files: 0, appended: 0 } }),
    embedded: async () => engineEnricher(engine, { caller: "t" }),
    classJudge: async () => v3Judge(engine, "t"),
    prose: null,
    v4: async () => stageOutput({ exchanges: 0 }),
    promoted: null,
    ...over,
  };
}

describe("runDaily: fault isolation across the real stages", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("mine throwing: enrich, label, triage, report and v4 still run; the job fails and says which stage", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }]);
    const ctx = stageCtx(t.dir);
    const r = await runDaily(ctx, deps({ mine: async () => { throw new Error("transcripts unreadable"); } }));
    expect(r.failed).toEqual(["mine"]);
    expect(r.ok).toBe(false);
    expect(r.stages.filter((s) => s.ok).map((s) => s.name)).toEqual(["enrich", "label", "triage", "report", "v4", "ladder"]);
    expect(r.stages.find((s) => s.name === "enrich")?.counts["enriched"]).toBe(1);
    expect(existsSync(ctx.files.state)).toBe(true);
  });

  it("the engine failing to load fails enrich and label only; triage and report still run", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }]);
    const boom = async (): Promise<never> => {
      throw Object.assign(new Error("weights file corrupt"), { code: "BAD_CONFIG" });
    };
    const r = await runDaily(stageCtx(t.dir), deps({ embedded: boom, classJudge: boom }));
    expect(r.failed).toEqual(["enrich", "label"]);
    expect(r.stages.find((s) => s.name === "report")?.ok).toBe(true);
    const receipts = readRunReceipts(stageCtx(t.dir).files.runs).receipts;
    expect(receipts.find((x) => x.stage === "enrich")).toMatchObject({ ok: false, error_code: "BAD_CONFIG" });
    expect(receipts.find((x) => x.stage === "run")).toMatchObject({ ok: false, error_code: "STAGE_FAILED" });
  });

  it("a malformed model reply inside the daily run leaves the entry for the next run, and the run is ok", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }]);
    const r = await runDaily(stageCtx(t.dir), deps({ prose: fakeProse(() => "{not json") }), { skipMine: true });
    expect(r.ok).toBe(true);
    expect(r.stages.find((s) => s.name === "enrich")?.counts).toMatchObject({ enriched: 0, malformed: 1 });
    const { errata } = await stageCtx(t.dir).ledger.readAll();
    expect(errata[0]).toMatchObject({ status: "new", enrichment: null });
  });

  it("v4 throwing never fails the job", async () => {
    const r = await runDaily(stageCtx(t.dir), deps({ v4: async () => { throw new Error("no exchanges"); } }), { skipMine: true });
    expect(r).toMatchObject({ ok: true, failed: ["v4"] });
  });

  it("one entry's patch refused: the others are still closed, and the refusal is counted and logged", async () => {
    const [a, b, c] = seedLedger(t.dir, [{ complaint: "no, wrong" }, { complaint: "wrong again" }, { complaint: "still wrong" }]);
    await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "t" }), prose: null });
    const ctx = stageCtx(t.dir);
    const inner = ctx.ledger;
    ctx.ledger = {
      ...inner,
      readAll: () => inner.readAll(),
      append: (e) => inner.append(e),
      patch: async (id, set) => {
        if (id === b!.id) throw Object.assign(new Error(`illegal status transition for ${id}`), { code: "BAD_INPUT" });
        return inner.patch(id, set);
      },
    };
    const out = await runTriage(ctx, { file: false });
    expect(out.counts).toMatchObject({ entries: 3, closed: 2, refused: 1 });
    expect(ctx.logs.some((l) => l.includes(b!.id) && l.includes("patch refused"))).toBe(true);
    const byId = new Map((await stageCtx(t.dir).ledger.readAll()).errata.map((e) => [e.id, e.status]));
    expect([byId.get(a!.id), byId.get(b!.id), byId.get(c!.id)]).toEqual(["triaged", "enriched", "triaged"]);
  });
});
