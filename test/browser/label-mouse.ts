import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { EXCHANGES, goldBed, QUESTIONS, repo, type Bed } from "../pages/label-fixture.js";
import { hasChromium, launch, CHROMIUM } from "./chromium.js";
import { startLabelServer } from "../../runtime/pages/index.js";
import { built } from "../helpers/built.js";

// The labelling page for people who would rather click: answers, skip, undo, previous / next
// by mouse only, with progress and the brief's Markdown rendered (and a hostile brief shown as
// text, never run); the page serving an active-labelling round in its order (the compiled
// `errata eval label serve` after `eval sample --next`); and the adjudication view: the labels
// side by side without names, a pick, an ambiguous, an undo, every decision appended apart
// from the labels. Screenshots go to ERRATA_SCREENSHOT_DIR when it is set.
const skip = !hasChromium ? `no chromium at ${CHROMIUM} (apt-get install -y chromium)` : !built ? "no dist/ (npm run build first)" : null;
if (skip !== null) process.stdout.write(`SKIP test/browser/label-mouse.ts: ${skip}\n`);

const tmp = tempDir("errata-browser-mouse-");
let context: BrowserContext;
let closeBrowser: () => Promise<void> = async () => {};
const children: ChildProcess[] = [];

const text = (page: Page, sel: string): Promise<string> => page.locator(sel).innerText();
const saves = async (page: Page): Promise<number> => Number((await page.locator("body").getAttribute("data-saved")) ?? 0);
/** Clicks something that saves, and waits until the server acknowledged it. */
async function click(page: Page, selector: string, name?: RegExp): Promise<void> {
  const n = await saves(page);
  await (name ? page.locator(selector, { hasText: name }) : page.locator(selector)).first().click();
  await page.waitForSelector(`body[data-saved="${n + 1}"]`, { state: "attached" });
}
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env["ERRATA_SCREENSHOT_DIR"];
  if (dir) await page.screenshot({ path: join(dir, name) });
}
const items = (n: number) => Array.from({ length: n }, (_, i) => ({ exchange_id: `ex-${String(i).padStart(16, "0")}`, previous_ask: null, reply_end: `reply ${i}`, tool_calls: "", prompt: `prompt ${i}` }));

async function cli(bed: Bed, argv: string[]): Promise<string> {
  const io = memoryIo({ env: bed.env, cwd: bed.dir });
  const code = await run(argv, io.io);
  if (code !== 0) throw new Error(`errata ${argv.join(" ")} exited ${code}: ${io.err()}`);
  return io.out();
}

