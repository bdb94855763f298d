import { existsSync, readFileSync } from "node:fs";
import { AdjudicationSchema, type Adjudication } from "../../schemas/adjudication.js";
import { badInput, describeFound } from "../../core/errors.js";
import { appendWhole } from "../files/index.js";

/**
 * The adjudications file (`<ledger>/eval/adjudications.jsonl`, `adjudication/1` rows), apart
 * from the raw labels: read strictly (a bad line is bad input naming its line) and appended
 * one whole line at a time (a decision is never rewritten: a later row supersedes it, a
 * `withdrawn` row takes it back). The CLI's `eval adjudicate decide` and the page's adjudication
 * view both write through `appendAdjudication`.
 *
 * Example: `readAdjudications("eval/adjudications.jsonl")` -> `[{schema: "adjudication/1", …}]`.
 */
export function readAdjudications(file: string): Adjudication[] {
  if (!existsSync(file)) return [];
  const rows: Adjudication[] = [];
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch {
        throw badInput(`${file} line ${i + 1} is not JSON`, "one adjudication/1 JSON object per line", describeFound(line));
      }
      const p = AdjudicationSchema.safeParse(raw);
      if (!p.success) throw badInput(`${file} line ${i + 1} is not a valid adjudication/1 row`, `${p.error.issues[0]?.path.join(".") || "row"}: ${p.error.issues[0]?.message ?? "valid"}`, describeFound(line));
      rows.push(p.data);
    });
  return rows;
}

/** Appends one decision (validated by its schema first), fsynced: an acknowledged decision survives a crash. */
export function appendAdjudication(file: string, row: Adjudication): void {
  const valid = AdjudicationSchema.parse(row);
  appendWhole(file, Buffer.from(`${JSON.stringify(valid)}\n`), { fsync: true });
}
