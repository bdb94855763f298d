import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ExchangeSchema } from "../../../schemas/exchange.js";
import { LabelSchema } from "../../../schemas/label.js";
import { ErrataError } from "../../../core/errors.js";
import type { ImportResult } from "../rows/rows.js";

/**
 * Validates every exchange and label against its schema, checks that ids are unique and that
 * every label names an exchange, and only then writes `exchanges.jsonl` and `labels.jsonl` in
 * `dir` (each through a temporary file and a rename). Bad rows write nothing.
 *
 * Example: `writeImport(importAbRedial(csv), "datasets/ab-redial")` → `{exchanges: ".../exchanges.jsonl", labels: ".../labels.jsonl"}`.
 */
export function validateImport(result: ImportResult): void {
  const ids = new Set<string>();
  result.exchanges.forEach((ex, i) => {
    const p = ExchangeSchema.safeParse(ex);
    if (!p.success) throw new ErrataError("BAD_INPUT", `exchange ${i + 1} of ${result.corpus} is invalid`, { expected: "an exchange/1 row", found: p.error.issues[0]?.message ?? "?" });
    if (ids.has(ex.id)) throw new ErrataError("BAD_INPUT", `duplicate exchange id ${ex.id} in ${result.corpus}`, { expected: "unique ids", found: ex.id });
    ids.add(ex.id);
  });
  result.labels.forEach((l, i) => {
    const p = LabelSchema.safeParse(l);
    if (!p.success) throw new ErrataError("BAD_INPUT", `label ${i + 1} of ${result.corpus} is invalid`, { expected: "a label/1 row", found: p.error.issues[0]?.message ?? "?" });
    if (!ids.has(l.exchange_id)) throw new ErrataError("BAD_INPUT", `label ${i + 1} names no exchange`, { expected: "an exchange id of this import", found: l.exchange_id });
  });
}

export function writeImport(result: ImportResult, dir: string): { exchanges: string; labels: string } {
  validateImport(result);
  mkdirSync(dir, { recursive: true });
  const out = { exchanges: join(dir, "exchanges.jsonl"), labels: join(dir, "labels.jsonl") };
  writeAtomic(out.exchanges, result.exchanges.map((e) => `${JSON.stringify(e)}\n`).join(""));
  writeAtomic(out.labels, result.labels.map((l) => `${JSON.stringify(l)}\n`).join(""));
  return out;
}

function writeAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}
