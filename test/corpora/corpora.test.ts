import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExchangeSchema } from "../../schemas/exchange.js";
import { LabelSchema } from "../../schemas/label.js";
import { importConture } from "../../runtime/corpora/importers/conture.js";
import { importDbdc3 } from "../../runtime/corpora/importers/dbdc3.js";
import { importUkp } from "../../runtime/corpora/importers/ukp.js";
import { bundled, bundledExchanges, bundledLabels, fleissKappa, hasShared, readRows, shared, valuesByItem } from "./helpers.js";

function allValid(set: string) {
  const ex = bundledExchanges(set);
  const labels = bundledLabels(set);
  for (const e of ex) ExchangeSchema.parse(e);
  for (const l of labels) LabelSchema.parse(l);
  const ids = new Set(ex.map((e) => e.id));
  expect(ids.size).toBe(ex.length);
  for (const l of labels) expect(ids.has(l.exchange_id)).toBe(true);
  return { ex, labels };
}

describe("DBDC3", () => {
  it("bundled sample: 40 dialogues, 400 items, 30 rater ids each, O/T/X", () => {
    const { ex, labels } = allValid("dbdc3");
    expect(ex).toHaveLength(400);
    expect(new Set(ex.map((e) => e.session_id)).size).toBe(40);
    const byItem = valuesByItem(labels, "breakdown");
    expect([...byItem.values()].every((v) => v.length === 30)).toBe(true);
    expect(new Set(labels.map((l) => l.value))).toEqual(new Set(["O", "T", "X"]));
    const raters = new Map<string, Set<string>>();
    for (const l of labels) raters.set(l.exchange_id, (raters.get(l.exchange_id) ?? new Set()).add(l.labeler));
    expect([...raters.values()].every((s) => s.size === 30)).toBe(true);
    // The labelled system utterance is the reply; the user's next utterance the reaction.
    const first = ex[0];
    expect(first?.reply_end).toBeTruthy();
    expect(fleissKappa([...byItem.values()])).toBeGreaterThan(0);
  });

  const zip = shared("dbdc3", "DBDC3.zip");
  it.skipIf(!hasShared("dbdc3", "DBDC3.zip"))("the shared zip (read in memory): 615 dialogues, 6,150 items, 30 raters each; the sample is its --per-part 5", () => {
    const bytes = new Uint8Array(readFileSync(zip));
    const r = importDbdc3(bytes);
    expect(r.stats).toMatchObject({ dialogues: 615, exchanges: 6150, labels: 184500, ratersPerItemMin: 30, ratersPerItemMax: 30, itemsWithoutReaction: 582 });
    const sample = importDbdc3(bytes, { perPart: 5 });
    expect(readRows(join(bundled("dbdc3"), "exchanges.jsonl"))).toEqual(sample.exchanges);
    expect(readRows(join(bundled("dbdc3"), "labels.jsonl"))).toEqual(sample.labels);
  });
});

describe("ConTurE", () => {
  it("bundled: 1,066 chatbot turns in 119 dialogues, aggregated impression only", () => {
    const { ex, labels } = allValid("conture");
    expect(ex).toHaveLength(1066);
    expect(new Set(ex.map((e) => e.session_id)).size).toBe(119);
    expect(labels.every((l) => l.labeler === "conture:majority" && l.question === "impression")).toBe(true);
    const count = (v: number) => labels.filter((l) => l.value === v).length;
    expect([count(0), count(1), count(2)]).toEqual([328, 237, 501]);
    // The reaction to the last chatbot turn does not exist.
    const lastTurns = new Map<string, number>();
    for (const e of ex) lastTurns.set(e.session_id, Math.max(lastTurns.get(e.session_id) ?? 0, e.turn));
    expect(ex.filter((e) => e.turn === lastTurns.get(e.session_id)).every((e) => e.prompt === "")).toBe(true);
    expect(ex.filter((e) => e.prompt === "")).toHaveLength(120); // 119 last turns + one empty user utterance in the data
    expect(ex.every((e) => !e.reply_end?.startsWith("Chatbot:") && !e.prompt.startsWith("User:"))).toBe(true);
  });

  it.skipIf(!hasShared("conture", "data", "data.json"))("the bundled files are exactly a fresh import", () => {
    const r = importConture(readFileSync(shared("conture", "data", "data.json"), "utf8"));
    expect(readRows(join(bundled("conture"), "exchanges.jsonl"))).toEqual(r.exchanges);
    expect(readRows(join(bundled("conture"), "labels.jsonl"))).toEqual(r.labels);
  });
});

describe("UKP free-text feedback", () => {
  it("bundled: error types E1-E10 and user response types UR1-UR5 as labels", () => {
    const { ex, labels } = allValid("ukp");
    expect(ex).toHaveLength(645);
    const et = labels.filter((l) => l.question === "ukp.error_type");
    const ur = labels.filter((l) => l.question === "ukp.user_response_type");
    expect(et.length + ur.length).toBe(labels.length);
    expect(et.every((l) => /^E([1-9]|10)$/.test(String(l.value)))).toBe(true);
    expect(ur.every((l) => /^UR[1-5]$/.test(String(l.value)))).toBe(true);
    expect(new Set(et.map((l) => l.value)).size).toBe(10);
    // The most frequent error types are "ignore question" (E1) and "topic transition" (E6).
    const freq = (v: string) => et.filter((l) => l.value === v).length;
    expect(freq("E1")).toBeGreaterThan(freq("E2"));
    expect(freq("E6")).toBeGreaterThan(freq("E3"));
    // The annotated turn is the user's feedback; the system turn before it is the reply judged.
    const babi = ex.find((e) => e.session_id === "BABI/checked/171_babi_test_task6");
    expect(babi).toMatchObject({ turn: 6, prompt: "is it in the north part of town", reply_end: "Can I help you with anything else?" });
  });

  it.skipIf(!hasShared("ukp-free-text-feedback", "data", "analysis"))("the bundled files are exactly a fresh import", () => {
    const r = importUkp(shared("ukp-free-text-feedback"));
    expect(r.stats).toMatchObject({ dialogs: 552, exchanges: 645, errorTypeLabels: 274, responseTypeLabels: 225 });
    expect(readRows(join(bundled("ukp"), "exchanges.jsonl"))).toEqual(r.exchanges);
    expect(readRows(join(bundled("ukp"), "labels.jsonl"))).toEqual(r.labels);
  });
});

describe("spotter exchanges", () => {
  it("bundled: the 4 typed prompts of the 3 real sessions, no labels", () => {
    const { ex, labels } = allValid("spotter");
    expect(ex.map((e) => e.source_ref)).toEqual(["short.jsonl:4", "subagent.jsonl:71", "tool_heavy.jsonl:4", "tool_heavy.jsonl:26"]);
    expect(labels).toHaveLength(0);
  });
});
