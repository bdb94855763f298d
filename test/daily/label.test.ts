import { afterEach, describe, expect, it } from "vitest";
import { existsSync, readFileSync } from "node:fs";
import { runEnrich } from "../../runtime/jobs/daily/enrich.js";
import { engineEnricher, v3Judge } from "../../runtime/jobs/daily/enrich-embedded.js";
import { runLabel } from "../../runtime/jobs/daily/label.js";
import { tempDir } from "../helpers/io.js";
import { GOOD_REPLY, fakeEngine, fakeProse, seedLedger, stageCtx } from "./fixtures.js";

describe("label", () => {
  let t = tempDir();
  afterEach(() => {
    t.cleanup();
    t = tempDir();
  });

  it("writes audit labels and proposals apart from the ledger, once per label version; unscored entries wait", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }, { complaint: "wrong again [unscored]" }]);
    await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: fakeProse(() => GOOD_REPLY) });
    const ctx = stageCtx(t.dir);
    const ledgerBefore = JSON.stringify((await ctx.ledger.readAll()).errata);
    const out = await runLabel(ctx, v3Judge(fakeEngine(), "x"));
    expect(out.counts).toMatchObject({ candidates: 2, labelled: 1, unscored: 1, proposals: 2 });
    const labels = readFileSync(ctx.files.auditLabels, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(labels).toHaveLength(1);
    expect(labels[0]).toMatchObject({ schema: "audit-label/1", label_version: 1, labeler: "v3:embedded/fake-1" });
    expect(readFileSync(ctx.files.auditProposals, "utf8")).toContain(GOOD_REPLY.proposed_fix);
    // The ledger is untouched by labelling.
    expect(JSON.stringify((await stageCtx(t.dir).ledger.readAll()).errata)).toBe(ledgerBefore);
    const again = await runLabel(stageCtx(t.dir), v3Judge(fakeEngine(), "x"));
    expect(again.counts).toMatchObject({ candidates: 1, labelled: 0, proposals: 0, already: 1 });
  });

  it("without a judge nothing is labelled, and a dry run writes nothing", async () => {
    seedLedger(t.dir, [{ complaint: "no, wrong" }]);
    await runEnrich(stageCtx(t.dir), { embedded: engineEnricher(fakeEngine(), { caller: "x" }), prose: null });
    const none = await runLabel(stageCtx(t.dir), null);
    expect(none.counts["labelled"]).toBe(0);
    expect(none.notes[0]).toMatch(/no class judge/);
    const ctx = stageCtx(t.dir, { dryRun: true });
    const dry = await runLabel(ctx, v3Judge(fakeEngine(), "x"));
    expect(dry.counts["labelled"]).toBe(1);
    expect(existsSync(ctx.files.auditLabels)).toBe(false);
  });
});
