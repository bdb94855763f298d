/**
 * What `errata secrets push` sends an errata server (runtime/privacy/known-push.ts): only
 * values whose estimated strength keeps 72 bits after the 8 fingerprint bits the store gives
 * away, as salted hashes; the pushed store finds its values in any text (8-bit fingerprints)
 * and holds none of them.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mulberry32 } from "../../core/mulberry32.js";
import { planPush, PUSH_FP_BITS, PUSH_MIN_BITS, valueBits } from "../../runtime/privacy/known-push.js";
import { scrubWithStores } from "../../runtime/privacy/known-scrub.js";
import { storeSpans } from "../../runtime/privacy/known-values.js";
import { KnownPushSchema } from "../../schemas/known-values.js";

const B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const B36 = "abcdefghijklmnopqrstuvwxyz0123456789";

/** The share of 5,000 seeded random tokens of `n` characters of `alphabet` that would be pushed. */
function pushedShare(alphabet: string, n: number, seed: number): number {
  const rnd = mulberry32(seed);
  let pushed = 0;
  for (let k = 0; k < 5000; k++) {
    let v = "";
    for (let i = 0; i < n; i++) v += alphabet[Math.floor(rnd() * alphabet.length)];
    if (valueBits(v) >= PUSH_MIN_BITS) pushed++;
  }
  return pushed / 5000;
}

describe("what is strong enough to push", () => {
  it("keeps back what people choose: words, years, repeats, leet, placeholders", () => {
    const chosen = ["ObjectAdjustAcquire9!", "Zigzag-Savvy-Jukebox-7", "Strength&Honor2023!", "Blackjack#Quickstep77", "Summer2024!Summer", "purple-Monkey-dishwasher-42", "Tr0ub4dor&3", "correct-horse-battery-staple", "CorrectHorseBatteryStaple1!", "P@ssw0rd123456789", "hunter2hunter2", "MyDogRex2019!!", "ILoveNewYork2023!", "s3cr3tP@ssw0rd!!", "Welcome2Acme!Corp2024", "your_api_key_here_123456"];
    for (const v of chosen) expect(valueBits(v), v).toBeLessThan(PUSH_MIN_BITS);
    expect(valueBits("Summer2024!Summer")).toBe(28);
  });

  it("pushes random tokens, fewer the shorter they are: the shares the docs state", () => {
    // Measured with these seeds; the docs (docs/privacy.md, known-push.ts) quote them rounded.
    expect(pushedShare(B62, 16, 1)).toBeLessThan(0.01);
    expect(pushedShare(B62, 20, 2)).toBeCloseTo(0.92, 2);
    expect(pushedShare(B62, 24, 3)).toBeGreaterThan(0.99);
    expect(pushedShare(B62, 32, 4)).toBe(1);
    expect(pushedShare(HEX, 24, 5)).toBeCloseTo(0.93, 2);
    expect(pushedShare(HEX, 32, 6)).toBe(1);
    expect(pushedShare(B36, 32, 7)).toBeGreaterThan(0.99);
  });

  it("never estimates a random base62 or base64 token above what it holds (5.95 or 6 bits a character)", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...`${B62}+/`), minLength: 8, maxLength: 64 }), (v) => {
        expect(valueBits(v)).toBeLessThanOrEqual(Math.ceil(v.length * 6));
      }),
      { numRuns: 500 },
    );
  });
});

describe("the pushed store", () => {
  const strong = "Zq8vT2bLpR7sWk3mQ9xDfG";
  const weak = "Summer2024!Summer";
  const plan = planPush(
    [
      { from: "environment VENDOR_SESSION_TOKEN", value: strong },
      { from: "/home/me/app/.env DB_PASS", value: weak },
    ],
    "00112233445566778899aabbccddeeff",
  );

  it("holds the strong value's hash only, with 8 fingerprint bits, and names the weak one", () => {
    expect(plan.pushed).toEqual([{ from: "environment VENDOR_SESSION_TOKEN", bits: valueBits(strong) }]);
    expect(plan.held).toHaveLength(1);
    expect(plan.held[0]!.from).toBe("/home/me/app/.env DB_PASS");
    expect(plan.held[0]!.why).toMatch(/estimated 28 bits, under the 80/);
    expect(JSON.stringify(plan)).not.toContain(weak.slice(0, 8));
    expect(JSON.stringify(plan.store)).not.toContain(strong.slice(0, 8));
    expect(plan.store.fp_bits).toBe(PUSH_FP_BITS);
    expect(plan.store.entries).toHaveLength(1);
    expect(plan.store.entries[0]!.fp).toBeLessThan(256);
    expect(KnownPushSchema.safeParse(plan.store).success).toBe(true);
  });

  it("finds every occurrence of a pushed value in any text, and nothing else", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...`${B62} ,.:\n`), maxLength: 300 }), fc.string({ unit: fc.constantFrom(...`${B62} `), maxLength: 40 }), (a, b) => {
        const text = `${a}${strong}${b}${strong}`;
        const spans = storeSpans(text, plan.store);
        let expected = 0;
        for (let at = text.indexOf(strong); at >= 0; at = text.indexOf(strong, at + 1)) expected++;
        expect(spans).toHaveLength(expected);
        for (const [s, e] of spans) expect(text.slice(s, e)).toBe(strong);
      }),
      { numRuns: 300 },
    );
  });

  it("scrubs every string of a JSON value, keys and numbers kept", () => {
    const body = { prompt: `the staging one is ${strong}.`, tool_input: { command: `curl -u ${strong}:x`, n: 3 }, list: [strong, weak] };
    const out = scrubWithStores(body, [plan.store]);
    expect(out.replaced).toBe(3);
    expect(out.value).toEqual({ prompt: "the staging one is [REDACTED:known-secret].", tool_input: { command: "curl -u [REDACTED:known-secret]:x", n: 3 }, list: ["[REDACTED:known-secret]", weak] });
  });
});
