/**
 * Leave sets out (docs/privacy.md "Generalisation, twelfth pass"): the first-run misses of the
 * held-out sets 4 to 11 (first-run-misses.ts), read by the redactor's general rules alone (the
 * rules of the set-specific passes 6 to 10 left out, as context-families-off.test.ts leaves them
 * out), without the twelfth pass's context families, with each family alone, and with all of
 * them. The families were written from the general misses of sets 4 to 8 (sets 4 and 5 had none
 * left: the passes after them are among the general rules), and their figures on sets 9 to 11 are
 * the leave-out figures: no text of those sets was read while they were written (their first
 * counts are in docs/privacy.md; the figures below are re-measured on every run). The redactor
 * here is the plain redactor and the text views (through-views.ts), not the front's readings of
 * assembled values (assembled.ts): set 11's first-run misses that the eleventh-set pass took are
 * counted by held-out-doors-11.test.ts.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FAMILIES, FAMILIES_13, FAMILIES_OFF, type Family } from "../../runtime/privacy/context-families.js";
import { redactAllExcept } from "../../runtime/privacy/engine.js";
import type { OwnRule } from "../../runtime/privacy/own-rules.js";
import { redactThroughViews } from "../../runtime/privacy/through-views.js";
import { CONFIG_RULES } from "../../runtime/privacy/own-configs.js";
import { TOOL_RULES } from "../../runtime/privacy/own-tools.js";
import { FAMILY_RULES } from "../../runtime/privacy/own-families.js";
import { FAMILY_FILE_RULES } from "../../runtime/privacy/own-families-files.js";
import { NINTH_RULES } from "../../runtime/privacy/own-families-9.js";
import { TENTH_RULES } from "../../runtime/privacy/own-families-10.js";
import { CONTEXT_RULES } from "../../runtime/privacy/own-contexts.js";
import { HELD_OUT_DOORS_FILE, leakIn, loadCorpus, type SecretCase } from "./corpus.js";
import { FIRST_RUN_MISSES } from "./first-run-misses.js";

const SETS = [4, 5, 6, 7, 8, 9, 10, 11] as const;
const texts = new Map<string, SecretCase>(SETS.flatMap((n) => loadCorpus(join(HELD_OUT_DOORS_FILE, "..", `held-out-doors-${n}.yaml`)).secrets.map((s) => [s.id, s] as const)));
const passRules: ReadonlySet<OwnRule> = new Set([...CONFIG_RULES, ...TOOL_RULES, ...FAMILY_RULES, ...FAMILY_FILE_RULES, ...NINTH_RULES, ...TENTH_RULES, ...CONTEXT_RULES.filter((r) => r.kind !== "context-secret")]);

/**
 * Set `n`'s first-run misses the general rules take whole, through the views, with `off` families
 * left out; the thirteenth pass's classes (made-values.ts) are left out too unless `with13`.
 */
function taken(n: number, off: readonly Family[], with13 = false): string[] {
  FAMILIES_OFF.clear();
  for (const f of with13 ? off : [...off, ...FAMILIES_13]) FAMILIES_OFF.add(f);
  const plain = (t: string) => redactAllExcept(t, (r) => passRules.has(r));
  return FIRST_RUN_MISSES[n]!.filter((id) => {
    const s = texts.get(id)!;
    return leakIn(redactThroughViews(s.text, plain(s.text), plain).text, s.secret) === null;
  });
}
const caught = (n: number, off: readonly Family[], with13 = false): number => taken(n, off, with13).length;

/** How many look-alikes of the corpus and sets 4 to 11 the general rules change, with `off` families left out. */
const lookAlikes = ["secret-corpus.yaml", ...SETS.map((n) => `held-out-doors-${n}.yaml`)].flatMap((f) => loadCorpus(join(HELD_OUT_DOORS_FILE, "..", f)).lookAlikes);
function hurt(off: readonly Family[]): string[] {
  FAMILIES_OFF.clear();
  for (const f of off) FAMILIES_OFF.add(f);
  const plain = (t: string) => redactAllExcept(t, (r) => passRules.has(r));
  return lookAlikes.filter((l) => redactThroughViews(l.text, plain(l.text), plain).text !== l.text).map((l) => l.id);
}

