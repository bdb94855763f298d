/**
 * Receipts for every loop run (reflection, audit, shadow, morning), empty runs included: a
 * night that found nothing and a night that never ran look the same otherwise. A night with
 * no audit receipt is an alarm in the morning report.
 *
 * Example: missingNights(receipts, "2026-12-03", 3) -> ["2026-12-02"] when only the 1st and 3rd have an audit receipt.
 */
import { join } from "node:path";
import { appendJsonl, readJsonl } from "../files/index.js";
import { ReceiptSchema, type Receipt } from "../../schemas/ladder-proposals.js";
import { RECEIPTS_FILE } from "../ladder-formats/index.js";

export { RECEIPTS_FILE };

export function writeReceipt(dir: string, r: Omit<Receipt, "v">): Receipt {
  const row = ReceiptSchema.parse({ v: 1, ...r });
  appendJsonl(join(dir, RECEIPTS_FILE), [row]);
  return row;
}

export function readReceipts(dir: string): Receipt[] {
  return readJsonl(join(dir, RECEIPTS_FILE), ReceiptSchema, { what: "a loop receipt" }).rows;
}

/** The nights among the `days` ending at `today` (exclusive of today) with no receipt of `loop`. */
export function missingNights(receipts: readonly Receipt[], today: string, days: number, loop: Receipt["loop"] = "audit"): string[] {
  const have = new Set(receipts.filter((r) => r.loop === loop).map((r) => r.night));
  const t = Date.parse(`${today}T00:00:00Z`);
  const out: string[] = [];
  for (let k = days; k >= 1; k--) {
    const night = new Date(t - k * 86_400_000).toISOString().slice(0, 10);
    if (!have.has(night)) out.push(night);
  }
  return out;
}
