// The JSONL store: patches folded at read (and kept in the store's folded view), the receipt
// written before the erratum so a crash between the two is finished by the retry with its key,
// a torn receipt line skipped, and a reopened store reading the same.
import { appendFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newErratum } from "../../runtime/store/index.js";
import { openJsonlStore } from "../../runtime/stores/index.js";
import { tempDir } from "../helpers/io.js";

const T0 = Date.parse("2026-11-30T12:00:00Z");
const reporter = { id: "rp-0123456789abcdef", role: "customer" };
const erratum = (complaint: string) => newErratum({ nowMs: T0, complaint, reporter, instance: "acme", source: "customer", channel: "api" });
const enrichment = {
  schema: "enrichment/1" as const, how_upset: 2, which_part: "the total", what_upset: "wrong total", reporter_right: true,
  reporter_right_reason: "the sum is off", root_cause_hypothesis: "rounding", class: null, proposed_fix: "round once", confidence: 0.8, model: "gpt-test", enrichment_version: "enrich/3",
};

describe("the JSONL store", () => {
  it("folds a patch into what it lists, before and after it is reopened", async () => {
    const { dir } = tempDir();
    const store = openJsonlStore(dir);
    const a = await store.append("acme", erratum("first"), null);
    expect((await store.list("acme", 0, 10)).items.map((i) => i.erratum.status)).toEqual(["new"]);
    await store.patch("acme", a.id, { status: "enriched", enrichment }, "2026-12-01T08:00:00.000Z");
    const b = await store.append("acme", erratum("second"), null);
    const page = await store.list("acme", 0, 10);
    expect(page.items.map((i) => [i.seq, i.erratum.id, i.erratum.status, i.updated])).toEqual([
      [1, a.id, "enriched", "2026-12-01T08:00:00.000Z"],
      [2, b.id, "new", "2026-11-30T12:00:00.000Z"],
    ]);
    const again = await openJsonlStore(dir).list("acme", 0, 10);
    expect(again.items).toEqual(page.items);
    await expect(store.patch("acme", a.id, { status: "new" }, "2026-12-02T00:00:00.000Z")).rejects.toThrow(/illegal status transition/);
    await expect(store.patch("globex", a.id, { status: "enriched", enrichment }, "2026-12-02T00:00:00.000Z")).rejects.toThrow(/no erratum/);
  });

  it("finishes an erratum whose receipt was written before a crash, under the recorded id, once", async () => {
    const { dir } = tempDir();
    mkdirSync(join(dir, "tenants", "acme", "ledger"), { recursive: true });
    // What a server killed between the two writes leaves: a receipt and no erratum, then a torn line.
    appendFileSync(join(dir, "tenants", "acme", "intake.jsonl"), `${JSON.stringify({ seq: 1, id: "er-20261130-abcdef", key: "k-1" })}\n{"seq":2,"id":"er-2026`);
    const store = openJsonlStore(dir);
    expect((await store.list("acme", 0, 10)).items).toEqual([]);
    const retried = await store.append("acme", erratum("the retried post"), "k-1");
    expect(retried).toEqual({ id: "er-20261130-abcdef", seq: 1, created: true });
    expect(await store.append("acme", erratum("the retried post"), "k-1")).toEqual({ ...retried, created: false });
    const next = await store.append("acme", erratum("a new one"), "k-2");
    expect(next.seq).toBe(2);
    const reopened = openJsonlStore(dir);
    expect((await reopened.list("acme", 0, 10)).items.map((i) => [i.seq, i.erratum.complaint])).toEqual([[1, "the retried post"], [2, "a new one"]]);
  });
});
