import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { expect } from "vitest";
import { RecordRowSchema } from "../../schemas/erratum.js";

/**
 * Asserts every row of a record stream is a valid record row holding no text from the
 * ledger: no complaint, context text or enrichment prose appears in any row.
 * Returns the number of rows checked.
 */
export function assertRecordHasNoText(recordFile: string, ledgerDir: string): number {
  if (!existsSync(recordFile) || !statSync(recordFile).isFile()) return 0;
  const texts = ledgerTexts(ledgerDir).sort((a, b) => a.length - b.length);
  let n = 0;
  for (const line of readFileSync(recordFile, "utf8").split("\n")) {
    if (line === "") continue;
    const row = JSON.parse(line);
    // Strict schema: no field beyond ids and enums can be present.
    expect(RecordRowSchema.safeParse(row).success, line).toBe(true);
    // The only free strings are session and output ids: none may hold ledger text.
    for (const v of [row.session_id, ...row.output_ids] as Array<string | null>) {
      if (v === null) continue;
      for (const text of texts) {
        if (text.length > v.length) break;
        expect(v.includes(text), `record row holds ledger text ${JSON.stringify(text)}`).toBe(false);
      }
    }
    n += 1;
  }
  return n;
}

/** Every free-text value (complaint, context text, enrichment prose) in a ledger's live files. */
function ledgerTexts(ledgerDir: string): string[] {
  const out = new Set<string>();
  if (!existsSync(ledgerDir)) return [];
  for (const name of readdirSync(ledgerDir)) {
    if (!/^errata-\d{4}-\d{2}\.jsonl$/.test(name)) continue;
    for (const line of readFileSync(join(ledgerDir, name), "utf8").split("\n")) {
      let v: Record<string, unknown>;
      try {
        v = JSON.parse(line);
      } catch {
        continue;
      }
      const add = (s: unknown) => {
        if (typeof s === "string" && s.length >= 4) out.add(s);
      };
      add(v["complaint"]);
      const ctx = v["context"] as Record<string, unknown> | undefined;
      if (ctx) for (const k of ["requested", "doing", "response_preview", "component", "cwd"]) add(ctx[k]);
      const set = v["set"] as Record<string, unknown> | undefined;
      const en = (v["enrichment"] ?? set?.["enrichment"]) as Record<string, unknown> | null | undefined;
      if (en) for (const k of ["which_part", "what_upset", "reporter_right_reason", "root_cause_hypothesis", "proposed_fix"]) add(en[k]);
    }
  }
  return [...out];
}

/**
 * Finds every `.state/record.jsonl` under `root` and asserts it against its ledger (the
 * folder holding `.state`). Returns the number of rows checked.
 */
export function assertAllRecordsUnder(root: string): number {
  let rows = 0;
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const sub = join(dir, entry.name);
      if (entry.name === ".state") rows += assertRecordHasNoText(join(sub, "record.jsonl"), dir);
      else walk(sub);
    }
  };
  walk(root);
  return rows;
}
