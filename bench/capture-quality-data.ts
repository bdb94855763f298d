/**
 * Labelled items for measuring the capture classifier as a detector of "the person is
 * unhappy with the previous reply", read straight from the shared data sets (never copied
 * into the repo; USS stays local).
 *
 * Item: a user utterance that follows a system reply, with that reply. Positive when at
 * least 2 of its first 3 ratings are <= 2.
 * - AB-ReDial `annotated_turns.csv`: rows grouped into excerpts by ConvId AND identical
 *   utterance text (some ConvIds are reused); turn K is system utterance 4(K-1)+2 and user
 *   utterance 4(K-1)+3; items whose roles are not SYSTEM then USER are dropped (excerpt 1B's
 *   shifted roles); items with fewer than 3 raters are dropped. Role prefixes may be
 *   followed by a tab or an em-space.
 * - USS (`SGD.txt`, `MWOZ.txt`): one line per utterance, `ROLE\ttext\taction\tr1,r2,...`;
 *   blank lines separate dialogues; OVERALL rows are skipped; a user turn is judged against
 *   the latest SYSTEM line before it; the first user turn (no reply yet) is not an item.
 *
 * Example: `loadAbRedial(csvPath).length` -> 597 items, 65 positive.
 */
import { readFileSync } from "node:fs";
import Papa from "papaparse";

export interface QualityItem {
  session: string;
  reply: string;
  prompt: string;
  positive: boolean;
}

const ROLE = /^(SYSTEM|USER)[\t\u2003 ]+/;

function dissatisfied(ratings: number[]): boolean {
  return ratings.slice(0, 3).filter((r) => r <= 2).length >= 2;
}

export function loadAbRedial(csvPath: string): QualityItem[] {
  const parsed = Papa.parse<Record<string, string>>(readFileSync(csvPath, "utf8"), { header: true, skipEmptyLines: true });
  const groups = new Map<string, Record<string, string>[]>();
  for (const row of parsed.data) {
    const key = [row["ConvId"] ?? "", ...Array.from({ length: 12 }, (_, i) => row[`utterance${i}`] ?? "")].join("\u0000");
    const list = groups.get(key) ?? [];
    list.push(row);
    groups.set(key, list);
  }
  const items: QualityItem[] = [];
  let excerpt = 0;
  for (const rows of groups.values()) {
    excerpt++;
    const first = rows[0];
    if (!first) continue;
    for (let k = 1; k <= 3; k++) {
      const sys = first[`utterance${4 * (k - 1) + 2}`] ?? "";
      const usr = first[`utterance${4 * (k - 1) + 3}`] ?? "";
      if (!sys.startsWith("SYSTEM") || !usr.startsWith("USER")) continue;
      const raw = rows.slice(0, 3).map((r) => (r[`overall${k}`] ?? "").trim());
      if (raw.length < 3) continue;
      const ratings = raw.filter((s) => s !== "").map(Number);
      items.push({
        session: `${first["ConvId"]}#${excerpt}`,
        reply: sys.replace(ROLE, ""),
        prompt: usr.replace(ROLE, ""),
        positive: dissatisfied(ratings),
      });
    }
  }
  return items;
}

export function loadUss(txtPath: string, name: string): QualityItem[] {
  const items: QualityItem[] = [];
  let dialogue = 0;
  let reply: string | null = null;
  for (const line of readFileSync(txtPath, "utf8").split(/\r?\n/)) {
    if (line.trim() === "") {
      if (reply !== null || dialogue === 0) dialogue++;
      reply = null;
      continue;
    }
    const [role, text = "", , sat = ""] = line.split("\t");
    if (role === "SYSTEM") {
      reply = text;
    } else if (role === "USER" && text !== "OVERALL") {
      const ratings = sat.split(",").filter((s) => s.trim() !== "").map(Number);
      if (reply !== null) items.push({ session: `${name}-${dialogue}`, reply, prompt: text, positive: dissatisfied(ratings) });
    }
  }
  return items;
}

export interface DetectorScore {
  items: number;
  positives: number;
  flagged: number;
  truePositives: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
  /** Cohen's kappa between the detector's flags and the 2-of-3 majority. */
  kappa: number | null;
}

export function scoreFlags(truth: readonly boolean[], flags: readonly boolean[]): DetectorScore {
  const n = truth.length;
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < n; i++) {
    if (flags[i] && truth[i]) tp++;
    else if (flags[i]) fp++;
    else if (truth[i]) fn++;
  }
  const tn = n - tp - fp - fn;
  const precision = tp + fp > 0 ? tp / (tp + fp) : null;
  const recall = tp + fn > 0 ? tp / (tp + fn) : null;
  const f1 = precision !== null && recall !== null && precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : null;
  const po = (tp + tn) / n;
  const pe = ((tp + fp) / n) * ((tp + fn) / n) + ((fn + tn) / n) * ((fp + tn) / n);
  const kappa = n > 0 && pe < 1 ? (po - pe) / (1 - pe) : null;
  return { items: n, positives: tp + fn, flagged: tp + fp, truePositives: tp, precision, recall, f1, kappa };
}
