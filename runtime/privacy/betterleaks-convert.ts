/**
 * Converts betterleaks' rule file (`config/betterleaks.toml`, MIT) into the data the redactor
 * runs (imported-rules.ts): each rule's pattern rewritten for JavaScript, its keywords, its
 * secret group and its filter as a tree (filter-expr.ts), and the file's global filter. Run by
 * `errata secrets rules import`, never at hook time. Pure: text in, data out.
 *
 * Left out, each with its reason: rules restricted to file paths or with no pattern (the
 * redactor sees text, not files), and rules betterleaks reports only as a part of another
 * (`skipReport`: client ids, hosts; not a secret alone upstream). Kept, with what is not
 * applied reported: a rule whose composite parts (`[[rules.required]]`) are not checked (it
 * is reported alone, which redacts more), a filter with unsupported parts (settled to the
 * side that redacts more, or dropped), and the file's path prefilter (no path is known).
 *
 * Example: `convertBetterleaks(text, { version: "v1.7.0", commit: "6381fa…" })`
 * -> `{ rules: [{ id: "1password-secret-key", src: "…", flags: "", keywords: ["a3-"], filter: {…} }, …], skipped: [...], notes: [...] }`.
 */
import { createHash } from "node:crypto";
import { parseFilter, type Expr } from "./filter-expr.js";
import { IMPORTED_RULES_FORMAT } from "./imported-rules.js";
import { re2ToJs, readRuleToml, RuleTomlError, type TomlRule } from "./rules-toml.js";

export { IMPORTED_RULES_FORMAT };

export interface ImportedRule {
  id: string;
  src: string;
  flags: string;
  keywords: string[];
  secretGroup?: number;
  filter?: Expr;
}

export interface ImportedRulesData {
  format: typeof IMPORTED_RULES_FORMAT;
  source: { name: "betterleaks"; path: string; version: string; commit: string; licence: string; sha256: string; importedAt: string };
  /** The file's global filter (applied to every rule's findings), or null. */
  global: Expr | null;
  rules: ImportedRule[];
  /** Every rule's keywords, lower-case, each once, for the pre-filter. */
  keywords: string[];
  skipped: Array<{ id: string; reason: string }>;
  /** What is not applied, by rule ("(global)" for the file's own filters). */
  notes: Array<{ id: string; note: string }>;
  /** The check on betterleaks' own samples, when the import was given them (import-rules-file.ts). */
  samples?: { checked: number; rules: number; failed: number };
}

export interface ConvertOptions {
  version: string;
  /** "" when not known. */
  commit: string;
  licence: string;
  path: string;
  importedAt: string;
}

/** The rule file is not betterleaks' layout: what was expected and what was found. */
export class BetterleaksInputError extends Error {
  constructor(
    message: string,
    readonly expected: string,
    readonly found: string,
  ) {
    super(message);
    this.name = "BetterleaksInputError";
  }
}

const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

export function convertBetterleaks(text: string, opts: ConvertOptions): ImportedRulesData {
  let toml;
  try {
    toml = readRuleToml(text);
  } catch (err) {
    if (err instanceof RuleTomlError) throw new BetterleaksInputError(`the rule file is not in betterleaks' TOML layout (${err.message})`, "betterleaks' config/betterleaks.toml", `a line outside its layout at ${err.message}`);
    throw err;
  }
  const title = str(toml.top["title"]) ?? "";
  if (!/betterleaks/i.test(title) && toml.top["betterleaksMinVersion"] === undefined) {
    throw new BetterleaksInputError("the rule file is not betterleaks'", 'a file whose title names betterleaks or that sets betterleaksMinVersion', title === "" ? "neither" : `title "${title.slice(0, 60)}"`);
  }
  if (toml.rules.length === 0) throw new BetterleaksInputError("the rule file holds no rule", "[[rules]] tables", "none");
  const notes: ImportedRulesData["notes"] = [];
  const skipped: ImportedRulesData["skipped"] = [];
  const rules: ImportedRule[] = [];
  const filterOf = (id: string, src: string | undefined): Expr | undefined => {
    if (src === undefined) return undefined;
    let parsed;
    try {
      parsed = parseFilter(src);
    } catch (err) {
      throw new BetterleaksInputError(`rule ${id}: its filter is not an expression betterleaks' language allows`, "an expression such as entropy(finding[\"secret\"]) <= 3.5", (err as Error).message);
    }
    for (const u of [...new Set(parsed.unsupported)]) notes.push({ id, note: `filter: ${u} not evaluated (${parsed.expr === null ? "filter dropped" : "taken as the side that keeps the finding"})` });
    return parsed.expr ?? undefined;
  };
  const global = filterOf("(global)", str(toml.top["filter"])) ?? null;
  if (toml.top["prefilter"] !== undefined) notes.push({ id: "(global)", note: "prefilter on file paths not applied (the redactor sees text, not files)" });
  const seen = new Set<string>();
  for (const r of toml.rules as TomlRule[]) {
    const id = str(r["id"]);
    if (id === undefined || !/^[a-z0-9][a-z0-9._-]*$/i.test(id)) throw new BetterleaksInputError("a rule has no usable id", "id = \"<rule-id>\"", JSON.stringify(r["id"] ?? null));
    if (seen.has(id)) throw new BetterleaksInputError(`rule ${id} is defined twice`, "each id once", `${id} twice`);
    seen.add(id);
    if (r["path"] !== undefined) {
      skipped.push({ id, reason: "restricted to file paths" });
      continue;
    }
    const regex = str(r["regex"]);
    if (regex === undefined) {
      skipped.push({ id, reason: "no pattern" });
      continue;
    }
    if (r["skipReport"] === true) {
      skipped.push({ id, reason: "reported only as a part of another rule (skipReport)" });
      continue;
    }
    let pattern;
    try {
      pattern = re2ToJs(regex);
    } catch (err) {
      skipped.push({ id, reason: `pattern not converted: ${(err as Error).message}` });
      continue;
    }
    const keywords = Array.isArray(r["keywords"]) ? (r["keywords"] as string[]).map((k) => k.toLowerCase()) : [];
    const rule: ImportedRule = { id, src: pattern.src, flags: pattern.flags, keywords };
    if (typeof r["secretGroup"] === "number") rule.secretGroup = r["secretGroup"];
    if (typeof r["entropy"] === "number") throw new BetterleaksInputError(`rule ${id} sets entropy as a number (gitleaks' layout)`, "betterleaks' layout (entropy inside filter)", "entropy = …");
    const filter = filterOf(id, str(r["filter"]));
    if (filter !== undefined) rule.filter = filter;
    if (r.required.length > 0) notes.push({ id, note: `composite: reported without checking its parts (${r.required.map((q) => str(q["id"])).join(", ")}) near it` });
    rules.push(rule);
  }
  return {
    format: IMPORTED_RULES_FORMAT,
    source: { name: "betterleaks", path: opts.path, version: opts.version, commit: opts.commit, licence: opts.licence, sha256: createHash("sha256").update(text).digest("hex"), importedAt: opts.importedAt },
    global,
    rules,
    keywords: [...new Set(rules.flatMap((r) => r.keywords))].sort(),
    skipped,
    notes,
  };
}
