// Debian's chromium driven by playwright-core (no browser download): where it is, how it is
// launched (headless, no sandbox for CI containers, nothing phoning home), and a fresh
// profile per launch.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env["ERRATA_CHROMIUM"] ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/**
 * The browser context of this process, on a fresh profile folder (playwright passes it as
 * --user-data-dir), launched by the first caller and shared with later ones until the last
 * holder closes it: test/browser/browser.test.ts holds it around its three suites, so one
 * chromium serves them all (a launch is about 3.3 CPU-s).
 */
let shared: { context: Promise<{ context: BrowserContext; close: () => Promise<void> }>; holders: number } | null = null;
export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  if (shared === null) shared = { context: launchOwn(), holders: 0 };
  const held = shared;
  held.holders++;
  const { context, close } = await held.context;
  let closed = false;
  return {
    context,
    close: async () => {
      if (closed) return;
      closed = true;
      if (--held.holders > 0) return;
      if (shared === held) shared = null;
      await close();
    },
  };
}

/** A browser context of its own on a fresh profile folder. */
async function launchOwn(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "errata-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    acceptDownloads: true,
    viewport: { width: 1280, height: 820 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
