import { EventSchema, type Event } from "../../../schemas/daily.js";
import { appendJsonl, readJsonl } from "./jsonl.js";

/**
 * The events file the report stage appends to (one JSON event a line). Events carry counts
 * and ids only; `EventSchema` refuses anything else in `ids` (no spaces, at most 80 chars).
 *
 * Example: `{schema: "event/1", ts: "2026-11-30T12:00:00.000Z", source: "errata",
 *   kind: "errata.rollup", severity: "medium", counts: {stuck: 2, total: 14}, ids: ["er-…"]}`
 */
export function appendEvents(path: string, events: readonly Event[]): void {
  appendJsonl(path, events.map((e) => EventSchema.parse(e)));
}

export function readEvents(path: string): Event[] {
  return readJsonl(path, EventSchema).rows;
}
