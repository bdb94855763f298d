import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { csvRoute, EXCHANGES, goldBed, importSheet, QUESTIONS, raterAnswers, repo, type Bed } from "../pages/label-fixture.js";
import { hasChromium, launch, CHROMIUM } from "./chromium.js";
import { startLabelServer } from "../../runtime/pages/index.js";
import { CLASS_IDS } from "../../questions/index.js";
import { built } from "../helpers/built.js";

// The labelling page in a real browser: Debian's chromium, driven by keyboard only, against
// the compiled `errata eval label serve` as its own process: 20 items labelled with a rater's
// real answers (a wrong answer undone on the way, arrows to look back), the server stopped
// and started again half-way (the page resumes where it stopped), the sheet exported with
// "e", imported, and compared row for row with the CSV route; a second labeller's token
// sees none of it. Screenshots go to ERRATA_SCREENSHOT_DIR when it is set.
const skip = !hasChromium ? `no chromium at ${CHROMIUM} (apt-get install -y chromium)` : !built ? "no dist/ (npm run build first)" : null;
if (skip !== null) process.stdout.write(`SKIP test/browser/label-page.ts: ${skip}\n`);

const tmp = tempDir("errata-browser-");
let bed: Bed;
let context: BrowserContext;
let closeBrowser: () => Promise<void> = async () => {};
let proc: ChildProcess | null = null;

/** Starts `errata eval label serve` and resolves with the labellers' URLs it printed. */
function serve(): Promise<Record<string, string>> {
  const args = [join(repo, "bin", "errata.cjs"), "eval", "label", "serve", "--labelers", "ana,ben", "--exchanges", EXCHANGES, "--questions", QUESTIONS, "--port", "0"];
  const child = spawn(process.execPath, args, { cwd: bed.dir, env: { PATH: process.env["PATH"] ?? "", HOME: bed.dir, ...bed.env }, stdio: ["ignore", "pipe", "pipe"] });
  proc = child;
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (d: Buffer) => (err += String(d)));
    child.stdout?.on("data", (d: Buffer) => {
      out += String(d);
      const urls = Object.fromEntries([...out.matchAll(/^(\w+): (http:\/\/127\.0\.0\.1:\d+\/\?t=[0-9a-f]{48})$/gm)].map((m) => [m[1], m[2]]));
      if (urls["ana"] && urls["ben"]) resolve(urls as Record<string, string>);
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}
function stop(): Promise<void> {
  const p = proc;
  proc = null;
  if (p === null || p.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    p.on("exit", () => resolve());
    p.kill("SIGTERM");
  });
}

async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env["ERRATA_SCREENSHOT_DIR"];
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, name) });
}

const text = (page: Page, sel: string): Promise<string> => page.locator(sel).innerText();
// The page counts acknowledged saves in body[data-saved]; read through selectors (the page's
// CSP rightly refuses evaluating strings).
const saves = async (page: Page): Promise<number> => Number((await page.locator("body").getAttribute("data-saved")) ?? 0);

/** Presses a key that saves, and waits until the server acknowledged it. */
async function press(page: Page, key: string): Promise<void> {
  const n = await saves(page);
  await page.keyboard.press(key);
  await page.waitForSelector(`body[data-saved="${n + 1}"]`, { state: "attached" });
}

/** Answers the item on screen with the rater's answers (s where the rater gave none). */
async function labelShownItem(page: Page, answers: ReturnType<typeof raterAnswers>): Promise<string> {
  const id = await text(page, "#xid");
  const a = answers.get(id);
  const d = a?.["detect.unhappy"] ?? null;
  await press(page, d === null ? "s" : d === "yes" ? "y" : "n");
  const s = a?.satisfaction ?? null;
  await press(page, s === null ? "s" : s);
  return id;
}

