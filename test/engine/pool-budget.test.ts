import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BudgetBook } from "../../runtime/engine/base/budget.js";
import { FairPool } from "../../runtime/engine/base/pool.js";

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

describe("FairPool", () => {
  it("never runs more than its limit at once (property)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 6 }), fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 40 }), async (limit, tasks) => {
        const pool = new FairPool(limit);
        let running = 0;
        let peak = 0;
        await Promise.all(
          tasks.map(([caller, ticks]) =>
            pool.run(caller, async () => {
              running++;
              peak = Math.max(peak, running);
              for (let i = 0; i < ticks; i++) await tick();
              running--;
            }),
          ),
        );
        expect(peak).toBeLessThanOrEqual(limit);
        expect(pool.maxActive).toBeLessThanOrEqual(limit);
        expect(pool.maxActive).toBeGreaterThanOrEqual(peak);
        expect(pool.active).toBe(0);
        if (tasks.filter(([, t]) => t > 0).length >= limit * 3) expect(pool.maxActive).toBe(limit);
      }),
      { numRuns: 80, seed: 7 },
    );
  });

  it("does not let a caller with a long queue starve another", async () => {
    const pool = new FairPool(2);
    const order: string[] = [];
    const jobs: Promise<void>[] = [];
    for (let i = 0; i < 50; i++) jobs.push(pool.run("bulk", async () => (await tick(), void order.push("bulk"))));
    jobs.push(pool.run("urgent", async () => void order.push("urgent")));
    await Promise.all(jobs);
    // The urgent call starts within the next round, not after the 50 bulk calls.
    expect(order.indexOf("urgent")).toBeLessThanOrEqual(3);
  });

  it("passes task errors to the caller and keeps going", async () => {
    const pool = new FairPool(1);
    await expect(pool.run("a", async () => Promise.reject(new Error("x")))).rejects.toThrow("x");
    await expect(pool.run("a", async () => 5)).resolves.toBe(5);
  });
});

describe("BudgetBook", () => {
  it("no caller ever exceeds its budget of requests or tokens (property)", () => {
    fc.assert(
      fc.property(
        fc.record({ a: fc.record({ requests: fc.integer({ min: 0, max: 20 }), tokens: fc.integer({ min: 0, max: 5000 }) }), b: fc.record({ requests: fc.integer({ min: 0, max: 20 }), tokens: fc.integer({ min: 0, max: 5000 }) }) }),
        fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.integer({ min: 1, max: 800 }), fc.option(fc.integer({ min: 0, max: 1000 }), { nil: null }), fc.boolean()), { maxLength: 120 }),
        (budgets, calls) => {
          const book = new BudgetBook(budgets, { requests: 5, tokens: 1000 });
          const open: { r: ReturnType<BudgetBook["reserve"]>; actual: number | null }[] = [];
          for (const [caller, bound, actual, settleNow] of calls) {
            const r = book.reserve(caller, bound);
            if (r.ok) {
              // A server reports at most the bound (the bound is an upper bound by construction).
              const used = actual === null ? null : Math.min(actual, bound);
              if (settleNow) book.settle(r, used);
              else open.push({ r, actual: used });
            }
            for (const c of ["a", "b", "c"]) {
              const u = book.usage(c);
              const limit = book.limitOf(c);
              expect(u.requests).toBeLessThanOrEqual(limit.requests ?? Infinity);
              expect(u.tokens).toBeLessThanOrEqual(limit.tokens ?? Infinity);
            }
          }
          for (const o of open) book.settle(o.r, o.actual);
          for (const c of ["a", "b", "c"]) {
            expect(book.usage(c).tokens).toBeLessThanOrEqual(book.limitOf(c).tokens ?? Infinity);
          }
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  it("refuses before sending and says which limit, and one caller's exhaustion leaves the other alone", () => {
    const book = new BudgetBook({ "errata-triage": { requests: 1 }, "errata-coverage": { tokens: 100 } });
    expect(book.reserve("errata-triage", 10).ok).toBe(true);
    expect(book.reserve("errata-triage", 10)).toEqual({ ok: false, reason: "budget of caller errata-triage exhausted: requests 1 of 1 used" });
    expect(book.reserve("errata-coverage", 60).ok).toBe(true);
    expect(book.reserve("errata-coverage", 60)).toMatchObject({ ok: false, reason: expect.stringContaining("tokens 60 of 100 used, this call may need 60") });
  });

  it("returns unused reserved tokens on settling, keeps them for an unknown outcome, and caps the lane", () => {
    const book = new BudgetBook({}, { tokens: 100 }, { requests: 3 });
    const r1 = book.reserve("x", 80);
    book.settle(r1, 20);
    expect(book.usage("x").tokens).toBe(20);
    const r2 = book.reserve("x", 80);
    book.settle(r2, null);
    expect(book.usage("x").tokens).toBe(100);
    expect(book.reserve("y", 1).ok).toBe(true);
    expect(book.reserve("z", 1)).toMatchObject({ ok: false, reason: "lane budget exhausted: requests 3 of 3 used" });
  });
});