describe.skipIf(skip !== null)("the labelling page by mouse, an active round, the adjudication view (chromium)", () => {
  beforeAll(async () => {
    ({ context, close: closeBrowser } = await launch());
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGTERM");
    await closeBrowser();
    tmp.cleanup();
  });

  it("labels by clicks only: answers, skip, undo, previous and next; progress counts; the brief is rendered and a hostile one stays text", async () => {
    const brief = ["# Brief", "", "Read **carefully**.", "", "### detect.unhappy", "", "Is the owner *unhappy*? <img src=x onerror=\"document.title='pwned'\"> <script>document.title='pwned'</script> [x](javascript:document.title='pwned')"].join("\n");
    const server = await startLabelServer({ host: "127.0.0.1", port: 0, stateDir: join(tmp.dir, "mouse-state"), labelers: ["ana"], items: items(4), questions: [{ id: "detect.unhappy", kind: "yesno" }, { id: "satisfaction", kind: "rating", min: 1, max: 5 }], brief });
    const page = await context.newPage();
    try {
      await page.goto(server.urls["ana"]!);
      await page.waitForSelector("body[data-ready='1']");
      expect([await text(page, "#n"), await text(page, "#count")]).toEqual(["item 1 of 4", "0 / 4 done"]);
      expect(await page.locator("#brief strong").innerText()).toBe("carefully");
      expect(await page.locator("#brief .bq.cur em").innerText()).toBe("unhappy");
      expect(await page.locator("#brief img, #brief script").count()).toBe(0);
      expect(await page.locator("#brief .bq.cur").innerText()).toContain("<img src=x onerror=");
      expect(await page.locator("#brief a").getAttribute("href")).toBe("");
      const first = await text(page, "#xid");
      await click(page, '#qs li[data-q="detect.unhappy"] button', /^yes$/);
      await click(page, '#qs li[data-q="satisfaction"] button', /^2$/);
      expect([await text(page, "#n"), await text(page, "#count")]).toEqual(["item 2 of 4", "1 / 4 done"]);
      const second = await text(page, "#xid");
      await click(page, '#qs li[data-q="detect.unhappy"] button', /^no$/);
      await click(page, "#undo"); // takes the "no" back: the item is open again, the question in focus
      expect(await text(page, "#xid")).toBe(second);
      expect(await page.locator('#qs li[data-q="detect.unhappy"] .v').innerText()).toBe("");
      await click(page, '#qs li[data-q="detect.unhappy"] button.skipb');
      await click(page, '#qs li[data-q="satisfaction"] button', /^5$/);
      expect(await text(page, "#count")).toBe("2 / 4 done");
      await page.locator("#prev").click();
      await page.locator("#prev").click();
      expect(await text(page, "#xid")).toBe(first);
      expect(await page.locator('#qs li[data-q="satisfaction"] button.on').innerText()).toBe("2");
      await page.locator("#next").click();
      expect(await text(page, "#xid")).toBe(second);
      expect(await page.locator('#qs li[data-q="detect.unhappy"] .v').innerText()).toBe("skipped");
      expect(await page.title()).toBe("Labelling: ana");
      const sheet = await page.evaluate(async (t) => (await (await fetch("/api/sheet", { headers: { "x-errata-token": t } })).json()) as { answers: object; skipped: object }, new URL(server.urls["ana"]!).searchParams.get("t")!);
      expect(sheet.answers).toEqual({ [first]: { "detect.unhappy": true, satisfaction: 2 }, [second]: { satisfaction: 5 } });
      expect(sheet.skipped).toEqual({ [second]: ["detect.unhappy"] });
    } finally {
      await page.close();
      await server.close();
    }
  });

  it("serves the last active-labelling round's proposals in their order, to every labeller; the export imports", async () => {
    const bed = await goldBed(join(tmp.dir, "active"), 20);
    // A judge's P(yes) for every AB-ReDial exchange (seeded from the id; only the order matters here).
    const ex = readFileSync(EXCHANGES, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { id: string }).id);
    const preds = ex.map((id, i) => JSON.stringify({ schema: "prediction/1", exchange_id: id, detector: "v4", detected: i % 7 === 0, class: null, p_failure: ((i * 2654435761) % 1000) / 1000 }));
    writeFileSync(join(bed.dir, "v4.jsonl"), preds.join("\n") + "\n");
    const next = JSON.parse(await cli(bed, ["eval", "sample", "--next", "8", "--exchanges", EXCHANGES, "--failures", "v4.jsonl", "--seed", "3", "--json"])) as { proposed: { exchange_id: string }[] };
    const proposed = next.proposed.map((p) => p.exchange_id);
    expect(proposed.length).toBeGreaterThan(2);
    const child = spawn(process.execPath, [join(repo, "bin", "errata.cjs"), "eval", "label", "serve", "--labelers", "ana,ben", "--exchanges", EXCHANGES, "--questions", QUESTIONS, "--port", "0"], { cwd: bed.dir, env: { PATH: process.env["PATH"] ?? "", HOME: bed.dir, ...bed.env }, stdio: ["ignore", "pipe", "pipe"] });
    children.push(child);
    const urls = await new Promise<Record<string, string>>((resolve, reject) => {
      let out = "";
      child.stdout?.on("data", (d: Buffer) => {
        out += String(d);
        const m = Object.fromEntries([...out.matchAll(/^(\w+): (http:\/\/\S+)$/gm)].map((x) => [x[1], x[2]]));
        if (m["ana"] && m["ben"] && /active round 1/.test(out)) resolve(m as Record<string, string>);
      });
      child.on("exit", (code) => reject(new Error(`serve exited ${code}`)));
    });
    const page = await context.newPage();
    try {
      for (const who of ["ana", "ben"]) {
        await page.goto(urls[who]!);
        await page.waitForSelector("body[data-ready='1']");
        expect(await text(page, "#order")).toBe("active round 1: the most informative first");
        const seen: string[] = [];
        for (let i = 0; i < proposed.length; i++) {
          seen.push(await text(page, "#xid"));
          if (i < proposed.length - 1) await page.locator("#next").click();
        }
        expect(seen).toEqual(proposed);
        expect(await page.locator("#next").isDisabled()).toBe(true);
      }
      // Label the first two by clicks, export, import: active items import though they are not all gold.
      await page.goto(urls["ana"]!);
      await page.waitForSelector("body[data-ready='1']");
      for (let i = 0; i < 2; i++) {
        await click(page, '#qs li[data-q="detect.unhappy"] button', /^yes$/);
        await click(page, '#qs li[data-q="satisfaction"] button', /^3$/);
      }
      const [download] = await Promise.all([page.waitForEvent("download"), page.locator("#export").click()]);
      const csv = join(bed.dir, "ana.csv");
      writeFileSync(csv, readFileSync((await download.path())!, "utf8"));
      const out = JSON.parse(await cli(bed, ["eval", "label", "import", csv, "--questions", QUESTIONS, "--json"])) as { imported: number; rows: number };
      expect([out.rows, out.imported]).toEqual([2, 4]);
      const labels = readFileSync(join(bed.env["ERRATA_DIR"]!, "eval", "labels.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { exchange_id: string }).exchange_id);
      expect([...new Set(labels)]).toEqual(proposed.slice(0, 2));
    } finally {
      await page.close();
      child.kill("SIGTERM");
    }
  });

  it("the adjudication view: labels side by side without names, a pick and an ambiguous by clicks, undo; decisions appended apart from the labels", async () => {
    const its = items(3);
    const L = (i: number, labeler: string, value: boolean) => ({ exchange_id: its[i]!.exchange_id, labeler, question: "detect.unhappy", value });
    // item 0: 2-1 (a split), item 1: 1-1 (a tie, cy gave none), item 2: unanimous (not shown).
    const labels = [L(0, "ana", true), L(0, "ben", false), L(0, "cy", false), L(1, "ana", true), L(1, "ben", false), L(2, "ana", true), L(2, "ben", true), L(2, "cy", true)];
    const file = join(tmp.dir, "adjudications.jsonl");
    const server = await startLabelServer({
      host: "127.0.0.1", port: 0, stateDir: join(tmp.dir, "adj-state"), labelers: ["ana"], items: its, questions: [{ id: "detect.unhappy", kind: "yesno" }], brief: "# Brief\n\n### detect.unhappy\n\nIs the owner **unhappy**?",
      adjudication: { adjudicators: ["lee"], file, labels, questions: ["detect.unhappy"], texts: new Map(its.map((i) => [i.exchange_id, i])), now: () => Date.UTC(2026, 11, 6, 23, 0) },
    });
    const page = await context.newPage();
    try {
      await page.goto(server.urls["lee"]!);
      await page.waitForSelector("body[data-ready='1']");
      expect(await page.title()).toBe("Adjudication: lee");
      expect([await text(page, "#n"), await text(page, "#count"), await text(page, "#xid")]).toEqual(["item 1 of 2", "0 / 2 decided", its[1]!.exchange_id]); // the tie first
      const body = await page.locator("#qs").innerText();
      expect(body).toMatch(/labeller A/);
      expect(body).not.toMatch(/ana|ben|cy/);
      expect(await page.locator("#qs .vote").count()).toBe(2);
      expect(await page.locator("#brief .bq.cur strong").innerText()).toBe("unhappy");
      await shot(page, "pages-adjudication.png");
      await click(page, "#qs button.amb");
      expect([await text(page, "#xid"), await text(page, "#count")]).toEqual([its[0]!.exchange_id, "1 / 2 decided"]);
      expect(await page.locator("#qs .vote").count()).toBe(3);
      await click(page, "#qs button.pick", /yes$/);
      expect(await text(page, "#count")).toBe("2 / 2 decided");
      await click(page, "#undo"); // the pick taken back: a withdrawal appended
      expect([await text(page, "#xid"), await text(page, "#count")]).toEqual([its[0]!.exchange_id, "1 / 2 decided"]);
      await click(page, "#qs button.pick", /no$/);
      const rows = readFileSync(file, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { exchange_id: string; decision: string; value: unknown; adjudicator: string; labels: unknown[]; at: string });
      expect(rows.map((r) => [r.exchange_id, r.decision, r.value])).toEqual([[its[1]!.exchange_id, "ambiguous", null], [its[0]!.exchange_id, "label", true], [its[0]!.exchange_id, "withdrawn", null], [its[0]!.exchange_id, "label", false]]);
      expect(rows[0]!.labels).toEqual([{ labeler: "ana", value: true }, { labeler: "ben", value: false }]);
      expect(rows.every((r) => r.adjudicator === "lee" && r.at === "2026-12-06T23:00:00.000Z")).toBe(true);
      // Roles: the labeller's token reaches no adjudication, the adjudicator's no sheet.
      const t = (u: string) => new URL(u).searchParams.get("t")!;
      const statuses = await page.evaluate(async ([ana, lee]) => {
        const get = async (path: string, tok: string) => (await fetch(path, { headers: { "x-errata-token": tok } })).status;
        return [await get("/api/adjudication", ana!), await get("/api/sheet", lee!), await get("/api/export.csv", lee!)];
      }, [t(server.urls["ana"]!), t(server.urls["lee"]!)]);
      expect(statuses).toEqual([404, 403, 403]);
    } finally {
      await page.close();
      await server.close();
    }
  });
});
