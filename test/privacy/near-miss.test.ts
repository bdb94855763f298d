/**
 * Issue 34's twelfth pass (docs/privacy.md "The twelfth pass"): a prefixed token short of its
 * provider's format by 64 bits or more is a near-miss, kept (runtime/privacy/near-miss.ts); one a
 * few characters short, one longer than the format, one under a secret's name, one behind a prefix
 * no provider rule knows or that is a word, and one cut by a clip mark stay redacted. Values are
 * written for the purpose from a seeded PRNG, not taken from any upstream sample.
 */
import { describe, expect, it } from "vitest";
import { mulberry32 as prng } from "../../eval/prng.js";
import { gitleaksRule } from "../../runtime/privacy/gitleaks.js";
import { bitsPerChar, missingFor, providerFindersOf, unguessablyShort, wordPrefix, type Finder } from "../../runtime/privacy/near-miss.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";

const rand = prng(12);
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
/** `n` random letters and digits, with both cases and a digit. */
function r(n: number): string {
  let s = "";
  for (let i = 0; i < n; i++) s += ALNUM[Math.floor(rand() * ALNUM.length)];
  return `aZ${s.slice(2, -2)}47`;
}
const re = (src: string): Finder => (line) => [...line.matchAll(new RegExp(src, "g"))].map((m) => [m.index, m.index + m[0].length] as [number, number]);

describe("near-miss.ts: how short of a format a token is", () => {
  it("counts the characters a rule lacks, in the token's own alphabet", () => {
    const find = re("\\bzz_[a-z]{10}\\b");
    expect(missingFor(find, "x zz_abcdef y", 2, 11)).toBe(4);
    expect(missingFor(find, "x zz_abcdefghij y", 2, 15)).toBeNull(); // of the format already: a longer one never fits
    expect(missingFor(find, "x zz_ABCDEF y", 2, 11)).toBeNull(); // another alphabet: no length fits
    expect(missingFor(find, "x zz_abcdefghijkl y", 2, 17)).toBeNull(); // longer than the format
    expect(missingFor(re("\\bzz_[a-z]{10,}"), "x zz_abcdef y", 2, 11)).toBe(4); // a least length only
  });

  it("weighs what is missing at the body's alphabet, and wants every rule of the prefix to say short", () => {
    expect(bitsPerChar("0f3a9c")).toBe(4);
    expect(bitsPerChar("k3x9q2")).toBeCloseTo(5.17, 2);
    expect(bitsPerChar("aZ3x9Q")).toBeCloseTo(5.95, 2);
    expect(bitsPerChar("aZ3-9Q")).toBe(6);
    const line = `qqv_${"aZ3x9Q".repeat(4)}`;
    const long = re("\\bqqv_[A-Za-z0-9]{40}\\b");
    expect(unguessablyShort([long], line, 0, line.length, line.slice(4))).toBe(true); // 16 missing: 95 bits
    expect(unguessablyShort([re("\\bqqv_[A-Za-z0-9]{30}\\b")], line, 0, line.length, line.slice(4))).toBe(false); // 6: 36 bits
    expect(unguessablyShort([long, re("\\bqqv_[a-f0-9]{40}\\b")], line, 0, line.length, line.slice(4))).toBe(false);
    expect(unguessablyShort([], line, 0, line.length, line.slice(4))).toBe(false);
  });

  it("reads the prefix's provider rules: upstream's when any (GitHub's ghp_), else the own ones (Groq's gsk_); a word names none", () => {
    expect(providerFindersOf("ghp_x")).toHaveLength(1);
    expect(gitleaksRule("github-pat")).not.toBeNull();
    expect(providerFindersOf("gsk_x")).toHaveLength(1);
    expect(providerFindersOf("qzv_x")).toHaveLength(0);
    expect(wordPrefix("live_x")).toBe(true);
    expect(wordPrefix("test_x")).toBe(true);
    expect(wordPrefix("gsk_x")).toBe(false);
  });
});

describe("redactSecrets: a provider's prefix with a body far short of its format is kept (issue 34, twelfth pass)", () => {
  it.each([
    // Groq's own rule here takes gsk_ and 40 or more: 24 lack 16 (95 bits).
    () => `gsk_${r(24)}`,
    () => `the docs show gsk_${r(24)} as the shape of a key`,
    // GitHub's classic tokens are ghp_ and 36 (gitleaks' rule): 20 lack 16.
    () => `ghp_${r(20)}`,
  ])("keeps %#", (make) => {
    const text = make();
    expect(redactSecrets(text).text).toBe(text);
  });

  it.each([
    ["a few characters short (36 of 40: 24 bits)", () => `gsk_${r(36)}`],
    ["the own rule's length", () => `gsk_${r(56)}`],
    ["GitHub's, 6 short", () => `ghp_${r(30)}`],
    ["under a secret's name: the name vouches, whatever provider shares the prefix", () => `GROQ_API_KEY=gsk_${r(24)}`],
    ["under a token's name", () => `api_token = ghp_${r(20)}`],
    ["a prefix no provider rule knows", () => `qzv_${r(24)}`],
    ["a word before the body", () => `live_${r(24)}`],
    ["cut by a clip mark", () => `gsk_${r(24)}…`],
  ])("redacts a random body %s", (_why, make) => {
    const text = make();
    const body = /[A-Za-z0-9]{20,}/.exec(text)![0];
    expect(redactSecrets(text).text).not.toContain(body);
  });
});
