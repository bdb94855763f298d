import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { LabelSchema, type Label } from "../../schemas/label.js";
import { excerptUtterances, importAbRedial, parseUtterance } from "../../runtime/corpora/importers/ab-redial.js";
import { bundled, bundledExchanges, bundledLabels, fleissKappa, hasShared, readRows, shared, valuesByItem } from "./helpers.js";

/** The reference figures of the shared datasets README, from the labels alone. */
function checkReferenceFigures(labels: Label[]) {
  const sat = valuesByItem(labels, "satisfaction");
  const unhappy = valuesByItem(labels, "detect.unhappy");
  expect(sat.size).toBe(600);
  const firstThree = [...sat.values()].filter((v) => v.length >= 3);
  expect(firstThree).toHaveLength(599);
  const first3Binary = [...unhappy.values()].filter((v) => v.length >= 3).map((v) => v.slice(0, 3));
  expect(fleissKappa(first3Binary)).toBeCloseTo(0.3449, 4);
  expect(fleissKappa(firstThree.map((v) => v.slice(0, 3)))).toBeCloseTo(0.2191, 4);
  expect(fleissKappa([...unhappy.values()])).toBeCloseTo(0.3763, 4);
  expect(fleissKappa([...sat.values()])).toBeCloseTo(0.2321, 4);
  // Every detect.unhappy label is the satisfaction rating of the same rater mapped at <= 2.
  const satBy = new Map(labels.filter((l) => l.question === "satisfaction").map((l) => [`${l.exchange_id}|${l.labeler}`, l.value]));
  for (const l of labels.filter((x) => x.question === "detect.unhappy")) {
    expect(l.value).toBe((satBy.get(`${l.exchange_id}|${l.labeler}`) as number) <= 2);
  }
}

describe("AB-ReDial quirks", () => {
  it("reads role prefixes with a tab, spaces or an em-space", () => {
    expect(parseUtterance("USER\tI like horror")).toEqual({ role: "USER", text: "I like horror" });
    expect(parseUtterance("SYSTEM \u2003 What sort of movies are you wanting?")).toEqual({ role: "SYSTEM", text: "What sort of movies are you wanting?" });
    expect(parseUtterance("SYSTEM  Hi")).toEqual({ role: "SYSTEM", text: "Hi" });
    expect(parseUtterance("no role")).toBeNull();
  });

  it("realigns an excerpt whose field swallowed the next utterance (1B)", () => {
    const fields = [
      "SYSTEM\tHi there!",
      'USER\tHello,"SYSTEM\tWhat kinds of movies are you looking for today?',
      "USER\tI like horror",
      "SYSTEM\tSeen Hostel?",
      "USER\tNo",
      "SYSTEM\tIt is scary",
      "USER\tOk",
      "SYSTEM\tOr House of Wax",
      "USER\tYes",
      "SYSTEM\tGood",
      "USER\tBye",
      "SYSTEM\tHi there!",
    ];
    const r = excerptUtterances(fields);
    expect(r?.repaired).toBe(true);
    expect(r?.utterances.map((u) => u.text)).toEqual(["Hi there!", "Hello,", "What kinds of movies are you looking for today?", "I like horror", "Seen Hostel?", "No", "It is scary", "Ok", "Or House of Wax", "Yes", "Good", "Bye"]);
    expect(excerptUtterances(fields.slice(1))).toBeNull();
  });
});

describe("AB-ReDial bundled (datasets/ab-redial)", () => {
  it("600 valid exchanges in 200 excerpts; labels reproduce the reference figures", () => {
    const ex = bundledExchanges("ab-redial");
    const labels = bundledLabels("ab-redial");
    expect(ex).toHaveLength(600);
    for (const e of ex) ExchangeSchema.parse(e);
    for (const l of labels) LabelSchema.parse(l);
    expect(new Set(ex.map((e) => e.session_id)).size).toBe(200);
    expect(new Set(ex.map((e) => e.id)).size).toBe(600);
    // ConvIds reused for two excerpts get two sessions.
    for (const c of ["F1", "G0", "AT", "BO", "J7"]) expect(ex.filter((e) => e.session_id === `${c}#2`)).toHaveLength(3);
    checkReferenceFigures(labels);
  });

  it("turn K's item: system utterance 4(K-1)+2 as reply, user 4(K-1)+3 as prompt (excerpt 1B realigned)", () => {
    const oneB = bundledExchanges("ab-redial").filter((e) => e.session_id === "1B#1");
    expect(oneB.map((e) => e.turn)).toEqual([1, 3, 5]);
    expect(oneB[0]?.reply_end).toBe("What kinds of movies are you looking for today?");
    expect(oneB[0]?.prompt).toMatch(/^I am interested in Horror movies/);
    expect(oneB[0]?.previous_ask).toBe("Hello,");
  });
});

describe.skipIf(!hasShared("ab-redial", "annotated_turns.csv"))("AB-ReDial from the shared CSV", () => {
  const csv = () => readFileSync(shared("ab-redial", "annotated_turns.csv"), "utf8");
  it("640 rater rows form 200 excerpts (160 with 3 raters, 40 with 4), 600 turns, 599 with >= 3 raters", () => {
    const r = importAbRedial(csv());
    expect(r.stats).toMatchObject({ raterRows: 640, excerpts: 200, excerptsWith3: 160, excerptsWith4: 40, exchanges: 600, repairedExcerpts: 1, missingOverall: 1 });
    checkReferenceFigures(r.labels);
  });

  it("the bundled files are exactly a fresh import", () => {
    const r = importAbRedial(csv());
    expect(readRows(join(bundled("ab-redial"), "exchanges.jsonl"))).toEqual(r.exchanges);
    expect(readRows(join(bundled("ab-redial"), "labels.jsonl"))).toEqual(r.labels);
  });
});
