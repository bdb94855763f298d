/**
 * `errata secrets rules import` and `… rules status`: a betterleaks rule file converted
 * (betterleaks-convert.ts), every rule compiled and, given betterleaks' own samples
 * (`--samples fixtures.json`, the `tps`/`fps` of its generator as
 * scripts/extract-upstream-fixtures.js writes them), checked on them with the redactor
 * running the imported rules: each true sample must come out with the rule's secret wholly
 * redacted (no run of 8 of its letters and digits left), each false sample must give the rule
 * no finding. A rule that fails its own samples is left out, with its reason, so gitleaks'
 * bundled rule of that id (if any) stays in its place. Then the two files imported-rules.ts
 * reads are written into the state folder, each atomically (files/atomic.ts). Bad input (not
 * betterleaks' layout, a filter outside the language filter-expr.ts reads, a version or
 * commit that is not one, unreadable samples) throws before anything is written.
 *
 * Example: `importRulesFile(state, "betterleaks.toml", { version: "v1.7.0", licence: "MIT", samples: "fixtures.json" }, now)`
 * -> `{ rulesFile: "<state>/betterleaks-rules.json", data: { rules: [377 rules], … }, samples: { checked: 942, failed: [] } }`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { badInput } from "../../core/errors.js";
import { writeFileAtomic } from "../files/index.js";
import { BetterleaksInputError, convertBetterleaks, IMPORTED_RULES_FORMAT, type ImportedRulesData } from "./betterleaks-convert.js";
import { gitleaksFindings, resetImportedMerge } from "./gitleaks.js";
import { importedRuleOf } from "./imported-rule.js";
import { IMPORTED_KEYWORDS_FILE, IMPORTED_RULES_FILE, setImportedRules } from "./imported-rules.js";
import { redactSecrets } from "./redact.js";

/** One upstream sample (fixtures.json's `samples`): betterleaks' are `source: "betterleaks"`. */
interface Sample {
  source: string;
  rule: string;
  expect: "secret" | "clean";
  text: string;
}

/** What the samples said: how many were checked, and each that a rule failed (the rule is left out). */
export interface SampleCheck {
  file: string;
  checked: number;
  rules: number;
  failed: Array<{ id: string; expect: "secret" | "clean"; why: string }>;
}

export interface ImportResult {
  rulesFile: string;
  keywordsFile: string;
  data: ImportedRulesData;
  samples: SampleCheck | null;
}

export interface ImportOptions {
  version: string;
  /** The betterleaks commit, when known ("" when not). */
  commit: string;
  licence: string;
  /** fixtures.json with betterleaks' samples, or undefined to import unchecked. */
  samples?: string;
  /** Convert and check, write nothing. */
  dryRun?: boolean;
}

function readSamples(file: string): Sample[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw badInput(`cannot read the samples file ${file}`, "fixtures.json as scripts/extract-upstream-fixtures.js writes it", (err as Error).message);
  }
  const samples = (parsed as { samples?: unknown }).samples;
  const ok = (s: unknown): s is Sample => {
    const x = s as Partial<Sample>;
    return typeof x === "object" && x !== null && typeof x.source === "string" && typeof x.rule === "string" && (x.expect === "secret" || x.expect === "clean") && typeof x.text === "string";
  };
  if (!Array.isArray(samples) || !samples.every(ok)) throw badInput(`the samples file ${file} is not fixtures.json's layout`, '{ "samples": [{ "source", "rule", "expect": "secret"|"clean", "text" }] }', Array.isArray(samples) ? "a sample without those fields" : "no samples array");
  const mine = samples.filter((s) => s.source === "betterleaks");
  if (mine.length === 0) throw badInput(`the samples file ${file} holds no betterleaks sample`, 'samples with "source": "betterleaks"', `${samples.length} samples of other sources`);
  return mine;
}

/**
 * Each rule on its own samples (a sample's rule id may carry a ".N" suffix: its Nth variant),
 * with the redactor running `data`'s rules in this process. Returns the failures.
 */
function checkSamples(data: ImportedRulesData, samples: Sample[], file: string): SampleCheck {
  setImportedRules(data);
  resetImportedMerge();
  const byId = new Map(data.rules.map((r) => [r.id, importedRuleOf(r, data)]));
  const failed: SampleCheck["failed"] = [];
  const seen = new Set<string>();
  let checked = 0;
  for (const s of samples) {
    const rule = byId.get(s.rule) ?? byId.get(s.rule.replace(/\.\d+$/, ""));
    if (rule === undefined) continue;
    checked++;
    seen.add(rule.id);
    const lower = s.text.toLowerCase();
    const found = gitleaksFindings(rule, s.text, { has: (k) => lower.includes(k) });
    if (s.expect === "clean") {
      if (found.length > 0) failed.push({ id: rule.id, expect: s.expect, why: `a false sample gives a finding (${s.text.slice(found[0]![0], found[0]![1]).length} characters)` });
      continue;
    }
    if (found.length === 0) {
      failed.push({ id: rule.id, expect: s.expect, why: "a true sample gives no finding" });
      continue;
    }
    // The markers out first: a marker's kind may hold a run of the secret (configcat-sdk-1/…).
    const out = redactSecrets(s.text).text.replace(/\[REDACTED:[^\]]*\]/g, " ");
    const left = found.flatMap(([a, b]) => runsOf8(s.text.slice(a, b))).filter((run) => out.includes(run));
    if (left.length > 0) failed.push({ id: rule.id, expect: s.expect, why: `a true sample is redacted in part (${left.length} runs of 8 of its secret left)` });
  }
  setImportedRules(undefined);
  resetImportedMerge();
  return { file, checked, rules: seen.size, failed };
}

