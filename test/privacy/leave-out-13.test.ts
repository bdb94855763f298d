/**
 * The thirteenth pass's general classes (made-values.ts: "tongues", "codes"; docs/privacy.md
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
import { FAMILIES_13, FAMILIES_OFF } from "../../runtime/privacy/context-families.js";
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

/** The ids of set `n`'s listed misses the front takes whole, with the thirteenth classes on or off. */
function taken(n: 11 | 12, on: boolean): string[] {
  FAMILIES_OFF.clear();
  if (!on) for (const f of FAMILIES_13) FAMILIES_OFF.add(f);
  forget();
  const byId = new Map(sets[n].secrets.map((s) => [s.id, s]));
  return MAIN_MISSES_AT_13[n].filter((id) => leakIn(redactSecrets(byId.get(id)!.text).text, byId.get(id)!.secret) === null);
}

afterEach(() => FAMILIES_OFF.clear());

describe("the thirteenth pass's general classes, on what main still missed of sets 11 and 12 (texts not read)", () => {
  it("take 1 of the 42: set 11's Wolof transcript (tongues); none of set 12", () => {
    const off = { 11: taken(11, false), 12: taken(12, false) };
    const on = { 11: taken(11, true), 12: taken(12, true) };
    process.stdout.write(`thirteenth classes on main's misses: set 11 ${on[11].length}/24 (${on[11].join(", ") || "none"}), set 12 ${on[12].length}/18 (${on[12].join(", ") || "none"}); off: ${off[11].length}, ${off[12].length}\n`);
    expect(off).toEqual({ 11: [], 12: [] });
    expect(on).toEqual({ 11: ["h11-prose-wolof-voice-transcript"], 12: [] });
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
