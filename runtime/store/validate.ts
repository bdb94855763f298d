/**
 * The ledger validator: reads every line of every month (live and archived) and lists every
 * problem with file and line: malformed JSON, shape (schema) problems, a machine source with
 * a rating, an enrichment naming no model, a rating off the 1-10 scale, an unknown system,
 * an illegal status transition, duplicate ids, orphan patches, a torn tail, an interrupted
 * rotation.
 *
 * Example: `validateLedger("/tmp/l", systems)` -> `{ lines: 12, errata: 9, patches: 3,
 * problems: [{ file: "errata-2026-11.jsonl", line: 7, code: "machine-source-rating", … }] }`
 */
import { foldLines, parseLine, type ParsedLine } from "./fold.js";
import { readAllText, type ReadProblem } from "./read-files.js";
import { checkErratumRules, checkPatchRules } from "./rules.js";

export interface ValidationReport {
  lines: number;
  errata: number;
  patches: number;
  problems: ReadProblem[];
}

export function validateLedger(ledgerDir: string, systems: ReadonlySet<string>): ValidationReport {
  const { lines, problems } = readAllText(ledgerDir);
  const parsed: ParsedLine[] = [];
  let counted = 0;
  for (const l of lines) {
    if (l.text.trim() === "") continue;
    counted += 1;
    const p = parseLine(l, problems);
    if (!p) continue;
    parsed.push(p);
    const ruleProblems = p.kind === "erratum" ? checkErratumRules(p.value, systems) : checkPatchRules(p.value.set, systems);
    for (const r of ruleProblems) {
      problems.push({ file: p.file, line: p.line, code: r.code, severity: "error", message: r.message, id: p.value.id });
    }
  }
  foldLines(parsed, problems);
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
  return {
    lines: counted,
    errata: parsed.filter((p) => p.kind === "erratum").length,
    patches: parsed.filter((p) => p.kind === "patch").length,
    problems,
  };
}
