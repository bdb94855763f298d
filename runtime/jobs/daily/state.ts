import { existsSync, readFileSync } from "node:fs";
import { ReportStateSchema, type ReportState } from "../../../schemas/daily.js";
import { writeFileAtomic } from "./jsonl.js";

/**
 * `<stateDir>/state.json`: the report's counts live under the key `errata_report`; any other
 * key another part of Errata keeps there is preserved as it is. A file that is not JSON is
 * treated as empty (and replaced on the next write), never fatal.
 *
 * Example: `{"errata_report": {"schema": "errata-state/1", "counts": {...}, "stuck": {...}}, ...}`
 */
export const STATE_KEY = "errata_report";

function readObject(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  try {
    const value = JSON.parse(readFileSync(path, "utf8")) as unknown;
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function readReportState(path: string): ReportState | null {
  const parsed = ReportStateSchema.safeParse(readObject(path)[STATE_KEY]);
  return parsed.success ? parsed.data : null;
}

export function writeReportState(path: string, state: ReportState): void {
  const whole = readObject(path);
  whole[STATE_KEY] = ReportStateSchema.parse(state);
  writeFileAtomic(path, `${JSON.stringify(whole, null, 2)}\n`);
}
