// The capture on its held-out set (bench/capture-heldout-data.ts; figures and method in
// docs/capture.md, "Coding corrections, held out"). The floors are a little under the figures
// measured when the rules were written, so a rule change that loses held-out items fails here.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { scoreHeldout, sharedDatasets, transcriptItems, writtenItems, type HeldoutItem } from "../../bench/capture-heldout-data.js";
import { classify } from "../../runtime/classifier/classify.js";
import { LANGUAGE_CODES } from "../../runtime/classifier/lang-data.js";

const written = writtenItems();
const scores = scoreHeldout(
  written,
  written.map((i) => classify(i.text, { previousReply: i.reply })),
);
const score = (key: string) => {
  const s = scores.get(key);
  if (s === undefined) throw new Error(`no held-out items for ${key}`);
  return s;
};

describe("the capture's held-out set", () => {
  it("has both splits in every language, with corrections, directives, repeats and ordinary prompts", () => {
    for (const code of LANGUAGE_CODES) {
      for (const split of ["dev", "test"] as const) {
        const items = written.filter((i: HeldoutItem) => i.set === code && i.split === split);
        expect(items.filter((i) => i.kind === "correction").length, `${code}/${split}`).toBeGreaterThanOrEqual(5);
        expect(items.filter((i) => i.kind === "directive").length, `${code}/${split}`).toBeGreaterThanOrEqual(1);
        expect(items.filter((i) => i.kind === "none").length, `${code}/${split}`).toBeGreaterThanOrEqual(4);
        expect(items.some((i) => i.repeat), `${code}/${split}`).toBe(true);
      }
    }
  });

  it("flags no ordinary prompt of the test split in any language", () => {
    for (const code of LANGUAGE_CODES) expect(score(`${code}/test`).tp, code).toBe(score(`${code}/test`).flagged);
  });

  it("finds most corrections and directives of the test split (recall .75 over all, at least .6 per language)", () => {
    expect(score("all/test").recall).toBeGreaterThanOrEqual(0.75);
    for (const code of LANGUAGE_CODES) expect(score(`${code}/test`).recall, code).toBeGreaterThanOrEqual(0.6);
  });

  it("marks most restated corrections as repeats, and only those", () => {
    const all = score("all/test");
    expect(all.repeatsMarked / all.repeats).toBeGreaterThanOrEqual(0.6);
    const unmarked = written.filter((i) => !i.repeat);
    expect(unmarked.filter((i) => classify(i.text, { previousReply: i.reply }).repeat === true).map((i) => i.text)).toEqual([]);
  });

  const transcripts = join(sharedDatasets(), "claude-transcripts", "m-claude");
  it.skipIf(!existsSync(transcripts))("flags no ordinary typed prompt of the real Claude Code sessions (local shared data)", async () => {
    const items = (await transcriptItems()) ?? [];
    expect(items.length).toBeGreaterThanOrEqual(80);
    const real = items.filter((i) => i.set === "transcripts:real");
    const flagged = real.filter((i) => i.kind === "none" && ["correction", "directive"].includes(classify(i.text, { previousReply: i.reply }).kind));
    expect(flagged.map((i) => i.text)).toEqual([]);
  });
});
