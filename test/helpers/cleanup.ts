/**
 * Vitest setup file (vitest.config.ts `setupFiles`): after each test file, the temporary
 * folders `tempDir` made there are removed, whether or not the file's own afterEach did, so a
 * run leaves no empty `errata-test-*` folders behind in the system's temp folder.
 */
import { afterAll } from "vitest";
import { removeTempDirs } from "./io.js";

// The owner's imported betterleaks rules (`errata secrets rules import`, in the real state
// folder) would change what the redactor finds in every test: off, unless a run sets it
// (docs/privacy.md measures with ERRATA_IMPORTED_RULES=on and ERRATA_STATE_DIR).
process.env["ERRATA_IMPORTED_RULES"] ??= "off";

afterAll(() => {
  removeTempDirs();
});
