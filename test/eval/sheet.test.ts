import fc from "fast-check";
import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { buildSheet, parseAnswerSpec, quantileSelect, quantileSorted, validateSheet, type AnswerSpec } from "../../eval/index.js";

const questions: AnswerSpec[] = [
  { id: "detect.unhappy", kind: "yesno" },
  parseAnswerSpec("satisfaction:1-5"),
  parseAnswerSpec("class:fabrication|off_topic|none"),
];
const items = ["ex-a", "ex-b", "ex-c", "ex-d"].map((id) => ({ exchange_id: id, previous_ask: null, reply_end: "Done.", tool_calls: "", prompt: id === "ex-d" ? "=HYPERLINK(\"x\")" : `prompt ${id}` }));
const ids = new Set(items.map((i) => i.exchange_id));
const fill = (csv: string, f: (row: Record<string, string>, i: number) => Record<string, string>): string =>
  Papa.unparse(Papa.parse<Record<string, string>>(csv, { header: true }).data.map(f));

describe("labelling sheets", () => {
  const sheet = buildSheet("ana", items, questions);

  it("holds the items once, shuffled per labeller, with empty answer columns and formulas escaped", () => {
    const rows = Papa.parse<Record<string, string>>(sheet, { header: true }).data;
    expect(rows.map((r) => r["exchange_id"]).sort()).toEqual([...ids].sort());
    expect(rows.every((r) => r["detect.unhappy"] === "" && r["labeler"] === "ana")).toBe(true);
    expect(buildSheet("ana", items, questions)).toBe(sheet);
    const orders = ["ana", "ben", "cy", "dee", "eve"].map((l) => Papa.parse<Record<string, string>>(buildSheet(l, items, questions), { header: true }).data.map((r) => r["exchange_id"]).join());
    expect(new Set(orders).size).toBeGreaterThan(1);
    expect(sheet).toContain("'=HYPERLINK");
  });

  it("imports a complete sheet; a blank answer with a note is left out, not an error", () => {
    const done = fill(sheet, (r, i) => ({ ...r, "detect.unhappy": i === 0 ? "Yes" : "no", satisfaction: i === 1 ? "" : "2", class: i === 0 ? "Fabrication" : "none", note: i === 1 ? "cannot tell" : "" }));
    const res = validateSheet(done, { items: ids, questions });
    expect(res.ok).toBe(true);
    if (!res.ok) return;
    expect(res.labeler).toBe("ana");
    expect(res.answers).toHaveLength(11);
    expect(res.answers.find((a) => a.row === 2 && a.question === "class")?.value).toBe("fabrication");
    expect(res.skipped).toEqual([{ row: 3, question: "satisfaction", note: "cannot tell" }]);
  });

  it("rejects a bad sheet whole, naming each row", () => {
    const bad = fill(sheet, (r, i) => ({
      ...r,
      "detect.unhappy": i === 0 ? "perhaps" : "no",
      satisfaction: i === 1 ? "7" : i === 2 ? "" : "3",
      class: "none",
      labeler: i === 3 ? "ben" : "ana",
    }));
    const res = validateSheet(bad, { items: ids, questions });
    expect(res.ok).toBe(false);
    if (res.ok) return;
    expect(res.errors.map((e) => `${e.row}:${e.code}`)).toEqual(["2:invalid_answer", "3:invalid_answer", "4:missing_answer", "5:labeler"]);
    expect(res.errors[1]?.message).toBe('row 3: satisfaction is "7"; expected a whole number from 1 to 5');
  });

  it("rejects unknown items, duplicate rows, unknown columns and an empty sheet", () => {
    const rows = Papa.parse<Record<string, string>>(fill(sheet, (r) => ({ ...r, "detect.unhappy": "no", satisfaction: "3", class: "none" })), { header: true }).data;
    rows[0] = { ...(rows[0] as Record<string, string>), exchange_id: "ex-zzz" };
    rows.push({ ...(rows[1] as Record<string, string>) });
    const res = validateSheet(Papa.unparse(rows), { items: ids, questions });
    expect(res.ok ? [] : res.errors.map((e) => `${e.row}:${e.code}`)).toEqual(["2:unknown_item", "6:duplicate_row"]);
    const extra = validateSheet(Papa.unparse(rows.map((r) => ({ ...r, "mode.guess": "yes" }))), { items: ids, questions });
    expect(extra.ok ? [] : extra.errors.map((e) => `${e.row}:${e.code}:${e.column}`)).toEqual(["1:unknown_column:mode.guess"]);
    const empty = validateSheet("", { items: ids, questions });
    expect(empty.ok ? "" : empty.errors[0]?.code).toBe("no_rows");
  });
});

describe("quantileSelect", () => {
  it("equals the sorted type-7 quantile", () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 1, maxLength: 80 }), fc.double({ min: 0, max: 1, noNaN: true }), (xs, p) => {
      const sorted = Float64Array.from(xs).sort();
      expect(quantileSelect(Float64Array.from(xs), p)).toBeCloseTo(quantileSorted(sorted, p), 12);
    }), { numRuns: 500, seed: 5 });
  });
});
