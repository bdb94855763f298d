// The labelling page's test bed, shared by the server test and the browser test: a 20-item
// gold set drawn from the bundled AB-ReDial set into a temporary ledger, the answers a real
// rater gave those items (AB-ReDial rater r1: detect.unhappy and the 1-5 satisfaction), and
// the CSV route (export a blank sheet, fill it, import it) to compare the page against.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Papa from "papaparse";
import { run } from "../../cli/main.js";
import { memoryIo } from "../helpers/io.js";

export const QUESTIONS = "detect.unhappy,satisfaction:1-5";
export const repo = new URL("../../", import.meta.url).pathname;
export const EXCHANGES = join(repo, "datasets", "ab-redial", "exchanges.jsonl");

export interface Bed {
  dir: string;
  env: Record<string, string>;
}

export async function goldBed(dir: string, items = 20): Promise<Bed> {
  const env = { ERRATA_DIR: join(dir, "ledger") };
  const io = memoryIo({ env, cwd: dir });
  const code = await run(["eval", "sample", "--exchanges", EXCHANGES, "--items", String(items), "--failure-items", "0", "--per-session", "2"], io.io);
  if (code !== 0) throw new Error(`eval sample exited ${code}: ${io.err()}`);
  return { dir, env };
}

/** Rater r1's answers by item: {"detect.unhappy": "yes"|"no", satisfaction: "1".."5"} (cells as a sheet holds them), or null where r1 gave none. */
export function raterAnswers(): Map<string, { "detect.unhappy": string | null; satisfaction: string | null }> {
  const out = new Map<string, { "detect.unhappy": string | null; satisfaction: string | null }>();
  for (const line of readFileSync(join(repo, "datasets", "ab-redial", "labels.jsonl"), "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const l = JSON.parse(line) as { exchange_id: string; labeler: string; question: string; value: boolean | number };
    if (l.labeler !== "ab-redial:r1") continue;
    const a = out.get(l.exchange_id) ?? { "detect.unhappy": null, satisfaction: null };
    if (l.question === "detect.unhappy") a["detect.unhappy"] = l.value === true ? "yes" : "no";
    if (l.question === "satisfaction") a.satisfaction = String(l.value);
    out.set(l.exchange_id, a);
  }
  return out;
}

async function cli(bed: Bed, argv: string[]): Promise<string> {
  const io = memoryIo({ env: bed.env, cwd: bed.dir });
  const code = await run(argv, io.io);
  if (code !== 0) throw new Error(`errata ${argv.join(" ")} exited ${code}: ${io.err()}`);
  return io.out();
}

/** Imports a sheet named <labeler>.csv from its own folder into its own labels file; the label rows. */
export async function importSheet(bed: Bed, folder: string, labeler: string, csv: string): Promise<unknown[]> {
  const d = join(bed.dir, folder);
  mkdirSync(d, { recursive: true });
  const sheet = join(d, `${labeler}.csv`);
  writeFileSync(sheet, csv);
  const labels = join(d, "labels.jsonl");
  await cli(bed, ["eval", "label", "import", sheet, "--labels", labels, "--questions", QUESTIONS, "--labeler", labeler]);
  return readFileSync(labels, "utf8").trim().split("\n").map((l) => JSON.parse(l) as unknown);
}

/** The CSV route: export the blank sheet, fill every row from `answers` (a missing answer left empty with a note), import. */
export async function csvRoute(bed: Bed, labeler: string, answers: ReturnType<typeof raterAnswers>): Promise<{ rows: unknown[]; order: string[] }> {
  const blank = join(bed.dir, "blank.csv");
  await cli(bed, ["eval", "label", "export", "--labeler", labeler, "--exchanges", EXCHANGES, "--questions", QUESTIONS, "--out", blank]);
  const parsed = Papa.parse<Record<string, string>>(readFileSync(blank, "utf8"), { header: true, skipEmptyLines: true });
  const order: string[] = [];
  for (const row of parsed.data) {
    const id = row["exchange_id"] ?? "";
    order.push(id);
    const a = answers.get(id);
    const skipped: string[] = [];
    for (const q of ["detect.unhappy", "satisfaction"] as const) {
      const v = a?.[q] ?? null;
      if (v === null) skipped.push(q);
      // A column carries its spec when the importer would not know the question by its id.
      const column = (parsed.meta.fields ?? []).find((f) => f === q || f.startsWith(`${q}:`)) ?? q;
      row[column] = v ?? "";
    }
    row["note"] = skipped.length > 0 ? `skipped on the labelling page: ${skipped.sort().join(", ")}` : "";
  }
  const filled = Papa.unparse({ fields: parsed.meta.fields ?? [], data: parsed.data.map((r) => (parsed.meta.fields ?? []).map((f) => r[f] ?? "")) }, { escapeFormulae: true, newline: "\n" });
  return { rows: await importSheet(bed, "csv-route", labeler, `${filled}\n`), order };
}
