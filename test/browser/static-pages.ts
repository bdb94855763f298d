import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { run } from "../../cli/main.js";
import { NOTEBOOKS, renderNotebook } from "../../notebooks/index.js";
import { memoryIo, tempDir } from "../helpers/io.js";
import { CHROMIUM, hasChromium, launch } from "./chromium.js";

// The static pages in chromium, opened from disk: every notebook and the Pulse page show
// their figures and ask for nothing beyond their own file (offline at view time).
// Screenshots go to ERRATA_SCREENSHOT_DIR when it is set.
if (!hasChromium) process.stdout.write(`SKIP test/browser/static-pages.ts: no chromium at ${CHROMIUM} (apt-get install -y chromium)\n`);
const root = new URL("../../", import.meta.url).pathname;
const tmp = tempDir("errata-static-");
let context: BrowserContext;
let closeBrowser: () => Promise<void> = async () => {};

describe.skipIf(!hasChromium)("the static pages in chromium", () => {
  beforeAll(async () => {
    ({ context, close: closeBrowser } = await launch());
  });
  afterAll(async () => {
    await closeBrowser();
    tmp.cleanup();
  });

  async function open(file: string, shot: string | null): Promise<{ figures: number; requests: string[] }> {
    const page = await context.newPage();
    const requests: string[] = [];
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(pathToFileURL(file).href);
    const figures = await page.locator("figure svg").count();
    const dir = process.env["ERRATA_SCREENSHOT_DIR"];
    if (dir && shot) {
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, shot) });
    }
    await page.close();
    return { figures, requests: requests.filter((u) => u !== pathToFileURL(file).href) };
  }

  it("every notebook: figures drawn, nothing fetched", async () => {
    for (const nb of NOTEBOOKS) {
      const file = join(tmp.dir, `${nb.name}.html`);
      writeFileSync(file, await renderNotebook(nb, root));
      const r = await open(file, nb.name === "detectors" ? "pages-notebook-detectors.png" : nb.name === "calibration" ? "pages-notebook-calibration.png" : null);
      expect(r.figures, nb.name).toBeGreaterThan(0);
      expect(r.requests, nb.name).toEqual([]);
    }
  });

  it("the Pulse page: figures drawn, nothing fetched", async () => {
    const env = { ERRATA_DIR: join(tmp.dir, "ledger"), ERRATA_STATE_DIR: join(tmp.dir, "state") };
    for (const text of ["bug: the build broke again", "wrong: it used the old API"]) expect(await run(["add", text, "--ts", "2026-11-27T09:00:00Z"], memoryIo({ env, cwd: tmp.dir }).io)).toBe(0);
    const io = memoryIo({ env, cwd: tmp.dir });
    expect(await run(["report", "--html", "--out", "pulse.html"], io.io), io.err()).toBe(0);
    const r = await open(join(tmp.dir, "pulse.html"), null);
    expect(r.figures).toBeGreaterThan(0);
    expect(r.requests).toEqual([]);
  });
});
