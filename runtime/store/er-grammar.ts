/**
 * The `/er` grammar: a leading tag picks the kind, otherwise the kind is complaint.
 * Tags (case-insensitive, followed by a colon): `bug:`, `feature:` (feature-request),
 * `praise:`; also `complaint:`, `question:`, `incident:`, `correction:`, `directive:` for completeness.
 * The tag and the space after it are removed; the rest is kept verbatim.
 *
 * Example: `parseErText("bug: it pushed to main without asking")`
 * -> `{ kind: "bug", text: "it pushed to main without asking", tagged: true }`;
 * `parseErText("why did you delete my tests?")` -> `{ kind: "complaint", text: "why did…", tagged: false }`.
 */
import type { Kind } from "../../schemas/erratum-constants.js";

const TAGS: Record<string, Kind> = {
  bug: "bug",
  feature: "feature-request",
  "feature-request": "feature-request",
  praise: "praise",
  complaint: "complaint",
  question: "question",
  incident: "incident",
  correction: "correction",
  directive: "directive",
};

export function parseErText(input: string): { kind: Kind; text: string; tagged: boolean } {
  const m = /^\s*([A-Za-z-]+):\s*/.exec(input);
  const kind = m?.[1] ? TAGS[m[1].toLowerCase()] : undefined;
  if (m && kind) return { kind, text: input.slice(m[0].length).trimEnd(), tagged: true };
  return { kind: "complaint", text: input.trim(), tagged: false };
}