/** Every run of 8 letters and digits in a secret (a part left whole enough to leak). */
function runsOf8(secret: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 8 <= secret.length; i++) if (/^[A-Za-z0-9]{8}$/.test(secret.slice(i, i + 8))) out.push(secret.slice(i, i + 8));
  return out;
}

export function importRulesFile(stateDir: string, file: string, opts: ImportOptions, now: Date): ImportResult {
  if (!/^v?\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/.test(opts.version)) throw badInput("--release is not a release version", "a version such as v1.7.0", opts.version);
  if (opts.commit !== "" && !/^[0-9a-f]{40}$/.test(opts.commit)) throw badInput("--commit is not a commit", "40 lower-case hex digits", opts.commit);
  if (opts.licence.trim() === "") throw badInput("--licence is empty", "the rule file's licence, such as MIT", "nothing");
  const path = resolve(file);
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    throw badInput(`cannot read the rule file ${file}`, "a readable betterleaks.toml", (err as Error).message);
  }
  const samples = opts.samples === undefined ? null : readSamples(resolve(opts.samples));
  let data: ImportedRulesData;
  try {
    data = convertBetterleaks(text, { version: opts.version, commit: opts.commit, licence: opts.licence, path, importedAt: now.toISOString() });
  } catch (err) {
    if (err instanceof BetterleaksInputError) throw badInput(err.message, err.expected, err.found);
    throw err;
  }
  // Every rule compiles (the converter checked each pattern; this compiles what the redactor will).
  for (const r of data.rules) {
    try {
      new RegExp(r.src, `${r.flags}g`);
    } catch (err) {
      throw badInput(`rule ${r.id}: its pattern does not compile`, "a pattern JavaScript compiles", (err as Error).message);
    }
  }
  let check: SampleCheck | null = null;
  if (samples !== null) {
    check = checkSamples(data, samples, resolve(opts.samples!));
    const failing = new Set(check.failed.map((f) => f.id));
    if (failing.size > 0) {
      for (const id of failing) data.skipped.push({ id, reason: `fails its own samples: ${check.failed.filter((f) => f.id === id).map((f) => f.why).join("; ")}` });
      data.rules = data.rules.filter((r) => !failing.has(r.id));
      data.keywords = [...new Set(data.rules.flatMap((r) => r.keywords))].sort();
    }
    data.samples = { checked: check.checked, rules: check.rules, failed: check.failed.length };
  }
  const rulesFile = join(stateDir, IMPORTED_RULES_FILE);
  const keywordsFile = join(stateDir, IMPORTED_KEYWORDS_FILE);
  if (opts.dryRun !== true) {
    // The keywords file last: the pre-filter reads it, and a text it wakes finds the rules there.
    writeFileAtomic(rulesFile, `${JSON.stringify(data)}\n`);
    writeFileAtomic(keywordsFile, `${JSON.stringify({ source: data.source, keywords: data.keywords })}\n`);
    // This process reads them anew when it next redacts.
    setImportedRules(undefined);
    resetImportedMerge();
  }
  return { rulesFile, keywordsFile, data, samples: check };
}

/** What `errata secrets rules status` shows: the imported file's source and counts, or null when none. */
export interface ImportedStatus {
  file: string;
  source: ImportedRulesData["source"];
  rules: number;
  keywords: number;
  skipped: number;
  notes: number;
  samples: NonNullable<ImportedRulesData["samples"]> | null;
}

export function importedRulesStatus(stateDir: string): ImportedStatus | null {
  const file = join(stateDir, IMPORTED_RULES_FILE);
  if (!existsSync(file)) return null;
  let d: ImportedRulesData;
  try {
    d = JSON.parse(readFileSync(file, "utf8")) as ImportedRulesData;
  } catch (err) {
    throw badInput(`the imported rules file ${file} cannot be read`, `JSON of ${IMPORTED_RULES_FORMAT} (run the import again)`, (err as Error).message);
  }
  if (d.format !== IMPORTED_RULES_FORMAT) throw badInput(`the imported rules file ${file} is of another format`, IMPORTED_RULES_FORMAT, String(d.format));
  return { file, source: d.source, rules: d.rules.length, keywords: d.keywords.length, skipped: d.skipped.length, notes: d.notes.length, samples: d.samples ?? null };
}