afterEach(() => FAMILIES_OFF.clear());

describe("the first-run misses of sets 4 to 11, the general rules with and without the twelfth pass's families", () => {
  it("are the ids the first runs listed, each in its set", () => {
    expect(SETS.map((n) => FIRST_RUN_MISSES[n]!.length)).toEqual([13, 23, 10, 24, 63, 29, 57, 103]);
    for (const n of SETS) for (const id of FIRST_RUN_MISSES[n]!) expect(texts.get(id)?.id.startsWith(`h${n}-`), id).toBe(true);
  });

  it("each family alone takes first-run misses of the sets it was not written from (9 to 11), and together they take more", () => {
    const rows: Record<string, number[]> = {};
    rows["none"] = SETS.map((n) => caught(n, FAMILIES));
    for (const f of FAMILIES) rows[f] = SETS.map((n) => caught(n, FAMILIES.filter((g) => g !== f)));
    rows["all"] = SETS.map((n) => caught(n, []));
    // The thirteenth pass's classes (written from sets 4 to 10: their figure on set 11 is held out; leave-out-13.test.ts counts the front's).
    for (const f of FAMILIES_13) rows[`all + ${f}`] = SETS.map((n) => caught(n, FAMILIES_13.filter((g) => g !== f), true));
    // The ids each family takes in the sets it was not written from (9 to 11), beside the general rules'.
    const before = new Set([9, 10, 11].flatMap((n) => taken(n, FAMILIES)));
    const byFamily = FAMILIES.map((f) => `  ${f}: ${[9, 10, 11].flatMap((n) => taken(n, FAMILIES.filter((g) => g !== f))).filter((id) => !before.has(id)).join(", ") || "none"}`);
    process.stdout.write(`taken in sets 9-11 by each family:\n${byFamily.join("\n")}\n`);
    process.stdout.write(`first-run misses taken (sets ${SETS.join(", ")}; of ${SETS.map((n) => FIRST_RUN_MISSES[n]!.length).join(", ")}):\n${Object.entries(rows).map(([k, v]) => `  ${k}: ${v.join(", ")}`).join("\n")}\n`);
    expect(rows).toEqual({
      none: [13, 23, 4, 13, 29, 11, 16, 25],
      words: [13, 23, 8, 13, 29, 12, 17, 26],
      names: [13, 23, 4, 15, 30, 11, 16, 27],
      pairs: [13, 23, 4, 15, 31, 12, 16, 25],
      calls: [13, 23, 5, 13, 35, 11, 16, 25],
      printed: [13, 23, 4, 13, 31, 11, 16, 25],
      lines: [13, 23, 4, 14, 31, 11, 16, 25],
      all: [13, 23, 9, 18, 43, 13, 17, 28],
      // The thirteenth pass's codes take set 10's recovery codes and recovery key; tongues, announced and letters
      // read the front's texts (carried-prose.ts), which this plain redactor does not run: leave-out-13.test.ts counts them.
      "all + tongues": [13, 23, 9, 18, 43, 13, 17, 28],
      "all + codes": [13, 23, 9, 18, 43, 13, 19, 28],
      "all + announced": [13, 23, 9, 18, 43, 13, 17, 28],
      "all + letters": [13, 23, 9, 18, 43, 13, 17, 28],
    });
  });

  it("no family changes a look-alike the general rules keep without it", () => {
    const none = hurt([...FAMILIES, ...FAMILIES_13]);
    expect(lookAlikes.length).toBe(365);
    for (const f of FAMILIES) expect(hurt([...FAMILIES.filter((g) => g !== f), ...FAMILIES_13]), f).toEqual(none);
    for (const f of FAMILIES_13) expect(hurt([...FAMILIES, ...FAMILIES_13.filter((g) => g !== f)]), f).toEqual(none);
    expect(hurt([])).toEqual(none);
  });
});
