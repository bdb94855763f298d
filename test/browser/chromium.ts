// Debian's chromium driven by playwright-core (no browser download): where it is, how it is
// launched (headless, no sandbox for CI containers, nothing phoning home), and a fresh
// profile per launch.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type BrowserContext } from "playwright-core";

export const CHROMIUM = process.env["ERRATA_CHROMIUM"] ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

/** A browser context on a fresh profile folder (playwright passes it as --user-data-dir). */
export async function launch(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
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
