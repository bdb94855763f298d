/**
 * The pre-filter's hand-told witness gates (runtime/privacy/witness-gates.ts) against the
 * patterns they stand for: generated texts made of the patterns' own pieces, every code point
 * around a match, and the real texts of the shared data sets when present.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { GATE_PATTERNS } from "../../runtime/privacy/witness-gates.js";
import { sharedDatasets } from "../transcripts/fixtures.js";

const pieces = [".key9:", ":5432:", ":", "::", "*", ".", "-", "_", "1", "22", "443", "5432", "65535", "123456", "a", "ab", "abcd", "key9", "abcdefghij", "abcdefghijklmnopqrstuvwxyz0123", " ", "\n", "A", "Z", "é", "/", "@"];
const text = fc.array(fc.constantFrom(...pieces), { maxLength: 30 }).map((p) => p.join(""));

describe("witness gates told by hand", () => {
  for (const [gate, re] of GATE_PATTERNS()) {
    it(`${re.source}: the pattern's answer on generated texts (fast-check)`, () => {
      let held = 0;
      fc.assert(
        fc.property(text, (t) => {
          expect(gate.test(t), JSON.stringify(t)).toBe(re.test(t));
          if (re.test(t)) held++;
        }),
        { numRuns: 20000 },
      );
      // Not vacuous: both answers occur.
      expect(held).toBeGreaterThan(100);
      expect(held).toBeLessThan(19800);
    });

    it(`${re.source}: the pattern's answer with every code point in a match's places`, () => {
      const made = ["db:5432:app", "x:*:y", ".abcd:abcdefghijklmnopqrstuvwxyz0123", "q.abcdefghijkl:abcdefghijklmnopqrstuvwxyz0123"];
      for (const m of made) {
        for (let at = 0; at <= m.length; at++) {
          for (let c = 0; c < 0x3000; c++) {
            const t = m.slice(0, at) + String.fromCharCode(c) + m.slice(at + 1);
            if (gate.test(t) !== re.test(t)) expect([t, gate.test(t)]).toEqual([t, re.test(t)]);
          }
        }
      }
    });
  }

  const dir = join(sharedDatasets, "claude-transcripts");
  it.skipIf(!existsSync(dir))("the pattern's answer on every line of the real sessions, lower-cased", () => {
    const files = (d: string): string[] => readdirSync(d).sort().flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : n.endsWith(".jsonl") ? [join(d, n)] : []));
    let lines = 0;
    for (const f of files(dir)) {
      for (const line of readFileSync(f, "utf8").split("\n")) {
        const t = line.toLowerCase();
        lines++;
        for (const [gate, re] of GATE_PATTERNS()) if (gate.test(t) !== re.test(t)) expect([t.slice(0, 200), gate.test(t)]).toEqual([t.slice(0, 200), re.test(t)]);
      }
    }
    expect(lines).toBeGreaterThan(1000);
  });
});
