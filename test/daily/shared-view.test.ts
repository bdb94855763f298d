import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { mineTranscripts } from "../../runtime/jobs/mine/mine.js";
import { runLoop } from "../../runtime/jobs/daily/run-loop.js";
import { stageOutput } from "../../runtime/jobs/daily/context.js";
import { IdTakenError, newErratum, openLedger } from "../../runtime/store/index.js";
import { CapturedIndex, ledgerTurns } from "../../runtime/transcripts/index.js";
import type { Erratum } from "../../schemas/erratum.js";
import { tempDir } from "../helpers/io.js";
import { GOOD_REPLY, NOW, REPORTER, pathsFor, seedLedger, stageCtx } from "./fixtures.js";

/**
 * Issue 38, item 6: an id collision never fails a stage, and the daily's one read of the
 * ledger is shared by its stages without one stage's failure changing another's input.
 */
const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
// Real Claude Code sessions bundled with the repo (spotter, MIT): one pushback, typed 2026-02-10T22:59:22.893Z.
const spotter = join(repoRoot, "datasets", "claude-code", "spotter");
const XTERM = "scrolling back in xterm.js still does not work";
const TAKEN = "er-20260210-000001";

let tmp: { dir: string; cleanup: () => void };
let root: string;
beforeEach(() => {
  tmp = tempDir("errata-shared-view-");
  root = join(tmp.dir, "projects", "-home-u-spotter");
  mkdirSync(root, { recursive: true });
  cpSync(join(spotter, "tool_heavy.jsonl"), join(root, "tool_heavy.jsonl"));
});
afterEach(() => tmp.cleanup());

/** Random bytes for ids: the given draws in order (3 bytes each), then fails loudly. */
function draws(...hex: string[]): (n: number) => Uint8Array {
  let i = 0;
  return (n) => {
    const h = hex[i++];
    if (h === undefined || n !== 3) throw new Error(`unexpected draw ${i} of ${n} bytes`);
    return Uint8Array.from(Buffer.from(h, "hex"));
  };
}

function pushbackTurn(): { sessionId: string; prompt: string } {
  const lines = readFileSync(join(root, "tool_heavy.jsonl"), "utf8").split("\n").filter(Boolean);
  const sessionId = (JSON.parse(lines.find((l) => l.includes('"sessionId"')) ?? "{}") as { sessionId: string }).sessionId;
  const prompt = lines
    .map((l) => JSON.parse(l) as { type?: string; message?: { content?: unknown } })
    .map((o) => (o.type === "user" && typeof o.message?.content === "string" ? o.message.content : null))
    .find((c) => c?.startsWith(XTERM));
  return { sessionId, prompt: prompt as string };
}

async function mineWith(ctx: ReturnType<typeof stageCtx>, opts: { random: (n: number) => Uint8Array; captured?: CapturedIndex }) {
  const view = await ctx.ledger.readAll();
  const byId = new Map(view.errata.map((e) => [e.id, e]));
  return mineTranscripts({
    root: join(tmp.dir, "projects"),
    stateDir: join(tmp.dir, ".state"),
    nowMs: NOW,
    reporter: REPORTER as Erratum["reporter"],
    dryRun: false,
    captured: opts.captured ?? new CapturedIndex(ledgerTurns(view.errata)),
    append: (e) => void ctx.ledger.append(e),
    heldBy: (id) => byId.get(id) ?? null,
    random: opts.random,
  });
}

