/**
 * `lang/<code>.rules.tsv`: every rule of one language as its whole regex read into a compact
 * tree (see prune.ts), generated with `lang/index.json` from the language files
 * (`writeIndexFile` in index-write.ts) and committed beside them. The classifier reads a
 * language's file when it first tries one of its rules, and parses one rule's line when it
 * first tries that rule: the hook neither reads nor checks a language file, nor parses a
 * regex.
 *
 * Format: a header line `capture-rules/1 <source_sha256>` (the index's: the language files
 * both were made from), then one line per rule: its signal, a tab, its tree as JSON.
 *
 * Example: `ruleTree("correction.en.no_strong", "en")` -> `[[["no"], "^(?:", …]]`.
 */
import { readFileSync } from "node:fs";
import { asciiJson, loadIndex } from "./index-file.js";
import { langFile } from "./lang-dir.js";
import type { CutTree } from "./prune.js";

export const RULES_SCHEMA = "capture-rules/1";

/** The files' bytes (kept outside the JavaScript heap; a rule's line is decoded when it is first tried). */
const files = new Map<string, Buffer>();

/** The file's bytes, read and checked against the index on first use. */
function ruleFile(lang: string): Buffer {
  let bytes = files.get(lang);
  if (bytes !== undefined) return bytes;
  const name = `lang/${lang}.rules.tsv`;
  bytes = readFileSync(langFile(`${lang}.rules.tsv`));
  const header = bytes.toString("utf8", 0, Math.max(0, bytes.indexOf(10)));
  const expected = `${RULES_SCHEMA} ${loadIndex().source_sha256}`;
  if (header !== expected) {
    throw new Error(`${name}: expected the header ${JSON.stringify(expected)} (made with lang/index.json from the same language files); found ${JSON.stringify(header.slice(0, 100))}. Regenerate both (see index-file.ts)`);
  }
  files.set(lang, bytes);
  return bytes;
}

/** A rule's compact regex tree (see prune.ts). */
export function ruleTree(signal: string, lang: string): CutTree {
  const bytes = ruleFile(lang);
  const key = `\n${signal}\t`;
  const at = bytes.indexOf(key);
  if (at < 0) throw new Error(`lang/${lang}.rules.tsv has no rule ${signal} (stale? regenerate it with the index, see index-file.ts)`);
  const from = at + Buffer.byteLength(key);
  const end = bytes.indexOf(10, from);
  return JSON.parse(bytes.toString("utf8", from, end < 0 ? bytes.length : end)) as CutTree;
}

/** A rule file's text (see the format above) from signal -> tree; characters outside ASCII as \u escapes. */
export function ruleFileText(sourceSha: string, trees: ReadonlyMap<string, CutTree>): string {
  let out = `${RULES_SCHEMA} ${sourceSha}\n`;
  for (const [signal, tree] of trees) out += `${signal}\t${asciiJson(JSON.stringify(tree))}\n`;
  return out;
}
