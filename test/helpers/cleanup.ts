/**
 * Vitest setup file (vitest.config.ts `setupFiles`): after each test file, the temporary
 * folders `tempDir` made there are removed, whether or not the file's own afterEach did, so a
 * run leaves no empty `errata-test-*` folders behind in the system's temp folder.
 */
import { afterAll } from "vitest";
import { removeTempDirs } from "./io.js";

afterAll(() => {
  removeTempDirs();
});
