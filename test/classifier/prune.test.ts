// The regex cutter (runtime/classifier/prune.ts): a rule's regex cut to one subject must match
// exactly where the whole regex does (same positions, same lengths), and reading a regex into
// a tree must lose nothing. Checked on every rule of every language, against the bundled typed
// prompts and generated texts made of the rules' own words.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { makeClassifier } from "../../runtime/classifier/classify.js";
import { ruleFlags, ruleSource } from "../../runtime/classifier/compile-core.js";
import { treeOf } from "../../runtime/classifier/index-build.js";
import { fromLines, indexFileText, indexFromBytes, loadIndex, withLazyFields } from "../../runtime/classifier/index-file.js";
import { freshIndex, freshRuleFiles } from "../../runtime/classifier/index-write.js";
import { languages, RULE_CATEGORIES } from "../../runtime/classifier/lang-data.js";
import { compactTree, cutRegex, parseRegex, SubjectRegex, treeSource, type CutTree } from "../../runtime/classifier/prune.js";
import { ruleTree } from "../../runtime/classifier/rule-files.js";
import { bundledExchanges } from "../helpers/exchanges.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const langDir = join(repoRoot, "runtime", "classifier", "lang");

interface Rule {
  signal: string;
  lang: string;
  source: string;
  flags: string;
}
const RULES: Rule[] = languages().flatMap((l) =>
  RULE_CATEGORIES.flatMap((category) => l[category].map((r) => ({ signal: `${category}.${l.code}.${r.id}`, lang: l.code, source: ruleSource(r.re, r.at, l.unspaced === true), flags: ruleFlags(r.at) }))),
);

/** Every match of a regex in a text: [index, length] (a global copy of it, stepping past empty matches). */
function matches(source: string, flags: string, text: string): Array<[number, number]> {
  const re = new RegExp(source, flags.includes("g") ? flags : `${flags}g`);
  const out: Array<[number, number]> = [];
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    out.push([m.index, m[0].length]);
    if (m[0].length === 0) re.lastIndex++;
  }
  return out;
}

/** Cut and whole agree on `text`: the same matches, and "cannot match" only where there are none. */
function agrees(tree: CutTree, rule: { source: string; flags: string }, text: string): void {
  const cut = cutRegex(tree, text);
  const whole = matches(rule.source, rule.flags, text);
  if (cut === null) expect(whole, `${rule.source} on ${JSON.stringify(text)}`).toEqual([]);
  else expect(matches(cut, rule.flags, text), `${cut} on ${JSON.stringify(text)}`).toEqual(whole);
}

const typedPrompts = (): string[] => bundledExchanges().map((e) => e.prompt.toLowerCase());

describe("reading a regex into a tree", () => {
  it("loses nothing: every rule's source comes back from its tree, and every rule can be read", () => {
    for (const r of RULES) {
      const tree = parseRegex(r.source);
      expect(tree, r.signal).not.toBeNull();
      expect(treeSource(compactTree(tree!)), r.signal).toBe(r.source);
    }
    const fillers = treeSource(loadIndex().fillers_tree);
    expect(fillers.startsWith("^(?:") && fillers.endsWith(")$")).toBe(true);
  });

  it("gives up on syntax whose cut could change a match (named groups, back-references, stray braces)", () => {
    for (const src of ["(?<x>a)", "(?:a)\\1", "a{", "a{x}", "(?=a)+", "^*", "\\k<x>"]) expect(parseRegex(src), src).toBeNull();
    expect(treeOf("(?<x>a)")).toEqual([[[], "(?<x>a)"]]);
  });

  it("keeps capturing groups' numbers: a dropped part that holds groups becomes one that fails at once", () => {
    const tree = compactTree(parseRegex("(?:x(a)|(b)y)(c)?(?:zz(d))?")!);
    const cut = cutRegex(tree, "by c");
    expect(cut).toBe("(?:(?!)()|(b)y)(c)?(?:(?!)())?");
    expect(new RegExp(cut!).exec("byc")).toEqual(new RegExp(treeSource(tree)).exec("byc"));
  });

  it("matches with the same groups as the whole regex: the rating and reply checks on the bundled prompts, replies and numbers", () => {
    const ix = loadIndex();
    const replies = bundledExchanges()
      .slice(0, 800)
      .flatMap((e) => (e.reply_end === null ? [] : [e.reply_end.toLowerCase()]));
    const texts = [...typedPrompts().slice(0, 1200), ...replies, "7/10", "8 out of 10", "i'd give it a 3", "nine", "10/10 great", "fix the 2 failing tests", "step 3", "rate: 4,5", "an 8/10 from me", "это на 7 из 10", "ich gebe dir eine 2", "dix sur dix", "want me to commit these changes", "is that right", "how would you rate this from 1 to 10?"];
    expect(replies.length).toBeGreaterThan(300);
    for (const [name, tree] of [...Object.entries(ix.rating), ...Object.entries(ix.reply)]) {
      const source = treeSource(tree);
      for (const text of texts) {
        const cut = cutRegex(tree, text);
        const whole = new RegExp(source).exec(text);
        if (cut === null) expect(whole, `${name} on ${JSON.stringify(text)}`).toBeNull();
        else expect(new RegExp(cut).exec(text), `${name} on ${JSON.stringify(text)}`).toEqual(whole);
      }
    }
  });

  it("knows the literal runs an alternative needs", () => {
    const tree = compactTree(parseRegex("no+pe|that'?s\\s+wrong|x\\.y|(?:a)?b")!);
    expect(tree.map((seq) => seq[0])).toEqual([["no", "ope"], ["that", "s", "wrong"], ["x.y"], ["b"]]);
  });
});

