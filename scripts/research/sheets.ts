// Step 8 of the research loop: the three labellers return their sheets.
//
// Nobody labels by hand here: each exported sheet is filled the way a person would fill it,
// from the importers' rater labels, and saved as a new CSV for `errata eval label import`.
// - AB-ReDial: sheet k gets rater k's answers (`ab-redial:r1..r3`, the first three raters;
//   the data's rater ids are positional within an item, not fixed people). detect.unhappy =
//   that rater's own label (overall satisfaction <= 2), satisfaction = the rating. AB-ReDial
//   has no other labels: the class and the other questions stay empty with a note, as the
//   brief allows.
//   A turn rater k did not rate is left empty with a note.
// - synthetic: every sheet gets the generator's plan (one source: the three sheets agree by
//   construction, so only AB-ReDial's agreement is human agreement): detect.unhappy, class
//   (the planted mode's class, or none), every bank question the plan answers, and each mode
//   (the planted one yes, the others no, where the plan does not say); satisfaction empty.
//
// Example: fillSheet(csv, 0, ...) -> { csv, answers: 312, blankRows: 1, rows: 48 }
import Papa from "papaparse";
import { ErrataError } from "../../core/errors.js";
import type { Label } from "../../schemas/label.js";

/** One AB-ReDial rater's labels of one turn. */
interface RaterLabels {
  satisfaction?: Label["value"];
  unhappy?: Label["value"];
}

/** What the synthetic generator's plan says of one exchange. */
interface PlanLabels {
  unhappy: Label["value"] | null;
  /** The planted mode (the `mode.<id>` label that is true), if any. */
  mode: string | null;
  /** Every yes/no question the plan answers. */
  answers: Map<string, boolean>;
}

export interface ExchangeLabels {
  raters: Map<string, RaterLabels>;
  plan: PlanLabels | null;
}

/** The sheet's answer columns: detect.unhappy, the 1-5 rating, the class, then every other bank question. */
export function sheetQuestions(bankIds: readonly string[]): string[] {
  return ["detect.unhappy", "satisfaction:1-5", "class", ...bankIds.filter((id) => id !== "detect.unhappy")];
}

/** Per exchange: each AB-ReDial rater's satisfaction and detect.unhappy; the synthetic plan. */
export function raterIndex(labels: readonly Label[]): Map<string, ExchangeLabels> {
  const byEx = new Map<string, ExchangeLabels>();
  const get = (id: string): ExchangeLabels => {
    let v = byEx.get(id);
    if (!v) byEx.set(id, (v = { raters: new Map(), plan: null }));
    return v;
  };
  for (const l of labels) {
    if (l.labeler.startsWith("ab-redial:")) {
      const r = get(l.exchange_id);
      const k = l.labeler.slice("ab-redial:".length);
      const cur = r.raters.get(k) ?? {};
      if (l.question === "satisfaction") cur.satisfaction = l.value;
      if (l.question === "detect.unhappy") cur.unhappy = l.value;
      r.raters.set(k, cur);
    } else if (l.labeler === "synthetic:plan") {
      const r = get(l.exchange_id);
      r.plan ??= { unhappy: null, mode: null, answers: new Map() };
      if (l.question === "detect.unhappy") r.plan.unhappy = l.value;
      if (l.question.startsWith("mode.") && l.value === true) r.plan.mode = l.question.slice(5);
      if (typeof l.value === "boolean") r.plan.answers.set(l.question, l.value);
    }
  }
  return byEx;
}

export interface FillContext {
  index: ReadonlyMap<string, ExchangeLabels>;
  corpusOf: ReadonlyMap<string, string>;
  bankIds: readonly string[];
  /** Mode id -> its class id. */
  classOfMode: ReadonlyMap<string, string>;
}

/**
 * Fills labeller k's (0-based) exported sheet. Returns the CSV text, how many answers it
 * holds (the labels `eval label import` must add) and how many rows carry no answer.
 */
export function fillSheet(csvText: string, k: number, { index, corpusOf, bankIds, classOfMode }: FillContext): { csv: string; answers: number; blankRows: number; rows: number } {
  const parsed = Papa.parse<Record<string, string>>(csvText, { header: true, skipEmptyLines: true });
  const first = parsed.errors[0];
  if (first) throw new ErrataError("BAD_INPUT", `exported sheet does not parse: ${first.message} (row ${first.row})`, { expected: "the CSV `errata eval label export` wrote", found: `${parsed.errors.length} CSV errors` });
  const fields = parsed.meta.fields;
  let answers = 0;
  let blankRows = 0;
  const rows = parsed.data.map((row) => {
    const id = row["exchange_id"] ?? "";
    const src = index.get(id);
    // A class of an unknown mode stays undefined, an empty cell, as the sheet's reader expects.
    const out: Record<string, string | undefined> = { ...row };
    // A column may carry its question's spec (`satisfaction:1-5`, as eval label export writes a
    // question the importer would not know by its id): the answer goes in under that header.
    const set = (col: string, v: string | undefined): void => {
      out[fields?.find((f) => f === col || f.split(":")[0] === col) ?? col] = v;
      answers++;
    };
    const corpus = corpusOf.get(id);
    if (corpus === "ab-redial") {
      const r = src?.raters.get(`r${k + 1}`);
      if (!r || typeof r.satisfaction !== "number") {
        out["note"] = `rater ${k + 1} gave no rating for this turn in the source data`;
        blankRows++;
        return out;
      }
      set("detect.unhappy", (r.unhappy ?? r.satisfaction <= 2) ? "yes" : "no");
      set("satisfaction", String(r.satisfaction));
      out["note"] = "class and the other questions: not in the source data (AB-ReDial raters gave overall satisfaction only)";
    } else if (corpus === "synthetic") {
      const p = src?.plan;
      if (!p || p.unhappy === null) {
        out["note"] = "not in the generator's plan";
        blankRows++;
        return out;
      }
      set("detect.unhappy", p.unhappy ? "yes" : "no");
      if (p.unhappy && !p.mode) {
        out["note"] = "synthetic: the plan names a failure without its mode; class, modes and satisfaction: not in the plan";
        return out;
      }
      set("class", p.unhappy ? classOfMode.get(p.mode ?? "") : "none");
      // Every other bank question the plan answers; a mode it leaves unsaid is "no" unless planted.
      const unsaid: string[] = [];
      for (const q of bankIds) {
        if (q === "detect.unhappy") continue;
        const v = p.answers.get(q) ?? (q.startsWith("mode.") ? p.mode === q.slice(5) : undefined);
        if (v === undefined) unsaid.push(q);
        else set(q, v ? "yes" : "no");
      }
      out["note"] = `synthetic: the generator's plan (the same in every sheet); not in the plan: satisfaction${unsaid.length ? `, ${unsaid.join(", ")}` : ""}`;
    } else {
      out["note"] = "no labels for this corpus";
      blankRows++;
    }
    return out;
  });
  return { csv: Papa.unparse(rows, { columns: fields }), answers, blankRows, rows: rows.length };
}