describe.skipIf(skip !== null)("the labelling page in chromium", () => {
  beforeAll(async () => {
    bed = await goldBed(tmp.dir);
    ({ context, close: closeBrowser } = await launch());
  });
  afterAll(async () => {
    await stop();
    await closeBrowser();
    tmp.cleanup();
  });

  it("20 items by keyboard across a server restart; the export imports to the CSV route's rows; a second token sees none of it", async () => {
    const answers = raterAnswers();
    const first = await serve();
    const requests: string[] = [];
    context.on("request", (r) => requests.push(r.url()));
    const page = await context.newPage();
    await page.goto(first["ana"]!);
    await page.waitForSelector("body[data-ready='1']");
    expect(await text(page, "#count")).toBe("0 / 20 done");
    expect(await text(page, "#brief h1")).toBe("Labelling brief"); // the brief's Markdown rendered
    expect(await text(page, "#brief .bq.cur h3")).toBe("detect.unhappy");

    const seen: string[] = [];
    for (let i = 0; i < 10; i++) {
      if (i === 3) {
        // A slip and its undo: the wrong answer is saved, then taken back.
        const id = await text(page, "#xid");
        await press(page, answers.get(id)?.["detect.unhappy"] === "yes" ? "n" : "y");
        await press(page, "u");
        expect(await text(page, "#xid")).toBe(id);
        expect(await page.locator("#qs li.cur").getAttribute("data-q")).toBe("detect.unhappy");
      }
      seen.push(await labelShownItem(page, answers));
    }
    expect(await text(page, "#count")).toBe("10 / 20 done");
    await shot(page, "pages-labelling.png");
    // Arrows look back without changing anything.
    await page.keyboard.press("ArrowLeft");
    expect(await text(page, "#xid")).toBe(seen[9]);
    await page.keyboard.press("ArrowRight");
    expect(await text(page, "#n")).toBe("item 11 of 20");
    await page.keyboard.press("ArrowDown");
    expect(await page.locator("#qs li.cur").getAttribute("data-q")).toBe("satisfaction");
    expect(await page.locator("#brief .bq.cur").count()).toBe(0); // satisfaction is a corpus key, not a bank question: no section
    await page.keyboard.press("ArrowUp");

    await stop();
    const second = await serve();
    expect(new URL(second["ana"]!).searchParams.get("t")).toBe(new URL(first["ana"]!).searchParams.get("t"));
    await page.goto(second["ana"]!);
    await page.waitForSelector("body[data-ready='1']");
    expect(await text(page, "#count")).toBe("10 / 20 done");
    expect(await text(page, "#n")).toBe("item 11 of 20");
    for (let i = 10; i < 20; i++) seen.push(await labelShownItem(page, answers));
    expect(await text(page, "#count")).toBe("20 / 20 done");
    expect(new Set(seen).size).toBe(20);

    const [download] = await Promise.all([page.waitForEvent("download"), page.keyboard.press("e")]);
    expect(download.suggestedFilename()).toBe("ana.csv");
    const csv = readFileSync((await download.path())!, "utf8");
    const pageRows = await importSheet(bed, "page-route", "ana", csv);
    const route = await csvRoute(bed, "ana", answers);
    expect(route.order).toEqual(seen);
    expect(pageRows).toEqual(route.rows);
    expect(pageRows.length).toBeGreaterThanOrEqual(30);

    // Ben's token: Ben's own (empty) sheet; Ana's answers are nowhere in what it can read.
    const benPage = await context.newPage();
    await benPage.goto(second["ben"]!);
    await benPage.waitForSelector("body[data-ready='1']");
    expect(await text(benPage, "#count")).toBe("0 / 20 done");
    const ben = await benPage.evaluate(async (t) => {
      const h = { "x-errata-token": t };
      const sheet = (await (await fetch("/api/sheet", { headers: h })).json()) as { answers: object; labeler: string };
      const exported = await (await fetch("/api/export.csv", { headers: h })).text();
      const anaWithout = await fetch("/api/sheet");
      return { labeler: sheet.labeler, answers: sheet.answers, rows: exported.trim().split("\n").length, anaWithout: anaWithout.status };
    }, new URL(second["ben"]!).searchParams.get("t")!);
    expect(ben).toEqual({ labeler: "ben", answers: {}, rows: 1, anaWithout: 403 });
    const forbidden = await benPage.goto(second["ana"]!.replace(/t=[0-9a-f]+/, `t=${"0".repeat(48)}`));
    expect(forbidden?.status()).toBe(403);
    // Offline: nothing but the server itself was asked for anything.
    expect(requests.filter((u) => !u.startsWith("http://127.0.0.1:"))).toEqual([]);
    await page.close();
    await benPage.close();
  });

  it("a category of ten or more options takes one or two digits", async () => {
    const values = [...CLASS_IDS, "none"];
    expect(values.length).toBeGreaterThan(9);
    const items = ["a", "b"].map((k) => ({ exchange_id: `ex-${k.repeat(16)}`, previous_ask: null, reply_end: "r", tool_calls: "", prompt: `p ${k}` }));
    const server = await startLabelServer({ host: "127.0.0.1", port: 0, stateDir: join(tmp.dir, "class-state"), labelers: ["cat"], items, questions: [{ id: "class", kind: "category", values }], brief: "# brief" });
    const page = await context.newPage();
    try {
      await page.goto(server.urls["cat"]!);
      await page.waitForSelector("body[data-ready='1']");
      const first = await text(page, "#xid");
      await page.keyboard.press("1");
      await page.keyboard.press("2");
      await page.waitForSelector('body[data-saved="1"]', { state: "attached" });
      await page.keyboard.press("3"); // cannot begin a two-digit option: taken at once
      await page.waitForSelector('body[data-saved="2"]', { state: "attached" });
      const sheet = await page.evaluate(async (t) => ((await (await fetch("/api/sheet", { headers: { "x-errata-token": t } })).json()) as { answers: Record<string, { class: string }> }).answers, new URL(server.urls["cat"]!).searchParams.get("t")!);
      const second = items.map((i) => i.exchange_id).find((id) => id !== first)!;
      expect(sheet).toEqual({ [first]: { class: values[11] }, [second]: { class: values[2] } });
    } finally {
      await page.close();
      await server.close();
    }
  });
});
