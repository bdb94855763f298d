// Debian's chromium driven by playwright-core (no browser download): where it is, how it is
// launched (headless, no sandbox for CI containers, nothing phoning home), and a fresh
// profile per launch.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM = process.env["ERRATA_CHROMIUM"] ?? "/usr/bin/chromium";
export const hasChromium = existsSync(CHROMIUM);

export async function launch(): Promise<{ browser: Browser; close: () => Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), "errata-chromium-"));
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`],
  });
  return {
    browser,
    close: async () => {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
