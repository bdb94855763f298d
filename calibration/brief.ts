/**
 * The labellers' brief and blank sheet for calibrating any yes/no question. Blind: the brief
 * never shows the judge's probability, the band or another labeller's answer, and items are
 * listed in a seeded shuffled order, not in the order they were drawn.
 *
 * Example: renderCalibBrief({id: "rules.rule_covers", text: "Does this rule cover the
 * failure?", guidance: "…"}, items) → "# Labelling brief: rules.rule_covers\n…".
 */
export interface BriefQuestion {
  id: string;
  text: string;
  guidance: string;
  positive?: readonly { note?: string | undefined; [k: string]: unknown }[];
  negative?: readonly { note?: string | undefined; [k: string]: unknown }[];
}

export interface BriefItem {
  item_id: string;
  shown: Readonly<Record<string, string>>;
}

function example(e: Record<string, unknown>): string {
  return Object.entries(e)
    .filter(([k, v]) => k !== "note" && v !== null && v !== undefined)
    .map(([k, v]) => `  - ${k}: ${String(v)}`)
    .concat(typeof e["note"] === "string" ? [`  - why: ${e["note"]}`] : [])
    .join("\n");
}

export function renderCalibBrief(question: BriefQuestion, items: readonly BriefItem[]): string {
  const lines: string[] = [
    `# Labelling brief: ${question.id}`,
    "",
    `**Question.** ${question.text}`,
    "",
    `**Guidance.** ${question.guidance}`,
    "",
    "Answer every item on your own, without talking to the other labellers, with `yes` or `no`",
    "(leave the cell empty when you truly cannot tell). You do not see what any judge answered.",
    "",
  ];
  if (question.positive?.length) {
    lines.push("## Examples where the answer is yes", "");
    for (const e of question.positive) lines.push(`- example\n${example(e)}`);
    lines.push("");
  }
  if (question.negative?.length) {
    lines.push("## Examples where the answer is no", "");
    for (const e of question.negative) lines.push(`- example\n${example(e)}`);
    lines.push("");
  }
  lines.push(`## Items (${items.length})`, "");
  for (const item of items) {
    lines.push(`### ${item.item_id}`, "");
    for (const [k, v] of Object.entries(item.shown)) lines.push(`**${k}:**`, "", ...v.split("\n").map((l) => `> ${l}`), "");
  }
  return `${lines.join("\n").trimEnd()}\n`;
}

/** Quotes a CSV field when it needs it (RFC 4180). */
export function csvField(text: string): string {
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A blank sheet: item_id, the shown fields, and an empty `answer` column. */
export function renderCalibSheet(items: readonly BriefItem[]): string {
  const fields: string[] = [];
  for (const item of items) for (const k of Object.keys(item.shown)) if (!fields.includes(k)) fields.push(k);
  const rows = [["item_id", ...fields, "answer"].map(csvField).join(",")];
  for (const item of items) rows.push([item.item_id, ...fields.map((f) => item.shown[f] ?? ""), ""].map(csvField).join(","));
  return `${rows.join("\r\n")}\r\n`;
}
