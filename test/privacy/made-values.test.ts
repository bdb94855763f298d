/**
 * The thirteenth pass's general classes (runtime/privacy/made-values.ts), on own examples written
 * for this file (none from a held-out set): what each takes through the front, and near texts it
 * keeps. Values are made here, not copied.
 */
import { afterEach, describe, expect, it } from "vitest";
import { FAMILIES_13, FAMILIES_OFF } from "../../runtime/privacy/context-families.js";
import { codeSpans, englishLine, hexKey, madeToken } from "../../runtime/privacy/made-values.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";

afterEach(() => FAMILIES_OFF.clear());

const taken = (text: string, value: string): boolean => !redactSecrets(text).text.includes(value);
const kept = (text: string): boolean => redactSecrets(text).text === text;

describe("made-values: a generator's token, a key's hex, a code", () => {
  it("madeToken reads a generator's letters (few vowels, two digits), not words, hex or long one-case ids", () => {
    expect(["qx7mlw2prz9k", "Vtrk9Hw2Zqpl", "BXQ8ZT4WKPLM"].map(madeToken)).toEqual([true, true, true]);
    expect(["Berlin2024x", "iPhone15ProMax", "abc123def456", "9f3b2c1d4e5f6071", "npub1a84kl9x99nu50uc2njjgcv0sm57jv"].map(madeToken)).toEqual([false, false, false, false, false]);
    expect([hexKey("5c1e9a7f3b2d4e6f8a0b1c2d3e4f5a6b"), hexKey("5c1e9a7f3b2d4e6f8a0b1c2d3e4f5a6b7c8d9e0f")]).toEqual([true, false]);
    expect([englishLine("use this one for the staging box"), englishLine("Ia ora na, te parau no te tavini")]).toEqual([true, false]);
  });

  it("codeSpans takes equal dashed groups of letters and digits, a block of them, a recovery key of digits", () => {
    expect(codeSpans("activation: 7KQ2-9XZP-4WR2-BY8H done")).toEqual([[12, 31]]);
    expect(codeSpans("k7q2m-9xzpd\nm4wrt-2tbyq\n8hqcz-5nvdw\n").length).toBe(3);
    expect(codeSpans("key 418320-095511-736402-118904-552078-903311").length).toBe(1);
    // Not: a UUID, a date, a slug of words, a card's four digit groups, mixed case, a product key's 5x5 capitals, a path's part.
    for (const t of ["id 3f2b8c1e-9a7d-4e3f-b6c2-1d8e7a9f0b3c", "on 2026-12-07-1530", "read-only-file-mode", "card 4111-1111-1111-1111", "83xq-PL92-mzQ7-t4Kw", "W7KQ2-9XZPM-4WR2T-BY8HQ-C5NVD", "/srv/ab12-cd34-ef56-gh78/x"]) expect(codeSpans(t), t).toEqual([]);
  });
});

describe("made-values through the front, each class on alone", () => {
  const only = (f: (typeof FAMILIES_13)[number]): void => {
    FAMILIES_OFF.clear();
    for (const g of FAMILIES_13) if (g !== f) FAMILIES_OFF.add(g);
  };

  it("tongues: a generator's token in a sentence not in English; kept in English and beside an id's word", () => {
    only("tongues");
    expect(taken("Ia ora na, te parau huna no te tavini o qx7mlw2prz9k, eiaha e faaite.", "qx7mlw2prz9k")).toBe(true);
    expect(taken("Mo ndai ki a koe te waehere 5c1e9a7f3b2d4e6f8a0b1c2d3e4f5a6b mo te tūmau hou.", "5c1e9a7f3b2d4e6f8a0b1c2d3e4f5a6b")).toBe(true);
    expect(kept("for the router use qx7mlw2prz9k as the login, it changes every month")).toBe(true);
    expect(kept("Te build qx7mlw2prz9k i pakaru i te pō nei, me tirotiro ano.")).toBe(true);
    // Off, the same sentence with another token (redactSecrets remembers its last texts) is kept.
    FAMILIES_OFF.add("tongues");
    expect(kept("Ia ora na, te parau huna no te tavini o vbx4tqr8kzw2, eiaha e faaite.")).toBe(true);
  });

  it("announced: a generator's token alone on its line after a few words ending with a colon; kept after an id's label", () => {
    only("announced");
    expect(taken("Nuwe waarde vir die bediener:\n\n    qx7mlw2prz9k\n", "qx7mlw2prz9k")).toBe(true);
    expect(kept("Container ID:\nm3c9rzq1x2v7k8w5n4b")).toBe(true);
    expect(kept("Kupu hou:\nfoo(qx7mlw2prz9k)")).toBe(true);
  });

  it("letters: a passphrase of random letter groups wherever it stands; kept: a slug of words", () => {
    only("letters");
    expect(taken("Ang gamiton mo amo ang grvtk-plmzsw-hxtrq sa server.", "grvtk-plmzsw-hxtrq")).toBe(true);
    expect(kept("use the read-only-file and text-gray-light classes here")).toBe(true);
    expect(kept("the strncpy-safe-wrap helper is gone")).toBe(true);
  });

  it("codes: a code of dashed groups in any line", () => {
    only("codes");
    expect(taken("Saved codes:\n\nk7q2m-9xzpd\nm4wrt-2tbyq\n8hqcz-5nvdw\n", "m4wrt-2tbyq")).toBe(true);
    expect(kept("Order 2026-12-07 shipped; card 4111-1111-1111-1111 on file")).toBe(true);
  });
});
