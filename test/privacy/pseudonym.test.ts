import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { isPseudonym, loadOrCreateReporterKey, pseudonymize } from "../../runtime/privacy/pseudonym.js";
import { memoryIo, tempDir } from "../helpers/io.js";

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-pseudo-");
});
afterEach(() => t.cleanup());

describe("reporter pseudonyms", () => {
  it("are stable under one key, differ across keys, normalise e-mails", () => {
    const k1 = loadOrCreateReporterKey(join(t.dir, "a"));
    const k2 = loadOrCreateReporterKey(join(t.dir, "b"));
    expect(loadOrCreateReporterKey(join(t.dir, "a")).equals(k1)).toBe(true);
    const p = pseudonymize("Ana@Example.com ", k1);
    expect(p).toMatch(/^rp-[0-9a-f]{16}$/);
    expect(isPseudonym(p)).toBe(true);
    expect(pseudonymize("ana@example.com", k1)).toBe(p);
    expect(pseudonymize("ana@example.com", k2)).not.toBe(p);
    expect(pseudonymize("bo@example.com", k1)).not.toBe(p);
  });
  it("the key is private to its owner (mode 0600) and 32 bytes", () => {
    const dir = join(t.dir, "s");
    const key = loadOrCreateReporterKey(dir);
    expect(key.length).toBe(32);
    expect(statSync(join(dir, "reporter-key")).mode & 0o777).toBe(0o600);
  });
  it("an e-mail given as reporter id is never stored in clear", async () => {
    const m = memoryIo({ env: { ERRATA_DIR: t.dir, HOME: t.dir } });
    expect(await run(["add", "it deleted my branch", "--reporter-id", "Customer.One@example.org", "--reporter-role", "customer", "--source", "customer"], m.io)).toBe(0);
    const line = readFileSync(join(t.dir, "errata-2026-11.jsonl"), "utf8");
    expect(line.toLowerCase()).not.toContain("customer.one@example.org");
    expect(JSON.parse(line).reporter).toEqual({ id: pseudonymize("customer.one@example.org", loadOrCreateReporterKey(join(t.dir, ".state"))), role: "customer" });
  });
});
