import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { EXCHANGES, goldBed, QUESTIONS, type Bed } from "./label-fixture.js";

// `errata eval label serve` as a command: its checks before anything binds, the URLs it
// prints, and --dry-run (bind, print, stop, write nothing). The serving itself is tested in
// label-server.test.ts and, in a browser, in test/browser/label-page.ts.
const tmp = tempDir("errata-serve-");
let bed: Bed;
beforeAll(async () => {
  bed = await goldBed(tmp.dir);
});
afterAll(() => tmp.cleanup());
const serve = async (...extra: string[]) => {
  const io = memoryIo({ env: bed.env, cwd: bed.dir });
  const code = await run(["eval", "label", "serve", "--exchanges", EXCHANGES, "--questions", QUESTIONS, "--split", "all", "--port", "0", ...extra], io.io);
  return { code, out: io.out(), err: io.err() };
};

describe("errata eval label serve", () => {
  it("--dry-run --json: one URL per labeller with its token, on 127.0.0.1; nothing written", async () => {
    const r = await serve("--labelers", "ana,ben", "--state", "st", "--dry-run", "--json");
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out) as { host: string; port: number; urls: Record<string, string>; items: number; questions: string[]; state: string; dry_run: boolean };
    expect(v).toMatchObject({ host: "127.0.0.1", items: 20, questions: ["detect.unhappy", "satisfaction"], state: join(bed.dir, "st"), dry_run: true });
    expect(v.urls["ana"]).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${v.port}/\\?t=[0-9a-f]{48}$`));
    expect(Object.keys(v.urls)).toEqual(["ana", "ben"]);
    expect(existsSync(join(bed.dir, "st"))).toBe(false);
  });

  it("prints the URLs as lines without --json", async () => {
    const r = await serve("--labelers", "ana", "--gold", join(bed.env["ERRATA_DIR"]!, "eval", "gold.jsonl"), "--dry-run");
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^ana: http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{48}\n20 items \(in your own shuffled order\), 2 questions; answers saved in .*\(dry run: stopped, nothing written\)\n$/);
  });

  it("refuses a non-loopback --host (exit 2) unless --allow-non-loopback", async () => {
    const r = await serve("--labelers", "ana", "--host", "0.0.0.0", "--dry-run");
    expect(r.code).toBe(2);
    expect(r.err).toContain("refusing to serve on 0.0.0.0: the labelling page binds to loopback only (expected 127.0.0.1, ::1 or localhost (or --allow-non-loopback)");
    const ok = await serve("--labelers", "ana", "--host", "0.0.0.0", "--allow-non-loopback", "--dry-run", "--json");
    expect(ok.code, ok.err).toBe(0);
    expect((JSON.parse(ok.out) as { urls: Record<string, string> }).urls["ana"]).toMatch(/^http:\/\/0\.0\.0\.0:\d+\/\?t=/);
  });

  it("bad labeller ids and a bad port are bad input", async () => {
    expect((await serve("--labelers", "ana,ana", "--dry-run")).code).toBe(2);
    expect((await serve("--labelers", "a b", "--dry-run")).code).toBe(2);
    const io = memoryIo({ env: bed.env, cwd: bed.dir });
    expect(await run(["eval", "label", "serve", "--labelers", "ana", "--exchanges", EXCHANGES, "--port", "70000", "--dry-run"], io.io)).toBe(2);
  });

  it("--adjudicators: one more URL each, over the items the labels of record split on; an adjudicator who labels too is refused", async () => {
    // AB-ReDial's raters r1-r3 on detect.unhappy: 141 of 600 items split (eval adjudicate list says the same).
    const labels = join(bed.dir, "r123.jsonl");
    const raters = new Set(["ab-redial:r1", "ab-redial:r2", "ab-redial:r3"]);
    const rows = readFileSync(new URL("../../datasets/ab-redial/labels.jsonl", import.meta.url), "utf8").split("\n").filter((l) => l.trim() !== "" && raters.has((JSON.parse(l) as { labeler: string }).labeler));
    writeFileSync(labels, rows.join("\n") + "\n");
    const r = await serve("--labelers", "ana", "--adjudicators", "lee", "--labels", labels, "--adjudications", "adj.jsonl", "--questions", "detect.unhappy", "--state", "st2", "--dry-run", "--json");
    expect(r.code, r.err).toBe(0);
    const v = JSON.parse(r.out) as { urls: Record<string, string>; adjudicator_urls: Record<string, string>; disputed: { items: number; without_text: number } };
    expect(Object.keys(v.urls)).toEqual(["ana"]);
    expect(v.adjudicator_urls["lee"]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{48}$/);
    expect(v.disputed).toEqual({ items: 141, without_text: 0 });
    expect(existsSync(join(bed.dir, "adj.jsonl"))).toBe(false);
    const both = await serve("--labelers", "ana,lee", "--adjudicators", "lee", "--labels", labels, "--dry-run");
    expect([both.code, both.err]).toEqual([2, expect.stringContaining("lee is both a labeller and an adjudicator")]);
  });

  it("--items active without a round, or a bad --items, is bad input; --items gold ignores a round", async () => {
    const none = await serve("--labelers", "ana", "--items", "active", "--active", "no-such.jsonl", "--dry-run");
    expect([none.code, none.err]).toEqual([2, expect.stringContaining("no active-labelling round")]);
    expect((await serve("--labelers", "ana", "--items", "some", "--dry-run")).code).toBe(2);
    writeFileSync(join(bed.dir, "round.jsonl"), JSON.stringify({ schema: "active-draw/1", round: 1, seed: 1, exchange_id: "ex-x", p_yes: 0.5, f: 0.5, pi: 0.4, drawn: true, labelled: false }) + "\n");
    const gold = await serve("--labelers", "ana", "--items", "gold", "--active", "round.jsonl", "--dry-run", "--json");
    expect(JSON.parse(gold.out)).toMatchObject({ items: 20, order: "in your own shuffled order" });
  });
});
