import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliIn } from "../helpers/cli-in.js";
import { tempDir } from "../helpers/io.js";

// `eval adjudicate list|decide` on plain files, then what the decisions do to `eval agreement`
// (the raw figures unchanged, each labeller's kappa with the gold before and after) and to
// `eval score` (the gold verdict where a decision is in force; --raw-gold ignores them).
const tmp = tempDir("errata-adjudicate-");
afterAll(() => tmp.cleanup());
const dir = tmp.dir;
const evalDir = join(dir, "ledger", "eval");
mkdirSync(evalDir, { recursive: true });
const adjFile = join(evalDir, "adjudications.jsonl");
// ana/ben/cy on detect.unhappy: e1 (y,y,n) e2 (n,y,n) e3 (y,n,n) e4 (y,y,y) e5 (y,n,-): a 1-1 tie.
// class on e1: three different classes (a 1-1-1 tie).
const grid: [string, (boolean | null)[]][] = [["e1", [true, true, false]], ["e2", [false, true, false]], ["e3", [true, false, false]], ["e4", [true, true, true]], ["e5", [true, false, null]]];
const who = ["ana", "ben", "cy"];
const label = (exchange_id: string, labeler: string, question: string, value: boolean | string) => JSON.stringify({ schema: "label/1", exchange_id, labeler, question, value, origin: "sheet:test" });
const rows = grid.flatMap(([id, vs]) => vs.flatMap((v, k) => (v === null ? [] : [label(id, who[k]!, "detect.unhappy", v)])));
rows.push(label("e1", "ana", "class", "wrong_target"), label("e1", "ben", "class", "ignored_instruction"), label("e1", "cy", "class", "none"));
writeFileSync(join(evalDir, "labels.jsonl"), rows.join("\n") + "\n");
writeFileSync(join(evalDir, "gold.jsonl"), grid.map(([id], i) => JSON.stringify({ schema: "gold-item/1", exchange_id: id, session_id: `s${i}`, stratum: "other", inclusion_probability: 1, inclusion_method: "exact", inclusion_se: 0, design_weight: 1, weight: 1, split: "holdout" })).join("\n") + "\n");
writeFileSync(join(dir, "preds.jsonl"), grid.map(([id]) => JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "d", detected: id !== "e4", class: null })).join("\n") + "\n");

const json = async (argv: string[]) => {
  const r = await cliIn(dir, [...argv, "--json"]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out);
};

