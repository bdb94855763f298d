/**
 * The form checks every held-out set of secret shapes shares (held-out-doors-4..8.test.ts): the
 * ids new, no recipe prefix or expanded value another fixture file already has, every secret
 * documented and every look-alike explained, the recipes expanded once and the same on every load.
 * None of them runs the redactor, so a set still held out can be checked before its first run.
 *
 * Example: `describeHeldOutForm({ title: "the seventh held-out set: form", file, prefix: "h7-",
 * others: [CORPUS_FILE, …], minSecrets: 80, minLookAlikes: 20 })`
 */
import { describe, expect, it } from "vitest";
import { loadCorpus, parseFixture } from "./corpus.js";

interface RawEntry {
  id: string;
  secret?: string;
  /** The provider and shape of a secret (the fifth file on). */
  shape?: string;
  /** Where the provider documents the format: a URL, or "generic" (the fifth file on). */
  doc?: string;
  /** Why a look-alike is not a secret (the fifth file on). */
  why?: string;
}
const rawOf = (file: string): { secrets: RawEntry[]; lookalikes: RawEntry[] } => parseFixture<{ secrets: RawEntry[]; lookalikes: RawEntry[] }>(file);
/** A recipe's literal prefix before its first random part ("gsk_" of "gsk_{alnum:52}"). */
const literalPrefix = (recipe: string): string => recipe.split("{")[0]!;

export interface HeldOutForm {
  title: string;
  /** The set's YAML file. */
  file: string;
  /** Every id's prefix ("h7-"). */
  prefix: string;
  /** The other fixture files, whose ids, prefixes and values the set must not repeat. */
  others: readonly string[];
  minSecrets: number;
  minLookAlikes: number;
  /** Whether each entry says its shape, its documentation and why (the fifth file on; the fourth has no such fields). */
  documented?: boolean;
}

export function describeHeldOutForm(o: HeldOutForm): void {
  const set = loadCorpus(o.file);
  const mine = rawOf(o.file);
  const others = o.others.map(rawOf);
  describe(o.title, () => {
    it(`has at least ${o.minSecrets} secrets and ${o.minLookAlikes} look-alikes, ids unique here and new to the other fixture files`, () => {
      expect(set.secrets.length).toBeGreaterThanOrEqual(o.minSecrets);
      expect(set.lookAlikes.length).toBeGreaterThanOrEqual(o.minLookAlikes);
      const ids = [...set.secrets, ...set.lookAlikes].map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.filter((id) => !id.startsWith(o.prefix))).toEqual([]);
      const otherIds = new Set(others.flatMap((f) => [...f.secrets, ...f.lookalikes].map((e) => e.id)));
      expect(ids.filter((id) => otherIds.has(id))).toEqual([]);
    });

    it("no secret's literal prefix (4+ characters) is a shape another fixture file already has", () => {
      const theirs = new Set(others.flatMap((f) => f.secrets.map((s) => literalPrefix(s.secret ?? ""))).filter((p) => p.length >= 4));
      const dup = mine.secrets.filter((s) => literalPrefix(s.secret ?? "").length >= 4 && theirs.has(literalPrefix(s.secret ?? ""))).map((s) => s.id);
      expect(dup).toEqual([]);
    });

    it.runIf(o.documented ?? true)("every secret says its shape and where its format is documented; every look-alike says why it is not a secret", () => {
      const bad: string[] = [];
      for (const s of mine.secrets) {
        if (!s.shape?.trim()) bad.push(`${s.id}: no shape`);
        if (s.doc !== "generic" && !/^https:\/\/\S+/.test(s.doc ?? "")) bad.push(`${s.id}: doc is neither a URL nor "generic"`);
      }
      for (const l of mine.lookalikes) if (!l.why?.trim()) bad.push(`${l.id}: no why`);
      expect(bad).toEqual([]);
    });

    it("every secret is expanded, random in part, and appears once in its text; no look-alike holds a recipe", () => {
      const bad: string[] = [];
      for (const s of set.secrets) {
        const raw = mine.secrets.find((r) => r.id === s.id)!;
        if (!/\{\w+(:\d+)?\}/.test(raw.secret ?? "")) bad.push(`${s.id}: recipe without a random part`);
        if (/\{\w+(:\d+)?\}/.test(s.secret)) bad.push(`${s.id}: recipe not expanded`);
        if (s.secret.length < 8) bad.push(`${s.id}: secret shorter than 8`);
        if (s.text.split(s.secret).length !== 2) bad.push(`${s.id}: secret not exactly once in the text`);
        if (s.text.includes("{S}")) bad.push(`${s.id}: {S} left in the text`);
      }
      for (const l of set.lookAlikes) if (/\{S\}|\{\w+:\d+\}/.test(l.text)) bad.push(`${l.id}: a recipe in a look-alike`);
      expect(bad).toEqual([]);
    });

    it("no secret value is also in a look-alike, and no two secrets are equal", () => {
      const values = set.secrets.map((s) => s.secret);
      expect(new Set(values).size).toBe(values.length);
      const inLook = set.secrets.filter((s) => set.lookAlikes.some((l) => l.text.includes(s.secret))).map((s) => s.id);
      expect(inLook).toEqual([]);
    });

    it("no secret value (expanded) is a value or a piece of a text of another fixture file", () => {
      const theirs = o.others.map((f) => loadCorpus(f));
      const values = new Set(theirs.flatMap((c) => c.secrets.map((s) => s.secret)));
      const texts = theirs.flatMap((c) => [...c.secrets, ...c.lookAlikes].map((e) => e.text));
      const dup = set.secrets.filter((s) => values.has(s.secret) || texts.some((t) => t.includes(s.secret))).map((s) => s.id);
      expect(dup).toEqual([]);
    });

    it("expands the same on every load (the secrets come from the ids, not from the clock)", () => {
      expect(loadCorpus(o.file).secrets.map((s) => s.secret)).toEqual(set.secrets.map((s) => s.secret));
    });
    });
}
