/**
 * betterleaks' rules at run time (docs/privacy.md, "betterleaks' rules at run time"): the
 * reader of its filter language, the converter, the import command (bad input: exit 2, nothing
 * written), the merge with gitleaks' rules and the pre-filter's keywords; and, when the shared
 * data sets hold betterleaks' rule file (`upstream-secret-fixtures/betterleaks.toml`), that
 * every rule of it compiles and keeps its own samples' verdicts (fixtures.json). The examples
 * here are written for the purpose; none is betterleaks' text.
 *
 * Runs in a process of its own (test/helpers/isolated.ts): it sets the process's imported rules,
 * which the redactor's caches (upstream-verdict.ts) keep.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { convertBetterleaks, type ImportedRulesData } from "../../runtime/privacy/betterleaks-convert.js";
import { filterDiscards, type Finding } from "../../runtime/privacy/filter-eval.js";
import { parseFilter } from "../../runtime/privacy/filter-expr.js";
import { gitleaksFindings, gitleaksRule, gitleaksRules, resetImportedMerge } from "../../runtime/privacy/gitleaks.js";
import { importedRuleOf, KEPT_GITLEAKS_RULES, mergeImported } from "../../runtime/privacy/imported-rule.js";
import { importRulesFile } from "../../runtime/privacy/import-rules-file.js";
import { IMPORTED_KEYWORDS_FILE, IMPORTED_RULES_FILE, setImportedRules } from "../../runtime/privacy/imported-rules.js";
import { mayHoldSecret } from "../../runtime/privacy/prefilter.js";
import { redactSecrets } from "../../runtime/privacy/redact.js";
import { readRuleToml } from "../../runtime/privacy/rules-toml.js";
import { redactAll } from "../../runtime/privacy/engine.js";
import { cliIn } from "../helpers/cli-in.js";
import { BETTERLEAKS_RULES, UPSTREAM_FIXTURES } from "../helpers/skips.js";
import { haveSamples, samples, splitOf, type Sample, type Split } from "./upstream-samples.js";

const COMMIT = "0123456789abcdef0123456789abcdef01234567";
const opts = { version: "v9.9.9", commit: COMMIT, licence: "MIT", path: "rules.toml", importedAt: "2026-12-07T00:00:00.000Z" };

function finding(secret: string, line = `key = ${secret}`): Finding {
  const at = line.indexOf(secret);
  return { secret, match: secret, line, fragment_raw: line, match_start_idx: at, match_end_idx: at + secret.length, match_line_start_idx: 0, match_line_end_idx: line.length };
}
const discards = (src: string, f: Finding): boolean => {
  const p = parseFilter(src);
  if (p.expr === null) throw new Error("dropped");
  return filterDiscards(p.expr, f);
};

describe("betterleaks' filter language", () => {
  it("reads entropy, matchesAny (RE2 rewritten), containsAny (on the lower-cased text) and their namespace", () => {
    expect(discards('entropy(finding["secret"]) <= 3.5', finding("aaaabbbbcccc"))).toBe(true);
    expect(discards('filter.entropy(finding["secret"]) <= 3.5', finding("Zq8vR2mK9pLw4xTy"))).toBe(false);
    expect(discards('matchesAny(finding["secret"], [`(?i)^example`, `^\\$[A-Z_]+$`])', finding("EXAMPLEkey123"))).toBe(true);
    expect(discards('matchesAny(finding["secret"], [`(?i)^example`, `^\\$[A-Z_]+$`])', finding("$API_TOKEN"))).toBe(true);
    expect(discards('matchesAny(finding["secret"], [`(?i)^example`])', finding("Zq8vR2mK9pLw"))).toBe(false);
    expect(discards('containsAny(finding["secret"], ["dummy", "sample"])', finding("myDUMMYvalue"))).toBe(true);
    // Terms are matched as written against the lower-cased text, as betterleaks does.
    expect(discards('containsAny(finding["secret"], ["DUMMY"])', finding("myDUMMYvalue"))).toBe(false);
  });

  it("reads let, slices, findMatch, len, max/min, +, ?? and the (absent) file attributes", () => {
    const src = [
      "// a window of the line before the match",
      'let before = finding["fragment_raw"][max(finding["match_start_idx"] - 6, finding["match_line_start_idx"]):finding["match_start_idx"]];',
      'let name = filter.findMatch(before, `[\\w.-]{0,50}$`);',
      '(len(finding["secret"]) == 12 && containsAny(name + "=", ["pk_="]))',
      '|| matchesAny((attributes["path"] ?? ""), [`\\.lock$`])',
      '|| matchesAny(get(attributes, "path", ""), [`^$`]) && false',
    ].join("\n");
    expect(discards(src, finding("Zq8vR2mK9pLw", "use xapk_Zq8vR2mK9pLw"))).toBe(true);
    // The name is only the word characters right before the match.
    expect(discards(src, finding("Zq8vR2mK9pLw", "use pk_ Zq8vR2mK9pLw"))).toBe(false);
    expect(discards(src, finding("Zq8vR2mK9pLw", "use xask_Zq8vR2mK9pLw"))).toBe(false);
    expect(discards(src, finding("Zq8vR2mK9pLwX", "use xapk_Zq8vR2mK9pLwX"))).toBe(false);
  });

  it("settles what it cannot evaluate on the side that discards fewer findings, and says so", () => {
    // A positive disjunct: taken as false, the rest still applies.
    const a = parseFilter('entropy(finding["secret"]) < 3 || tokenizerSays(finding["secret"])');
    expect(a.unsupported).toEqual(["tokenizerSays()"]);
    expect(filterDiscards(a.expr!, finding("aaaaaaaaaaaa"))).toBe(true);
    expect(filterDiscards(a.expr!, finding("Zq8vR2mK9pLw"))).toBe(false);
    // Under a negation: taken as true, so the negation discards nothing.
    const b = parseFilter('!tokenizerSays(finding["secret"])');
    expect(filterDiscards(b.expr!, finding("anything-at-all"))).toBe(false);
    // Inside a comparison no constant is safe: the whole filter is dropped (nothing discarded).
    const c = parseFilter('len(unknownThing) > 3 || entropy(finding["secret"]) < 3');
    expect(c.expr).toBeNull();
    expect(c.unsupported).toEqual(["the name unknownThing"]);
    // Text that is no expression is an error, not a silent drop.
    expect(() => parseFilter("entropy(finding[")).toThrow();
  });
});

/** A small rule file in betterleaks' layout, written for these tests. */
const TOML = [
  'title = "betterleaks config"',
  "filter = '''",
  'matchesAny(finding["secret"], [`^\\$\\{[A-Z_]+\\}$`])',
  "'''",
  "[[rules]]",
  'id = "acme-api-token"',
  "regex = '''\\b(acme_[A-Za-z0-9]{24})\\b'''",
  'keywords = ["acme_"]',
  "filter = '''",
  'entropy(finding["secret"]) <= 3.5',
  "|| containsAny(finding[\"secret\"], [\"example\"])",
  "'''",
  "[[rules]]",
  'id = "acme-client-id"',
  "regex = '''\\b(acmeid_[0-9]{8})\\b'''",
  'keywords = ["acmeid_"]',
  "skipReport = true",
  "[[rules]]",
  'id = "acme-pair"',
  "regex = '''(?i)acme[_-]?pair\\s*=\\s*([a-z0-9]{20})'''",
  'keywords = ["acme"]',
  "[[rules.required]]",
  'id = "acme-client-id"',
  "withinLines = 3",
  "[[rules]]",
  'id = "sendgrid-api-token"',
  "regex = '''\\b(SG\\.[\\w=-]{22}\\.[\\w=-]{43})\\b'''",
  'keywords = ["sg."]',
  "[[rules]]",
  'id = "generic-api-key"',
  "regex = '''(?i)token\\s*=\\s*(\\w{12,})'''",
  'keywords = ["token"]',
  "[[rules]]",
  'id = "acme-file"',
  "path = '''\\.acme$'''",
].join("\n");

