/**
 * Small readers of the shared raw data sets for the eval tests (independent of the
 * importers, so the reference figures are checked against the files themselves).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Papa from "papaparse";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const sharedDatasets = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");

export const ussPath = (name: "SGD" | "MWOZ"): string => join(sharedDatasets, "uss", `${name}.txt`);
export const abRedialPath = join(sharedDatasets, "ab-redial", "annotated_turns.csv");
export const hasUss = existsSync(ussPath("SGD")) && existsSync(ussPath("MWOZ"));
export const hasAbRedial = existsSync(abRedialPath);

/** USS: per dialogue, each USER turn's satisfaction ratings (OVERALL rows left out). */
export function readUss(name: "SGD" | "MWOZ"): number[][][] {
  const dialogues: number[][][] = [];
  let cur: number[][] = [];
  for (const line of readFileSync(ussPath(name), "utf8").split("\n")) {
    if (line.trim() === "") {
      if (cur.length > 0) dialogues.push(cur);
      cur = [];
      continue;
    }
    const parts = line.split("\t");
    if (parts[0] === "USER" && parts[1] !== "OVERALL") cur.push((parts[3] ?? "").split(",").map(Number));
  }
  if (cur.length > 0) dialogues.push(cur);
  return dialogues;
}

export interface AbTurn {
  /** Excerpt key (ConvId plus an excerpt number where a ConvId is reused). */
  session: string;
  turn: number;
  /** Overall satisfaction ratings in file order (missing ones left out). */
  ratings: number[];
}

/**
 * AB-ReDial turns: rows grouped into excerpts by ConvId and identical utterance text (some
 * ConvIds are reused for two excerpts), turn K's rating is `overallK`.
 */
export function readAbRedial(): AbTurn[] {
  const groups = abRedialExcerpts();
  const seen = new Map<string, number>();
  const turns: AbTurn[] = [];
  for (const rows of groups.values()) {
    const conv = rows[0]?.["ConvId"] ?? "";
    const n = (seen.get(conv) ?? 0) + 1;
    seen.set(conv, n);
    const session = n === 1 ? conv : `${conv}#${n}`;
    for (let k = 1; k <= 3; k++) {
      const ratings = rows.map((r) => (r[`overall${k}`] ?? "").trim()).filter((s) => s !== "").map(Number);
      turns.push({ session, turn: k, ratings });
    }
  }
  return turns;
}

/**
 * The raw AB-ReDial rater rows grouped into excerpts by ConvId and identical utterance text
 * (ConvIds F1, G0, AT, BO and J7 are reused for two excerpts each), in file order.
 */
export function abRedialExcerpts(): Map<string, Record<string, string>[]> {
  const parsed = Papa.parse<Record<string, string>>(readFileSync(abRedialPath, "utf8"), { header: true, skipEmptyLines: true });
  const groups = new Map<string, Record<string, string>[]>();
  for (const row of parsed.data) {
    const key = [row["ConvId"], ...Array.from({ length: 12 }, (_, i) => row[`utterance${i}`])].join("\u0000");
    const g = groups.get(key);
    if (g) g.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}
