import Papa from "papaparse";
import { DETECT_UNHAPPY, type Label } from "../../../schemas/label.js";
import type { Exchange } from "../../../schemas/exchange.js";
import { badInput } from "../../../core/errors.js";
import { exchangeId } from "../../transcripts/index.js";
import { corpusExchange, label, UNHAPPY_MAX_RATING, type ImportResult } from "../rows/rows.js";

export const AB_REDIAL_CORPUS = "ab-redial";
const UTTERANCES = 12;
const TURNS = 3;
/** A role prefix: "SYSTEM" or "USER", then a tab, spaces or em-spaces (some rows use those). */
const ROLE = /^(SYSTEM|USER)[\t \u2003]+/;
/** A second utterance swallowed into one field by a CSV quoting defect (excerpt 1B). */
const EMBEDDED = /"(?=(?:SYSTEM|USER)[\t \u2003])/;

interface Utterance {
  role: "SYSTEM" | "USER";
  text: string;
}

/** Parses a role-prefixed utterance; null when it has no role prefix. */
export function parseUtterance(field: string): Utterance | null {
  const m = ROLE.exec(field);
  if (m === null) return null;
  return { role: m[1] as "SYSTEM" | "USER", text: field.slice(m[0].length).trim() };
}

/**
 * The twelve utterances of an excerpt in order, repairing the quoting defect where one field
 * holds two utterances (`USER\tHello,"SYSTEM\tWhat kinds…`): the field is split and the rest
 * shift by one, and the surplus last field is dropped. Returns null when roles still do not
 * alternate SYSTEM, USER, … after the repair.
 */
export function excerptUtterances(fields: string[]): { utterances: Utterance[]; repaired: boolean } | null {
  const parts: string[] = [];
  let repaired = false;
  for (const f of fields) {
    const pieces = f.split(EMBEDDED);
    if (pieces.length > 1) repaired = true;
    parts.push(...pieces);
  }
  const utterances: Utterance[] = [];
  for (const p of parts.slice(0, UTTERANCES)) {
    const u = parseUtterance(p);
    if (u === null) return null;
    utterances.push(u);
  }
  if (utterances.length !== UTTERANCES) return null;
  if (!utterances.every((u, i) => u.role === (i % 2 === 0 ? "SYSTEM" : "USER"))) return null;
  return { utterances, repaired };
}

function rating(v: unknown): number | null {
  if (typeof v !== "string" || v.trim() === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
}

/**
 * AB-ReDial (`annotated_turns.csv`, Siro et al., MIT): each CSV row is one rater's view of a
 * 12-utterance excerpt with relevanceK, interestingnessK and overallK for K = 1..3. Rows are
 * grouped into excerpts by ConvId AND identical utterance text (ConvIds F1, G0, AT, BO and J7
 * each name two different excerpts); an excerpt is a session "<ConvId>#<n>". Turn K's item:
 * the system utterance at 4(K-1)+2 (the reply) followed by the user utterance at 4(K-1)+3
 * (the prompt); the user utterance at 4(K-1)+1 is the ask before. Labels, one per rater row
 * ("ab-redial:r1".. in row order: the data has no rater ids): "satisfaction" (overall, 1-5)
 * and "detect.unhappy" (overall <= 2). A missing rating gives no label. (The per-turn
 * relevance and interestingness ratings are not imported: no bank question reads them.)
 *
 * Example: 640 rater rows → 200 excerpts (160 with 3 raters, 40 with 4), 600 exchanges;
 * 599 turns have >= 3 satisfaction labels (one overall rating is missing).
 */
export function importAbRedial(csvText: string, sourceName = "annotated_turns.csv"): ImportResult {
  const parsed = Papa.parse<Record<string, string>>(csvText, { header: true, skipEmptyLines: true });
  const fields = parsed.meta.fields ?? [];
  for (const f of ["ConvId", "utterance0", "utterance11", "overall1", "overall3"]) {
    if (!fields.includes(f)) throw badInput(`${sourceName} is not AB-ReDial's annotated_turns.csv`, `a header with ${f}`, fields.slice(0, 6).join(","));
  }
  const notes: string[] = [];
  const groups = new Map<string, { convId: string; rows: { row: Record<string, string>; rowNo: number }[]; fields: string[] }>();
  parsed.data.forEach((row, i) => {
    const convId = (row["ConvId"] ?? "").trim();
    const utt = Array.from({ length: UTTERANCES }, (_, k) => row[`utterance${k}`] ?? "");
    const key = `${convId}\u0000${utt.join("\u0000")}`;
    let g = groups.get(key);
    if (g === undefined) {
      g = { convId, rows: [], fields: utt };
      groups.set(key, g);
    }
    g.rows.push({ row, rowNo: i + 1 });
  });
  const perConv = new Map<string, number>();
  const exchanges: Exchange[] = [];
  const labels: Label[] = [];
  const origin = "import:ab-redial";
  let repairedExcerpts = 0;
  let missingRatings = 0;
  let skippedExcerpts = 0;
  for (const g of groups.values()) {
    const n = (perConv.get(g.convId) ?? 0) + 1;
    perConv.set(g.convId, n);
    const session = `${g.convId}#${n}`;
    const ex = excerptUtterances(g.fields);
    const rowNos = g.rows.map((r) => r.rowNo);
    if (ex === null) {
      skippedExcerpts++;
      notes.push(`excerpt ${session} (rows ${rowNos.join(",")}): roles do not alternate; skipped`);
      continue;
    }
    if (ex.repaired) {
      repairedExcerpts++;
      notes.push(`excerpt ${session} (rows ${rowNos.join(",")}): one field held two utterances (CSV quoting); split and realigned`);
    }
    for (let k = 1; k <= TURNS; k++) {
      const sys = 4 * (k - 1) + 2;
      const usr = sys + 1;
      const id = exchangeId(AB_REDIAL_CORPUS, session, `turn:${k}`);
      exchanges.push(
        corpusExchange({
          id,
          corpus: AB_REDIAL_CORPUS,
          session_id: session,
          turn: (usr - 1) / 2,
          prompt: ex.utterances[usr]?.text ?? "",
          reply_end: ex.utterances[sys]?.text ?? null,
          previous_ask: ex.utterances[usr - 2]?.text ?? null,
          source_ref: `${sourceName} rows ${rowNos.join(",")} utterance${usr}`,
        }),
      );
      g.rows.forEach(({ row }, r) => {
        const rater = `ab-redial:r${r + 1}`;
        const overall = rating(row[`overall${k}`]);
        if (overall === null) missingRatings++;
        else {
          labels.push(label(id, rater, "satisfaction", overall, origin));
          labels.push(label(id, rater, DETECT_UNHAPPY, overall <= UNHAPPY_MAX_RATING, origin));
        }
      });
    }
  }
  if (missingRatings > 0) notes.push(`${missingRatings} overall rating(s) missing: no satisfaction label for that rater and turn`);
  return {
    corpus: AB_REDIAL_CORPUS,
    exchanges,
    labels,
    stats: {
      raterRows: parsed.data.length,
      excerpts: groups.size,
      excerptsWith3: [...groups.values()].filter((g) => g.rows.length === 3).length,
      excerptsWith4: [...groups.values()].filter((g) => g.rows.length === 4).length,
      exchanges: exchanges.length,
      labels: labels.length,
      repairedExcerpts,
      skippedExcerpts,
      missingOverall: missingRatings,
    },
    notes,
  };
}