describe("the converter", () => {
  it("reads the layout: multi-line filters, required tables, skipReport and path rules, the global filter", () => {
    const t = readRuleToml(TOML);
    expect(t.rules.map((r) => r["id"])).toEqual(["acme-api-token", "acme-client-id", "acme-pair", "sendgrid-api-token", "generic-api-key", "acme-file"]);
    expect(t.rules[2]!.required).toEqual([{ id: "acme-client-id", withinLines: 3 }]);
    expect(t.rules[0]!["filter"]).toBe('entropy(finding["secret"]) <= 3.5\n|| containsAny(finding["secret"], ["example"])\n');
    const d = convertBetterleaks(TOML, opts);
    expect(d.rules.map((r) => r.id)).toEqual(["acme-api-token", "acme-pair", "sendgrid-api-token", "generic-api-key"]);
    expect(d.skipped).toEqual([
      { id: "acme-client-id", reason: "reported only as a part of another rule (skipReport)" },
      { id: "acme-file", reason: "restricted to file paths" },
    ]);
    expect(d.notes).toEqual([{ id: "acme-pair", note: "composite: reported without checking its parts (acme-client-id) near it" }]);
    expect(d.rules[1]!.flags).toBe("i");
    expect(d.keywords).toEqual(["acme", "acme_", "sg.", "token"]);
    expect(d.source).toMatchObject({ name: "betterleaks", version: "v9.9.9", commit: COMMIT, licence: "MIT" });
    expect(d.source.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a file that is not betterleaks' (gitleaks' layout, another title, a broken line)", () => {
    expect(() => convertBetterleaks('title = "gitleaks config"\n[[rules]]\nid = "x"\nregex = \'\'\'x\'\'\'\n', opts)).toThrow(/not betterleaks'/);
    expect(() => convertBetterleaks('title = "betterleaks config"\n[[rules]]\nid = "x"\nregex = \'\'\'x\'\'\'\nentropy = 3.5\n', opts)).toThrow(/entropy/);
    expect(() => convertBetterleaks('title = "betterleaks config"\n[rules\n', opts)).toThrow(/layout/);
    expect(() => convertBetterleaks('title = "betterleaks config"\n', opts)).toThrow(/no rule/);
  });
});

/** fixtures.json's layout, written for these tests: samples of acme-api-token and acme-pair (the last, gitleaks', is not read). */
function samplesFile(dir: string, pairTrue: string): string {
  const file = join(dir, "fixtures.json");
  const samples = [
    { source: "betterleaks", rule: "acme-api-token", expect: "secret", text: "ACME=acme_Zq8vR2mK9pLw4xTyNb7cQe3h" },
    { source: "betterleaks", rule: "acme-api-token", expect: "clean", text: "ACME=acme_aaaaaaaaaaaaaaaaaaaaaaaa" },
    { source: "betterleaks", rule: "acme-pair.1", expect: "secret", text: pairTrue },
    { source: "gitleaks", rule: "acme-pair", expect: "clean", text: "not betterleaks' sample: acme_pair = q8vr2mk9plw4xtynb7cq" },
  ];
  writeFileSync(file, JSON.stringify({ samples }));
  return file;
}

describe("errata secrets rules import", () => {
  // cliIn's ledger is not the default one: its state folder is beside it.
  const state = (dir: string): string => join(dir, "ledger", ".state");

  it("writes the converted rules and their keywords into the state folder, with release, commit, sha256 and licence; status shows them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "errata-bl-"));
    writeFileSync(join(dir, "rules.toml"), TOML);
    const none = await cliIn(dir, ["secrets", "rules", "status", "--json"]);
    expect(JSON.parse(none.out)).toEqual({ imported: false });
    const r = await cliIn(dir, ["secrets", "rules", "import", "rules.toml", "--release", "v9.9.9", "--commit", COMMIT, "--json"]);
    expect(r.code, r.err).toBe(0);
    const out = JSON.parse(r.out) as { file: string; keywords_file: string; rules: number; source: ImportedRulesData["source"]; samples: unknown };
    expect(out.rules).toBe(4);
    expect(out.samples).toBeNull();
    expect(out.file).toBe(join(state(dir), IMPORTED_RULES_FILE));
    expect(out.keywords_file).toBe(join(state(dir), IMPORTED_KEYWORDS_FILE));
    const data = JSON.parse(readFileSync(out.file, "utf8")) as ImportedRulesData;
    expect(data.source).toMatchObject({ version: "v9.9.9", commit: COMMIT, licence: "MIT" });
    expect(data.source.sha256).toBe(createHash("sha256").update(TOML).digest("hex"));
    expect((JSON.parse(readFileSync(out.keywords_file, "utf8")) as { keywords: string[] }).keywords).toEqual(data.keywords);
    const status = await cliIn(dir, ["secrets", "rules", "status"]);
    expect(status.code).toBe(0);
    expect(status.out).toContain(`betterleaks v9.9.9 (${COMMIT}), MIT, sha256 ${data.source.sha256}`);
    expect(status.out).toContain("4 rules (4 keywords), 2 left out, 1 notes; not checked on samples");
  });

  it("--licence is recorded as given (a fork's file under another licence)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "errata-bl-"));
    writeFileSync(join(dir, "rules.toml"), TOML);
    const r = await cliIn(dir, ["secrets", "rules", "import", "rules.toml", "--release", "v9.9.9", "--licence", "Apache-2.0", "--json"]);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { source: ImportedRulesData["source"] }).source.licence).toBe("Apache-2.0");
    expect((await cliIn(dir, ["secrets", "rules", "status"])).out).toContain("betterleaks v9.9.9, Apache-2.0, sha256 ");
  });

  it("--samples: a rule that fails its own samples is left out with the reason, the others checked and kept; --dry-run writes nothing", async () => {
    const dir = mkdtempSync(join(tmpdir(), "errata-bl-"));
    writeFileSync(join(dir, "rules.toml"), TOML);
    // acme-pair's true sample has a 19-character value: its pattern wants 20, so it fails.
    samplesFile(dir, "acme_pair = q8vr2mk9plw4xtynb7c");
    const dry = await cliIn(dir, ["secrets", "rules", "import", "rules.toml", "--release", "v9.9.9", "--samples", "fixtures.json", "--dry-run", "--json"]);
    expect(dry.code, dry.err).toBe(0);
    const d = JSON.parse(dry.out) as { rules: number; skipped: Array<{ id: string; reason: string }>; samples: { checked: number; rules: number; failed: Array<{ id: string }> }; would_write: string[] };
    expect(d.samples.checked).toBe(3);
    expect(d.samples.rules).toBe(2);
    expect(d.samples.failed.map((f) => f.id)).toEqual(["acme-pair"]);
    expect(d.skipped.find((s) => s.id === "acme-pair")?.reason).toBe("fails its own samples: a true sample gives no finding");
    expect(d.rules).toBe(3);
    expect(d.would_write).toEqual([join(state(dir), IMPORTED_RULES_FILE), join(state(dir), IMPORTED_KEYWORDS_FILE)]);
    expect(existsSync(state(dir))).toBe(false);
    // With a true sample the rule finds, every rule keeps its samples' verdicts and is written.
    samplesFile(dir, "acme_pair = q8vr2mk9plw4xtynb7cq");
    const r = await cliIn(dir, ["secrets", "rules", "import", "rules.toml", "--release", "v9.9.9", "--samples", "fixtures.json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain("samples: 3 checked on 2 rules, 0 failed");
    expect((await cliIn(dir, ["secrets", "rules", "status"])).out).toContain("4 rules (4 keywords), 2 left out, 1 notes; samples: 3 checked on 2 rules, 0 failed");
  });

  it("bad input: exit 2, a message saying what was expected and what was found, nothing written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "errata-bl-"));
    const put = (name: string, lines: string[]): string => {
      writeFileSync(join(dir, name), `${lines.join("\n")}\n`);
      return name;
    };
    const Q = "'''";
    const good = put("rules.toml", [TOML]);
    const rel = ["--release", "v9.9.9"];
    const cases: Array<[string[], RegExp]> = [
      [[put("gitleaks.toml", ['title = "gitleaks config"', "[[rules]]", 'id = "x"', `regex = ${Q}x${Q}`]), ...rel], /not betterleaks'[\s\S]*expected[\s\S]*title "gitleaks config"/],
      [[put("broken.toml", ['title = "betterleaks config"', "[[rules]]", 'id = "x"', `regex = ${Q}x`]), ...rel], /layout[\s\S]*unclosed ''' string/],
      [[put("table.toml", ['title = "betterleaks config"', "[rules.extra]"]), ...rel], /unexpected table \[rules\.extra\]/],
      [[put("filter.toml", ['title = "betterleaks config"', "[[rules]]", 'id = "x"', `regex = ${Q}x${Q}`, `filter = ${Q}entropy(finding["secret"]) <= ${Q}`]), ...rel], /rule x: its filter[\s\S]*expected[\s\S]*unexpected end/],
      [[put("norule.toml", ['title = "betterleaks config"']), ...rel], /no rule[\s\S]*\[\[rules\]\] tables/],
      [[good, "--release", "latest"], /--release[\s\S]*v1\.7\.0[\s\S]*latest/],
      [[good, ...rel, "--commit", "abc123"], /--commit[\s\S]*40 lower-case hex[\s\S]*abc123/],
      [["missing.toml", ...rel], /cannot read the rule file/],
      [[good, ...rel, "--samples", put("bad.json", ['{"rows": []}'])], /not fixtures.json's layout[\s\S]*no samples array/],
      [[good, ...rel, "--samples", put("other.json", [JSON.stringify({ samples: [{ source: "gitleaks", rule: "x", expect: "clean", text: "x" }] })])], /no betterleaks sample/],
    ];
    for (const [args, message] of cases) {
      const r = await cliIn(dir, ["secrets", "rules", "import", ...args]);
      expect(r.code, args.join(" ")).toBe(2);
      expect(r.err, args.join(" ")).toMatch(/expected/);
      expect(r.err, args.join(" ")).toMatch(message);
    }
    // Nothing was written: the state folder was never made. The good file then imports.
    expect(existsSync(state(dir))).toBe(false);
    expect((await cliIn(dir, ["secrets", "rules", "import", good, ...rel])).code).toBe(0);
    expect(existsSync(join(state(dir), IMPORTED_RULES_FILE))).toBe(true);
  });
});

describe("the redactor with imported rules", () => {
  afterEach(() => {
    setImportedRules(undefined);
    resetImportedMerge();
  });
  const data = convertBetterleaks(TOML, opts);
  const token = "acme_Zq8vR2mK9pLw4xTyNb7cQe3h";

  it("runs an imported rule gitleaks lacks, gated by its keyword; the pre-filter sees the keyword", () => {
    setImportedRules(null);
    resetImportedMerge();
    const text = `deploy with ${token} now`;
    expect(redactSecrets(text).text).not.toContain("[REDACTED:acme-api-token]");
    setImportedRules(data);
    resetImportedMerge();
    expect(mayHoldSecret("see acme_ docs")).toBe(true);
    // (Another text: the front remembers the redaction of one it has seen.)
    expect(redactSecrets(`${text}.`).text).toBe("deploy with [REDACTED:acme-api-token] now.");
    // Its filter and the file's global one let through what upstream discards.
    expect(redactSecrets("deploy with acme_aaaaaaaaaaaaaaaaaaaaaaaa now").text).toBe("deploy with acme_aaaaaaaaaaaaaaaaaaaaaaaa now");
    const lower = "x acme_example8vR2mK9pLw4xTyNb".toLowerCase();
    expect(gitleaksFindings(gitleaksRule("acme-api-token")!.rule, "x acme_example8vR2mK9pLw4xTyNb", { has: (k) => lower.includes(k) })).toEqual([]);
  });

  it("replaces gitleaks' rule of the same id in its place, keeps gitleaks' where betterleaks has none, and gitleaks' generic rule", () => {
    setImportedRules(null);
    resetImportedMerge();
    const before = gitleaksRules().map((r) => r.id);
    setImportedRules(data);
    resetImportedMerge();
    const after = gitleaksRules();
    const ids = after.map((r) => r.id);
    expect(ids.indexOf("sendgrid-api-token")).toBe(before.indexOf("sendgrid-api-token"));
    expect(gitleaksRule("sendgrid-api-token")!.rule.imported).toBe(true);
    expect(gitleaksRule("generic-api-key")!.rule.imported).toBeUndefined();
    expect(ids.filter((id) => !before.includes(id))).toEqual(["acme-api-token", "acme-pair"]);
    expect(after.length).toBe(before.length + 2);
    expect(gitleaksRule("github-pat")!.rule.imported).toBeUndefined();
  });
});

const haveRules = existsSync(BETTERLEAKS_RULES) && existsSync(UPSTREAM_FIXTURES);

describe.skipIf(!haveRules)("betterleaks' own rule file (shared data sets) and its samples", () => {
  const d = haveRules ? convertBetterleaks(readFileSync(BETTERLEAKS_RULES, "utf8"), opts) : null;
  const mine = samples.filter((s) => s.source === "betterleaks");

  it("every rule is converted or left out with a reason; what is not applied is listed", () => {
    expect(d!.rules.length).toBeGreaterThan(300);
    const reasons = new Set(d!.skipped.map((s) => s.reason));
    expect([...reasons].every((r) => /file paths|no pattern|skipReport/.test(r)), [...reasons].join("; ")).toBe(true);
    // The one unsupported function of v1.7.0, in the generic rule only; composites noted.
    const filterNotes = d!.notes.filter((n) => n.note.startsWith("filter"));
    expect(filterNotes.map((n) => n.id)).toEqual(["generic-api-key"]);
    process.stdout.write(`betterleaks ${d!.source.sha256.slice(0, 12)}: ${d!.rules.length} rules converted, ${d!.skipped.length} left out, ${d!.notes.length} notes\n`);
  });

  it("the import compiles every rule and checks it on its own samples: every true sample redacted whole, every false one without a finding", () => {
    const state = mkdtempSync(join(tmpdir(), "errata-bl-"));
    const r = importRulesFile(state, BETTERLEAKS_RULES, { version: "v1.7.0", commit: "", licence: "MIT", samples: UPSTREAM_FIXTURES, dryRun: true }, new Date(0));
    for (const rule of mergeImported([], r.data)) expect(() => rule.re(), rule.id).not.toThrow();
    expect(r.samples!.checked).toBeGreaterThan(700);
    expect(r.samples!.rules).toBeGreaterThan(200);
    expect(r.samples!.failed).toEqual([]);
    expect(r.data.rules.length).toBe(d!.rules.length);
    // --dry-run: nothing written.
    expect(existsSync(r.rulesFile) || existsSync(r.keywordsFile)).toBe(false);
    process.stdout.write(`betterleaks samples: ${r.samples!.checked} checked on ${r.samples!.rules} rules, ${r.samples!.failed.length} failed\n`);
  });

  it("the generic rule, converted but not run (gitleaks' is kept): every true sample found, false ones reported only for the tokenizer test", () => {
    const generic = d!.rules.find((r) => KEPT_GITLEAKS_RULES.has(r.id))!;
    const rule = importedRuleOf(generic, d!);
    const ofGeneric = mine.filter((s) => s.rule === generic.id);
    const verdict = (s: Sample): boolean => {
      const lower = s.text.toLowerCase();
      return gitleaksFindings(rule, s.text, { has: (k) => lower.includes(k) }).length > 0;
    };
    expect(ofGeneric.filter((s) => s.expect === "secret" && !verdict(s)).length).toBe(0);
    const reported = ofGeneric.filter((s) => s.expect === "clean" && verdict(s)).length;
    process.stdout.write(`betterleaks generic-api-key without its tokenizer test: ${reported} of ${ofGeneric.filter((s) => s.expect === "clean").length} false samples reported\n`);
  });
});

/**
 * The upstream samples (upstream-samples.ts) through the whole redactor, without and with
 * betterleaks' rules imported, in this one process (docs/privacy.md, "betterleaks' rules at run
 * time"): markers inside markers, true samples left whole or in part (the reference secrets are
 * those gitleaks' bundled rule and betterleaks' converted rule of the sample's id find, the same
 * in both runs), secretlint's expected findings left, false samples changed per split.
 */
describe.skipIf(!haveRules || !haveSamples)("the upstream samples without and with betterleaks' rules imported", () => {
  afterEach(() => {
    setImportedRules(undefined);
    resetImportedMerge();
  });

  interface Figures {
    nested: number;
    partial: string[];
    trueWhole: Set<string>;
    trueRedacted: number;
    trueAll: number;
    secretlintLeft: number;
    secretlintAll: number;
    falseChanged: Record<Split, [number, number]>;
  }

  it("no marker in a marker and no secret left in part either way; what the import changes, per split", () => {
    const data = convertBetterleaks(readFileSync(BETTERLEAKS_RULES, "utf8"), opts);
    const imported = new Map(data.rules.map((r) => [r.id, importedRuleOf(r, data)]));
    setImportedRules(null);
    resetImportedMerge();
    const reference = new Map<Sample, string[]>();
    for (const s of samples) {
      if (s.expect !== "secret" || s.spans !== undefined) continue;
      const id = s.rule.replace(/\.\d+$/, "");
      const lower = s.text.toLowerCase();
      const gate = { has: (k: string) => lower.includes(k) };
      const rules = [gitleaksRule(id)?.rule, imported.get(s.rule) ?? imported.get(id)].filter((r) => r !== undefined);
      reference.set(s, rules.flatMap((r) => gitleaksFindings(r, s.text, gate).map(([a, b]) => s.text.slice(a, b))));
    }
    const measure = (): Figures => {
      const f: Figures = { nested: 0, partial: [], trueWhole: new Set(), trueRedacted: 0, trueAll: 0, secretlintLeft: 0, secretlintAll: 0, falseChanged: { dev: [0, 0], "betterleaks odd": [0, 0], "held-out secretlint": [0, 0] } };
      for (const s of samples) {
        const out = redactAll(s.text).text;
        if (/\[REDACTED:[^\]]*\[REDACTED:/.test(out)) f.nested++;
        const bare = out.replace(/\[REDACTED:[^\]]*\]/g, " ");
        if (s.expect === "clean") {
          const row = f.falseChanged[splitOf(s)];
          row[1]++;
          if (out !== s.text) row[0]++;
        } else if (s.spans !== undefined) {
          for (const [a, b] of s.spans) {
            f.secretlintAll++;
            const whole = s.text.slice(a, b);
            const longest = (whole.match(/[A-Za-z0-9]{8,}/g) ?? []).sort((x, y) => y.length - x.length)[0];
            if (out.includes(whole) || (longest !== undefined && bare.includes(longest) && !/:\/\//.test(whole))) f.secretlintLeft++;
          }
        } else {
          f.trueAll++;
          const left = reference.get(s)!.some((secret) => {
            for (let i = 0; i + 8 <= secret.length; i++) if (/^[A-Za-z0-9]{8}$/.test(secret.slice(i, i + 8)) && bare.includes(secret.slice(i, i + 8))) return true;
            return false;
          });
          if (out === s.text) f.trueWhole.add(`${s.source}:${s.rule}`);
          else if (left) f.partial.push(`${s.source}:${s.rule}`);
          else f.trueRedacted++;
        }
      }
      return f;
    };
    const line = (f: Figures): string =>
      `nested ${f.nested}, in part ${f.partial.length}, true redacted ${f.trueRedacted}/${f.trueAll} (left whole ${f.trueWhole.size} rules), secretlint left ${f.secretlintLeft}/${f.secretlintAll}, false changed ` +
      (Object.entries(f.falseChanged) as Array<[Split, [number, number]]>).map(([k, [n, of]]) => `${k} ${n}/${of}`).join(", ");
    const without = measure();
    setImportedRules(data);
    resetImportedMerge();
    const withImport = measure();
    const lost = [...withImport.trueWhole].filter((r) => !without.trueWhole.has(r)).sort();
    const gained = [...without.trueWhole].filter((r) => !withImport.trueWhole.has(r)).sort();
    process.stdout.write(`upstream samples without an import: ${line(without)}\nupstream samples with betterleaks imported: ${line(withImport)}\n  in part without an import: ${without.partial.join(", ") || "none"}\n  true samples now left whole: ${lost.join(", ") || "none"}; now redacted: ${gained.join(", ") || "none"}\n`);
    expect(withImport.nested).toBe(0);
    expect(withImport.partial).toEqual([]);
    // One loss, on purpose (docs/privacy.md): betterleaks' sourcegraph rule takes only "sgp_" tokens, not gitleaks' bare 40 hex after the word.
    expect(lost).toEqual(["gitleaks:sourcegraph-access-token"]);
    expect(withImport.trueRedacted).toBeGreaterThan(without.trueRedacted);
    expect(withImport.secretlintLeft).toBeLessThanOrEqual(without.secretlintLeft);
    for (const split of Object.keys(without.falseChanged) as Split[]) expect(withImport.falseChanged[split][0], split).toBeLessThanOrEqual(without.falseChanged[split][0]);
    // As measured since issue 34's twelfth pass (docs/privacy.md "The twelfth pass"): ceilings, the imported
    // rules' lengths read by the near-miss test (near-miss.ts).
    expect(withImport.falseChanged.dev[0]).toBeLessThanOrEqual(52);
    expect(withImport.falseChanged["betterleaks odd"][0]).toBeLessThanOrEqual(39);
    expect(withImport.falseChanged["held-out secretlint"][0]).toBeLessThanOrEqual(11);
  });
});
