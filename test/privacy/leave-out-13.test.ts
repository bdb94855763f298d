/**
 * The thirteenth pass's general classes (made-values.ts: "tongues", "codes", "announced", "letters"; docs/privacy.md
 * "Thirteenth pass: general rules"), measured where they were not written from: they were written
 * from the first-run misses of sets 4 to 10 and general knowledge, and are counted here on what
 * main still missed of sets 11 and 12 when the pass began (first-run-misses.ts
 * `MAIN_MISSES_AT_13`, 24 and 18 items), whose texts were not read: the development script
 * printed ids and counts only. Through the front (redactSecrets), with the classes on and off
 * (context-families.ts' switch). Also: the classes change no look-alike of the corpus or of sets 3
 * to 12, and no secret of those sets is caught less with them on.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAMILIES_13, FAMILIES_OFF, type Family } from "../../runtime/privacy/context-families.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { CORPUS_FILE, HELD_OUT_DOORS_FILE, leakIn, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { MAIN_MISSES_AT_13 } from "./first-run-misses.js";

const fixture = (n: number) => join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`);
const sets = { 11: loadCorpus(fixture(11)), 12: loadCorpus(fixture(12)) };
const others = [CORPUS_FILE, PREFILTER_HELD_OUT_FILE, HELD_OUT_DOORS_FILE, ...[4, 5, 6, 7, 8, 9, 10, 11, 12].map(fixture)].map((f) => loadCorpus(f));

/** redactSecrets remembers its last 64 redactions (redact.ts, assembled.ts): 65 others between two runs of one text. */
function forget(): void {
  for (let i = 0; i < 65; i++) redactSecrets(`forget ${i}: password=Qz${i}x8LmW2pKr7T`);
}

/** The ids of set `n`'s listed misses the front takes whole, with the thirteenth classes `on` (the others left out). */
function taken(n: 11 | 12, on: readonly Family[]): string[] {
  FAMILIES_OFF.clear();
  for (const f of FAMILIES_13) if (!on.includes(f)) FAMILIES_OFF.add(f);
  forget();
  const byId = new Map(sets[n].secrets.map((s) => [s.id, s]));
  return MAIN_MISSES_AT_13[n].filter((id) => leakIn(redactSecrets(byId.get(id)!.text).text, byId.get(id)!.secret) === null);
}

afterEach(() => FAMILIES_OFF.clear());

describe("the thirteenth pass's general classes, on what main still missed of sets 11 and 12 (texts not read)", () => {
  it("take 2 of the 42: set 11's Wolof transcript (tongues) and Friulian passphrase (letters); none of set 12", () => {
    const rows: Record<string, { 11: string[]; 12: string[] }> = {};
    for (const [name, on] of [["none", []], ...FAMILIES_13.map((f) => [f, [f]]), ["all", FAMILIES_13]] as Array<[string, readonly Family[]]>) rows[name] = { 11: taken(11, on), 12: taken(12, on) };
    process.stdout.write(`thirteenth classes on main's misses (set 11 of 24, set 12 of 18):\n${Object.entries(rows).map(([k, r]) => `  ${k}: ${r[11].length} (${r[11].join(", ") || "none"}), ${r[12].length} (${r[12].join(", ") || "none"})`).join("\n")}\n`);
    expect(rows).toEqual({
      none: { 11: [], 12: [] },
      tongues: { 11: ["h11-prose-wolof-voice-transcript"], 12: [] },
      codes: { 11: [], 12: [] },
      announced: { 11: [], 12: [] },
      letters: { 11: ["h11-prose-friulian-passphrase"], 12: [] },
      all: { 11: ["h11-prose-friulian-passphrase", "h11-prose-wolof-voice-transcript"], 12: [] },
    });
  });

  it("change no look-alike of the corpus or sets 3 to 12, and lose no secret of them", () => {
    const run = (on: boolean) => {
      FAMILIES_OFF.clear();
      if (!on) for (const f of FAMILIES_13) FAMILIES_OFF.add(f);
      forget();
      return {
        looks: others.flatMap((c) => c.lookAlikes.map((l) => redactSecrets(l.text).text)),
        missed: others.flatMap((c) => c.secrets.filter((s) => leakIn(redactSecrets(s.text).text, s.secret) !== null).map((s) => s.id)),
      };
    };
    const off = run(false);
    const on = run(true);
    expect(on.looks).toEqual(off.looks);
    expect(on.missed.every((id) => off.missed.includes(id))).toBe(true);
  });
});
