// The own rules' case-insensitive patterns rewritten without the `i` flag (caseless-expand.ts),
// which the hook's redactor part runs (caseless-table.ts, filled by scripts/bundle-hook.js):
// every rewritten character or class matches exactly the code units the original matched with
// the flag, over all 65,536; and the engine with the rewrites installed redacts every text of
// the corpus, the held-out sets, the upstream samples and real sessions (each also upper-cased,
// lower-cased and with its case swapped) exactly as without them.
//
// The comparison is the file's cost (each of ~5,000 texts redacted twice). `npm test` compares
// the texts whose FNV-1a hash is even, with their case variants (about half, the same on every
// run: test/helpers/full-run.ts); .ci/run compares every text (ERRATA_TEST_FULL=1).
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { caselessSource } from "../../runtime/privacy/caseless-expand.js";
import { caselessOf, setCaselessSources } from "../../runtime/privacy/caseless-table.js";
import { redactAll } from "../../runtime/privacy/engine.js";
import { EARLY_RULES, LATE_RULES, SPECIFIC_RULES } from "../../runtime/privacy/own-rules.js";
import { realReplies, realTurns, transcriptsDir } from "../../bench/redact-data.js";
import { HELD_OUT_DOORS_FILE, loadCorpus, PREFILTER_HELD_OUT_FILE } from "./corpus.js";
import { samples } from "./upstream-samples.js";
import { FULL_RUN, inTestPart } from "../helpers/full-run.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const caseInsensitive = [...EARLY_RULES, ...SPECIFIC_RULES, ...LATE_RULES].map((r) => r.re).filter((re) => re.flags.includes("i"));
/** Every code unit, once each (a non-unicode pattern reads a lone surrogate as one character). */
const ALL = Array.from({ length: 65536 }, (_, c) => String.fromCharCode(c)).join("");
const matched = (re: RegExp): string => [...ALL.matchAll(re)].map((m) => m.index).join(",");

describe("caselessSource", () => {
  it("rewrites letters and classes, keeps what the flag does not touch", () => {
    expect(caselessSource("ab[c-d]")).toBe("[Aa][Bb][C-Dc-d]");
    expect(caselessSource("\\d+\\s[0-9_-]{2,4}(?:x|\\.)$")).toBe("\\d+\\s[0-9_-]{2,4}(?:[Xx]|\\.)$");
    // A back-reference to a quote keeps; one to a group of letters cannot be rewritten.
    expect(caselessSource("([\"'])k\\1")).toBe("([\"'])[Kk]\\1");
    expect(caselessSource("(ab)\\1")).toBeNull();
    // The Kelvin sign equals no ASCII letter without the `u` flag; "µ" and "Μ" are equal.
    expect(new RegExp(caselessSource("[k]")!).test("\u212a")).toBe(false);
    expect(new RegExp(caselessSource("µ")!).test("Μ")).toBe(true);
  });

  it("rewrites every own rule's case-insensitive pattern, each character and class matching what it matched with the flag", () => {
    expect(caseInsensitive.length).toBeGreaterThan(5);
    const atoms = new Map<string, string>();
    for (const re of caseInsensitive) {
      const rewritten = caselessSource(re.source, (before, after) => atoms.set(before, after));
      expect(rewritten, re.source).not.toBeNull();
      expect(new RegExp(rewritten!, "g").source).toBe(rewritten);
    }
    expect(atoms.size).toBeGreaterThan(20);
    for (const [before, after] of atoms) expect(matched(new RegExp(after, "g")), before).toBe(matched(new RegExp(before, "gi")));
  });
});

describe("the engine with the rewrites installed", () => {
  afterAll(() => setCaselessSources([]));
  const table = caseInsensitive.map((re): [string, string] => [re.source, caselessSource(re.source)!]);
  const corpus = loadCorpus();
  const held = [loadCorpus(PREFILTER_HELD_OUT_FILE), loadCorpus(HELD_OUT_DOORS_FILE)];
  const turns = realTurns(transcriptsDir(repoRoot));
  const texts = [
    ...corpus.secrets.map((s) => s.text),
    ...corpus.lookAlikes.map((l) => l.text),
    ...held.flatMap((h) => [...h.secrets.map((s) => s.text), ...h.lookAlikes.map((l) => l.text)]),
    ...samples.map((s) => s.text),
    ...realReplies(turns),
    ...turns.map((t) => t.prompt),
  ];
  const swap = (t: string): string => [...t].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("");
  const variants = [...new Set(texts.filter((t) => inTestPart(t)).flatMap((t) => [t, t.toUpperCase(), t.toLowerCase(), swap(t)]))];

  it("runs the rewrites, not the rules as written", () => {
    setCaselessSources(table);
    for (const re of caseInsensitive) expect(caselessOf(re).flags.includes("i"), re.source).toBe(false);
  });

  it(`redacts every text${FULL_RUN ? "" : " of the part (those whose hash is even; ERRATA_TEST_FULL=1 takes all)"} and its case variants exactly as the rules as written do`, () => {
    // The part is about half of the texts, or the comparison proves little.
    expect(new Set(variants).size).toBeGreaterThan(texts.length * (FULL_RUN ? 0.99 : 0.3));
    let changed = 0;
    for (const t of variants) {
      setCaselessSources([]);
      const written = redactAll(t);
      setCaselessSources(table);
      expect(redactAll(t), t).toEqual(written);
      if (written.text !== t) changed++;
    }
    // Not vacuous: the corpus's secrets are changed.
    expect(changed).toBeGreaterThan(corpus.secrets.length);
    process.stdout.write(`caseless rewrites: ${variants.length} texts (${FULL_RUN ? "" : "those whose hash is even of "}${texts.length}, ${samples.length} of them upstream samples and ${turns.length} real turns' texts, and their case variants) redacted the same, ${changed} changed\n`);
  });
});