describe("a regex cut to its subject", () => {
  it("drops what cannot match, keeps what can, and says when nothing can", () => {
    const tree = compactTree(parseRegex("^(?:no|nope)\\s+(?:wrong|bad)(?!\\s+(?:idea|plan))")!);
    expect(cutRegex(tree, "no, bad")).toBe("^(?:no)\\s+(?:bad)");
    expect(cutRegex(tree, "nope bad idea")).toBe("^(?:no|nope)\\s+(?:bad)(?!\\s+(?:idea))");
    expect(cutRegex(tree, "yes")).toBeNull();
    // An optional group that cannot match is taken zero times; a required one sinks the whole.
    expect(cutRegex(compactTree(parseRegex("a(?:xyz)?b")!), "ab")).toBe("ab");
    expect(cutRegex(compactTree(parseRegex("a(?:xyz)b")!), "ab")).toBeNull();
    expect(cutRegex(compactTree(parseRegex("(?<=foo)bar")!), "bar")).toBeNull();
  });

  it("matches where the whole regex matches: every rule on the bundled typed prompts", () => {
    const prompts = typedPrompts();
    expect(prompts.length).toBeGreaterThan(3000);
    let cutSmaller = 0;
    for (const r of RULES) {
      const tree = compactTree(parseRegex(r.source)!);
      for (const text of prompts.slice(0, 600)) agrees(tree, r, text);
      const cut = cutRegex(tree, prompts[0] ?? "");
      if (cut === null || cut.length < r.source.length) cutSmaller++;
    }
    // The point of cutting: most rules shrink (or vanish) on a given prompt.
    expect(cutSmaller).toBeGreaterThan(RULES.length / 2);
  });

  it("matches where the whole regex matches: generated texts of the rules' own words", () => {
    const words = [...new Set(RULES.flatMap((r) => r.source.split(/[^a-z'\u00df-\u024f\u0400-\u04ff]+/)).filter((w) => w.length > 0))];
    const text = fc
      .array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(" ", " ", ", ", ". ", "! ", "'", "-", "  ", "?! ", "\n")), { minLength: 1, maxLength: 14 })
      .map((parts) => parts.map(([w, s]) => w + s).join(""));
    const trees = RULES.map((r) => compactTree(parseRegex(r.source)!));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: RULES.length - 1 }), text, (k, t) => {
        agrees(trees[k] as CutTree, RULES[k] as Rule, t);
      }),
      { numRuns: 4000, seed: 23 },
    );
  });

  it("cut against a text with a prefix, matches where the whole regex does on the prefix and any part of the text (testNear's windows)", () => {
    const words = [...new Set(RULES.flatMap((r) => r.source.split(/[^a-z'\u00df-\u024f\u0400-\u04ff]+/)).filter((w) => w.length > 0))];
    const text = fc
      .array(fc.tuple(fc.constantFrom(...words), fc.constantFrom(" ", ", ", ". ", "'", "-", "  ")), { minLength: 2, maxLength: 16 })
      .map((parts) => parts.map(([w, s]) => w + s).join(""));
    const trees = RULES.map((r) => compactTree(parseRegex(r.source)!));
    const prefix = "\u0001 ";
    fc.assert(
      fc.property(fc.integer({ min: 0, max: RULES.length - 1 }), text, fc.nat(), fc.nat(), (k, t, a, b) => {
        const from = a % t.length;
        const to = from + (b % (t.length - from + 1));
        const window = `${prefix}${t.slice(from, to)}`;
        const rule = RULES[k] as Rule;
        const cut = cutRegex(trees[k] as CutTree, t, prefix);
        const whole = matches(rule.source, rule.flags, window);
        if (cut === null) expect(whole).toEqual([]);
        else expect(matches(cut, rule.flags, window)).toEqual(whole);
      }),
      { numRuns: 4000, seed: 29 },
    );
    // A run with a character of the prefix is kept: " foo" is in the window "\u0001 foo", not in "xfoo".
    const tree = compactTree(parseRegex("(?:\\ foo|bar)")!);
    expect(cutRegex(tree, "xfoo")).toBeNull();
    expect(cutRegex(tree, "xfoo", prefix)).toBe("(?:\\ foo)");
  });

  it("a SubjectRegex cuts its first uses, then compiles the whole regex once", () => {
    const re = new SubjectRegex(compactTree(parseRegex("^(?:hmm+|ok)$")!), "");
    expect(re.on("ok")?.source).toBe("^(?:ok)$");
    expect(re.on("yes")).toBeNull();
    expect(re.whole).toBeNull();
    expect(re.on("ok")?.source).toBe("^(?:hmm+|ok)$");
    expect(re.whole).not.toBeNull();
  });
});

describe("classifying with cut regexes", () => {
  it("gives the verdicts of whole regexes on every typed prompt of the bundled corpora", () => {
    const cut = makeClassifier({ cutUses: Infinity });
    const whole = makeClassifier({ cutUses: 0 });
    const exchanges = bundledExchanges();
    for (const e of exchanges) expect(cut(e.prompt, { previousReply: e.reply_end })).toEqual(whole(e.prompt, { previousReply: e.reply_end }));
    expect(exchanges.length).toBeGreaterThan(3000);
  });
});

describe("the generated files", () => {
  it("the committed rule files match the language files (regenerate: see index-file.ts)", () => {
    for (const [code, text] of Object.entries(freshRuleFiles())) expect(readFileSync(join(langDir, `${code}.rules.tsv`), "utf8"), code).toBe(text);
  });

  it("a rule's tree from its file is its regex", () => {
    for (const r of RULES) expect(treeSource(ruleTree(r.signal, r.lang)), r.signal).toBe(r.source);
  });

  it("the committed index is written in the lazy layout, and any JSON layout of it reads the same", () => {
    const bytes = readFileSync(join(langDir, "index.json"));
    expect(bytes.toString("utf8")).toBe(indexFileText(freshIndex()));
    expect(fromLines(bytes)).not.toBeNull();
    // tsc's re-indented copy (dist/) takes the fallback and gives the same index.
    const indented = Buffer.from(JSON.stringify(JSON.parse(bytes.toString("utf8")), null, 2));
    expect(fromLines(indented)).toBeNull();
    expect(indexFromBytes(indented)).toEqual(indexFromBytes(bytes));
    expect(() => indexFromBytes(Buffer.from('{"eager":{"schema":"capture-index/0"},\n"rating":{},\n"reply":{}}\n'))).toThrow(/expected schema capture-index\/3/);
  });

  it("the hook's bundle holds the index's eager fields as a literal, its lazy fields read from the file (withLazyFields)", () => {
    const file = readFileSync(join(langDir, "index.json"), "utf8");
    const eagerText = file.slice('{"eager":'.length, file.indexOf("\n") - 1);
    // As scripts/bundle-hook.js writes it: the eager fields as an object literal.
    const literal = withLazyFields(new Function(`return (${eagerText});`)() as Parameters<typeof withLazyFields>[0]);
    expect(literal).toEqual(loadIndex());
    expect(literal.rating).toEqual(loadIndex().rating);
    expect(literal.reply).toEqual(loadIndex().reply);
    // A literal of another index (the file changed since the bundle was built) says so at the first lazy read.
    const stale = withLazyFields({ ...(JSON.parse(eagerText) as Parameters<typeof withLazyFields>[0]), source_sha256: "0".repeat(64) });
    expect(() => stale.rating).toThrow(/changed since the hook's bundle was built/);
    expect(() => withLazyFields({ ...(JSON.parse(eagerText) as Parameters<typeof withLazyFields>[0]), schema: "capture-index/0" as "capture-index/3" })).toThrow(/expected schema/);
  });
});
