import { join } from "node:path";
import { HostOutputSchema, HostReceiptSchema, type HostOutput, type HostReceipt } from "../../../schemas/host.js";
import { readJsonl } from "./jsonl.js";

/**
 * Reads the host's `outputs.jsonl` and `receipts.jsonl` (Errata only reads and joins them).
 * A missing folder or file reads as empty; malformed lines are counted, never fatal.
 * Receipts are indexed by output id, newest first wins.
 *
 * Example: `readHost("/srv/host")` -> `{outputs: Map(120), receipts: Map(98), bad: 0, present: true}`.
 */
export interface HostData {
  outputs: Map<string, HostOutput>;
  receipts: Map<string, HostReceipt>;
  bad: number;
  present: boolean;
}

export function readHost(hostDir: string | null): HostData {
  if (hostDir === null) return { outputs: new Map(), receipts: new Map(), bad: 0, present: false };
  const o = readJsonl(join(hostDir, "outputs.jsonl"), HostOutputSchema);
  const r = readJsonl(join(hostDir, "receipts.jsonl"), HostReceiptSchema);
  const outputs = new Map<string, HostOutput>();
  for (const out of o.rows) if (!outputs.has(out.id)) outputs.set(out.id, out);
  const receipts = new Map<string, HostReceipt>();
  for (const rc of r.rows) {
    const old = receipts.get(rc.output_id);
    if (!old || old.ts <= rc.ts) receipts.set(rc.output_id, rc);
  }
  return { outputs, receipts, bad: o.bad + r.bad, present: o.rows.length + r.rows.length > 0 };
}