describe("an id collision never fails the mine", () => {
  it("a newly drawn id that another erratum holds is drawn again: the turn is written under the second draw", async () => {
    seedLedger(tmp.dir, [{ complaint: "another turn altogether", ts: "2026-02-10T10:00:00.000Z", id: TAKEN }]);
    const ctx = stageCtx(tmp.dir);
    const report = await mineWith(ctx, { random: draws("000001", "abcdef") });
    expect(report).toMatchObject({ written: 1, already_captured: 0 });
    const ids = openLedger(pathsFor(tmp.dir), { warn: () => {} }).readAll().errata.map((f) => f.erratum.id).sort();
    expect(ids).toEqual(["er-20260210-000001", "er-20260210-abcdef"]);
    // The run's shared view holds the new row too, for the stages after the mine.
    expect((await ctx.ledger.readAll()).errata.map((e) => e.id)).toContain("er-20260210-abcdef");
  });

  it("a mined erratum already in the ledger under the drawn id is skipped as already captured", async () => {
    const turn = pushbackTurn();
    seedLedger(tmp.dir, [{ complaint: turn.prompt, ts: "2026-02-10T22:59:22.893Z", id: TAKEN, context: { session_id: turn.sessionId } }]);
    const ctx = stageCtx(tmp.dir);
    // The captured index missed it (empty), as a stale index would: the id check catches it.
    const report = await mineWith(ctx, { random: draws("000001"), captured: new CapturedIndex([]) });
    expect(report).toMatchObject({ written: 0, already_captured: 1 });
    expect(openLedger(pathsFor(tmp.dir), { warn: () => {} }).readAll().errata).toHaveLength(1);
  });

  it("the store's refusal is typed, so a writer can tell a taken id from other bad input; the shared view's ids are checked without a re-read", () => {
    seedLedger(tmp.dir, [{ complaint: "x", ts: "2026-02-10T10:00:00.000Z", id: TAKEN }]);
    const ledger = openLedger(pathsFor(tmp.dir), { warn: () => {} });
    const again = newErratum({ nowMs: NOW, complaint: "y", reporter: REPORTER as Erratum["reporter"], instance: "i-000000000001", ts: "2026-02-10T11:00:00.000Z", id: TAKEN });
    expect(() => ledger.append(again)).toThrow(IdTakenError);
    expect(() => ledger.append(again, { takenIds: new Set([TAKEN]) })).toThrow(IdTakenError);
    const fresh = { ...again, id: "er-20260210-00beef" };
    ledger.append(fresh, { takenIds: new Set([TAKEN]) });
    // An id this ledger object wrote is taken too, even when the caller's set does not hold it.
    expect(() => ledger.append({ ...fresh, complaint: "z" }, { takenIds: new Set() })).toThrow(IdTakenError);
  });
});

describe("one read shared by the stages, each stage fault-isolated", () => {
  it("a stage that changes the view in memory and fails leaves the next stage's input as the ledger holds it", async () => {
    seedLedger(tmp.dir, [{ complaint: "no, wrong" }, { complaint: "still broken" }]);
    const ctx = stageCtx(tmp.dir);
    const seen: Erratum[][] = [];
    const result = await runLoop(
      [
        {
          name: "enrich",
          run: async () => {
            const v = await ctx.ledger.readAll();
            v.errata.pop(); // its own array: the others never see this
            (v.errata[0] as { status: string }).status = "triaged"; // frozen: throws here, failing this stage only
            return stageOutput({});
          },
        },
        { name: "label", run: async () => (seen.push((await ctx.ledger.readAll()).errata), stageOutput({})) },
      ],
      { loop: "daily", nowMs: ctx.nowMs, runsFile: ctx.files.runs, dryRun: false },
    );
    expect(result.stages.map((s) => [s.name, s.ok])).toEqual([
      ["enrich", false],
      ["label", true],
    ]);
    const fresh = openLedger(pathsFor(tmp.dir), { warn: () => {} }).readAll().errata.map((f) => f.erratum);
    expect(seen[0]).toEqual(fresh);
    expect(seen[0]!.map((e) => e.status)).toEqual(["new", "new"]);
  });

  it("a refused patch leaves the view as the ledger is; an accepted one is seen by the next stage as a fresh read would", async () => {
    const [a, b] = seedLedger(tmp.dir, [{ complaint: "no, wrong" }, { complaint: "still broken" }]);
    const ctx = stageCtx(tmp.dir);
    await ctx.ledger.readAll();
    await expect(ctx.ledger.patch(a!.id, { status: "fixed" })).rejects.toThrow(/illegal status transition/);
    await ctx.ledger.patch(b!.id, { status: "enriched", enrichment: { schema: "enrichment/1", ...GOOD_REPLY, model: "m", enrichment_version: "v" } });
    const fresh = openLedger(pathsFor(tmp.dir), { warn: () => {} }).readAll().errata.map((f) => f.erratum);
    expect((await ctx.ledger.readAll()).errata).toEqual(fresh);
  });
});
