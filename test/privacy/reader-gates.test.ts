/**
 * The gates before the eleventh set's readers and the context rule's scan
 * (runtime/privacy/reader-gates.ts): no text a reader finds something in fails its gate, on the
 * fixture sets (the corpus, every held-out doors set), generated texts made of the readers' own
 * triggers (fast-check), and the real sessions' texts when the shared data sets are present; a
 * join that fails the readers' gate has no part that passes it (assembled.ts `ruleOutReadings`).
 * Each text is tried as written, upper-cased and lower-cased.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mayHaveContextHit, mayHoldReadings } from "../../runtime/privacy/reader-gates.js";
import { assembledValues } from "../../runtime/privacy/assembled-find.js";
import { encodedSpans } from "../../runtime/privacy/assembled-encoded.js";
import { tableSpans } from "../../runtime/privacy/carried-tables.js";
import { contextSecretWitness } from "../../runtime/privacy/context-find.js";
import { sharedDatasets } from "../transcripts/fixtures.js";
import { HELD_OUT_DOORS_FILE, loadCorpus } from "./corpus.js";

/** What the gates stand before, for one text: [a reader found something, the pre-filter's context witness (a superset of the rule's finds) did]. */
function found(t: string): [boolean, boolean] {
  const readers = assembledValues(t).length > 0 || encodedSpans(t).length > 0 || tableSpans(t).length > 0;
  return [readers, contextSecretWitness(t)];
}

/** Counts of texts each gate let through and of texts a reader found something in; fails on a text a gate skips wrongly. */
function check(texts: Iterable<string>): { readers: number; context: number; passed: number; skipped: number } {
  const n = { readers: 0, context: 0, passed: 0, skipped: 0 };
  for (const w of texts) {
    for (const t of [w, w.toUpperCase(), w.toLowerCase()]) {
      const [readers, context] = found(t);
      const gate = mayHoldReadings(t);
      const hit = mayHaveContextHit(t, t.toLowerCase());
      if (readers) n.readers++;
      if (context) n.context++;
      if (gate) n.passed++;
      else n.skipped++;
      if (readers && !gate) expect([t, "readers"]).toEqual([t, "gate passes"]);
      if (context && !hit) expect([t, "context"]).toEqual([t, "gate passes"]);
    }
  }
  return n;
}

const fixtureTexts = (): string[] => {
  const files = [undefined, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9, 10, 11].map((k) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${k}.yaml`))];
  return files.flatMap((f) => {
    const { secrets, lookAlikes } = loadCorpus(f);
    return [...secrets.map((s) => s.text), ...lookAlikes.map((l) => l.text)];
  });
};

describe("reader gates", () => {
  it("no fixture text a reader or the context scan finds something in fails its gate; the gates skip some", () => {
    const n = check(fixtureTexts());
    // Not vacuous: the readers and the scan find something in many texts, and the gate rules some out.
    expect(n.readers).toBeGreaterThan(100);
    expect(n.context).toBeGreaterThan(300);
    expect(n.skipped).toBeGreaterThan(100);
  });

  // Pieces of the readers' triggers: quotes and joiners, char codes, hex and base64 runs, a table's header, names and words of secrets.
  const piece = fc.oneof(
    fc.constantFrom('"', "'", "`", " + ", " . ", "..", " & ", " || ", ", ", "(", ")", "[", "]", "{", "}", "$", "${", "%s", "{0}", "<<", ".join(", "concat(", "chr(", "0x4b", "65", "\n", "\t", " ", "=", ": ", "2=", "_2 = ", "|", ";"),
    fc.constantFrom("password", "secret", "token", "key", "pin", "credentials", "api_key", "DB_PASS", "Passwort ", "contraseña ", "пароль ", "密码 ", "user", "id", "name", "decode(", "base64", "id,user,password\n", "1,bob,", "id;name;token\n", "7;ann;"),
    fc.stringMatching(/^[A-Za-z0-9+/_-]{1,40}$/),
    fc.stringMatching(/^[0-9a-f]{8,40}$/),
    fc.constantFrom(Buffer.from("DB_PASSWORD=hunter2hunter2x").toString("base64"), Buffer.from("-----BEGIN OPENSSH PRIVATE KEY-----").toString("base64"), Buffer.from("pw Xk4mQ9vL2p").toString("hex")),
  );
  it("no generated text a reader or the context scan finds something in fails its gate (fast-check)", () => {
    let texts = 0;
    const n = { readers: 0, context: 0 };
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const r = check([parts.join("")]);
        texts++;
        n.readers += r.readers;
        n.context += r.context;
      }),
      { numRuns: 3000, seed: 20261207 },
    );
    expect(texts).toBe(3000);
    expect(n.readers).toBeGreaterThan(300);
    expect(n.context).toBeGreaterThan(300);
  });

  it("a join of texts by newlines that fails the readers' gate has no part that passes it (fast-check)", () => {
    let failed = 0;
    fc.assert(
      fc.property(fc.array(fc.array(fc.oneof({ arbitrary: fc.constantFrom("the", "run", "tests", " ", ". ", "2", "a1", "(x)", "'"), weight: 8 }, { arbitrary: piece, weight: 1 }), { maxLength: 8 }).map((p) => p.join("")), { minLength: 2, maxLength: 5 }), (parts) => {
        if (mayHoldReadings(parts.join("\n"))) return;
        failed++;
        for (const p of parts) expect([p, mayHoldReadings(p)]).toEqual([p, false]);
      }),
      { numRuns: 3000, seed: 20261207 },
    );
    expect(failed).toBeGreaterThan(100);
  });

  const dir = join(sharedDatasets, "claude-transcripts");
  it.skipIf(!existsSync(dir))("no line of the real sessions a reader or the context scan finds something in fails its gate", () => {
    const files = (d: string): string[] => readdirSync(d).sort().flatMap((f) => (statSync(join(d, f)).isDirectory() ? files(join(d, f)) : f.endsWith(".jsonl") ? [join(d, f)] : []));
    const lines = files(dir).flatMap((f) => readFileSync(f, "utf8").split("\n")).filter((l) => l.length > 0 && l.length < 20000);
    const n = check(new Set(lines));
    expect(n.passed + n.skipped).toBeGreaterThan(3000);
    expect(n.skipped).toBeGreaterThan(0);
  });
});