describe("errata eval adjudicate", () => {
  it("lists the ties first, then the splits, with the labels side by side", async () => {
    const r = await json(["eval", "adjudicate", "list"]);
    expect(r.counts).toEqual({ disputed: 5, ties: 2, decided: 0, stale: 0 });
    expect(r.items.map((x: { exchange_id: string; question: string; dispute: string }) => `${x.dispute} ${x.question} ${x.exchange_id}`)).toEqual(["tie class e1", "tie detect.unhappy e5", "split detect.unhappy e1", "split detect.unhappy e2", "split detect.unhappy e3"]);
    const text = await cliIn(dir, ["eval", "adjudicate", "list", "--questions", "detect.unhappy", "--scope", "ties"]);
    expect(text.out).toMatch(/^tie    e5  detect.unhappy  ana yes \| ben no  pending$/m);
  });

  it("refuses a value nobody gave, an undisputed item and two decisions at once, writing nothing", async () => {
    const bad = await cliIn(dir, ["eval", "adjudicate", "decide", "e1", "--question", "class", "--value", "looping", "--adjudicator", "lee"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/--value looping is not one of the labels of e1 on class.*expected one of wrong_target, ignored_instruction, none/s)]);
    const calm = await cliIn(dir, ["eval", "adjudicate", "decide", "e4", "--question", "detect.unhappy", "--value", "yes", "--adjudicator", "lee"]);
    expect([calm.code, calm.err]).toEqual([2, expect.stringMatching(/nothing to adjudicate for e4/)]);
    const two = await cliIn(dir, ["eval", "adjudicate", "decide", "e2", "--question", "detect.unhappy", "--value", "yes", "--ambiguous", "--adjudicator", "lee"]);
    expect(two.code).toBe(2);
    expect(existsSync(adjFile)).toBe(false);
  });

  it("decisions are appended apart from the labels; agreement on the raw labels is unchanged, the gold and each labeller's kappa with it move", async () => {
    const labelsBefore = readFileSync(join(evalDir, "labels.jsonl"), "utf8");
    const before = await json(["eval", "agreement", "--resamples", "200"]);
    expect(before.adjudication).toEqual([]);
    for (const argv of [["e2", "--value", "yes"], ["e5", "--value", "no"], ["e3", "--ambiguous"], ["e3", "--withdraw"], ["e3", "--ambiguous", "--note", "cannot tell"]]) {
      const r = await cliIn(dir, ["eval", "adjudicate", "decide", ...argv, "--question", "detect.unhappy", "--adjudicator", "lee"]);
      expect(r.code, r.err).toBe(0);
    }
    expect((await cliIn(dir, ["eval", "adjudicate", "decide", "e1", "--question", "class", "--value", "none", "--adjudicator", "lee"])).code).toBe(0);
    expect(readFileSync(adjFile, "utf8").trim().split("\n")).toHaveLength(6);
    expect(readFileSync(join(evalDir, "labels.jsonl"), "utf8")).toBe(labelsBefore);
    const pending = await json(["eval", "adjudicate", "list", "--pending", "--adjudications", adjFile]);
    expect(pending.items.map((x: { exchange_id: string }) => x.exchange_id)).toEqual(["e1"]);

    const after = await json(["eval", "agreement", "--resamples", "200"]);
    expect(after.questions).toEqual(before.questions);
    const d = after.adjudication.find((x: { question: string }) => x.question === "detect.unhappy");
    expect(d.disputed).toEqual({ tie: 1, split: 3 });
    expect([d.decided, d.pending, d.overturned, d.ties_resolved]).toEqual([{ label: 2, ambiguous: 1 }, 1, 1, 1]);
    expect(d.gold_before).toEqual({ gold: 4, tie: 1, insufficient: 0 });
    expect(d.gold_after).toEqual({ gold: 4, ambiguous: 1, tie: 0, insufficient: 0 });
    // ben: y,y,n,y,n against gold before y,n,n,y,- (4 items): po .75, pe .75*.5+.25*.5 -> 0.5;
    // after y,y,-,y,n (e3 ambiguous): ben agrees on all four -> 1.
    const ben = d.labellers.find((l: { labeler: string }) => l.labeler === "ben");
    expect([ben.before.kappa, ben.before.items, ben.after.kappa, ben.after.items]).toEqual([expect.closeTo(0.5, 10), 4, expect.closeTo(1, 10), 4]);
    const text = await cliIn(dir, ["eval", "agreement", "--resamples", "200", "--questions", "detect.unhappy"]);
    expect(text.out).toMatch(/adjudication: 4 disputed items \(3 splits, 1 ties\): 2 decided, 1 ambiguous, 1 pending; 1 overturned a majority, 1 ties resolved/);
    expect(text.out).toMatch(/gold before: 4 items \(1 ties, 0 too few labels\); after: 4 items \(1 ambiguous, 0 unresolved ties/);
  });

  it("eval score takes the adjudicated gold; --raw-gold the raw majority", async () => {
    const adj = await json(["eval", "score", "--predictions", "preds.jsonl", "--split", "all"]);
    const raw = await json(["eval", "score", "--predictions", "preds.jsonl", "--split", "all", "--raw-gold"]);
    // raw gold: e1 y, e2 n, e3 n, e4 y (e5 a tie); adjudicated: e1 y, e2 y, e4 y, e5 n (e3 ambiguous).
    expect([raw.scored, raw.gold_failures, raw.adjudication]).toEqual([4, 2, null]);
    expect([adj.scored, adj.gold_failures]).toEqual([4, 3]);
    // d: yes on e1 e2 e3 e5, no on e4. Kappa before (raw gold y n n y): po 1/4, pe (3/4)(1/2)+(1/4)(1/2) = 1/2 -> -0.5;
    // after (gold y y - y n, e3 ambiguous; d on e1 e2 e4 e5 = y y n y): po 2/4, pe (3/4)(3/4)+(1/4)(1/4) = 5/8 -> -1/3.
    expect(adj.adjudication).toEqual({ adjudicated: 2, overturned: 1, ties_resolved: 1, ambiguous: 1, gold_before: 4, gold_after: 4, kappa: [{ detector: "d", before: expect.closeTo(-0.5, 10), after: expect.closeTo(-1 / 3, 10) }] });
    // d says yes on all but e4. Raw: TP e1, FP e2 e3, FN e4 -> recall 0.5; adjudicated: TP e1 e2, FP e5, FN e4 -> recall 2/3.
    const recall = (r: { detectors: { figures: { recall: { point: number } } }[] }) => r.detectors[0]!.figures.recall.point;
    expect(recall(raw)).toBeCloseTo(0.5, 10);
    expect(recall(adj)).toBeCloseTo(2 / 3, 10);
    const text = await cliIn(dir, ["eval", "score", "--predictions", "preds.jsonl", "--split", "all"]);
    expect(text.out).toMatch(/  d kappa with the gold \(unweighted\): before adjudication -0\.500, after -0\.333/);
    expect(text.out).toMatch(/adjudicated gold: 2 items decided \(1 overturned the raw majority, 1 ties resolved\), 1 ambiguous; items with a gold verdict before 4, after 4/);
  });
});
