import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // One visible line per group of tests that will skip here, with what is missing and how to get it.
    globalSetup: ["test/helpers/skips.ts"],
    // Temporary folders a test file made and did not remove are removed when it ends.
    setupFiles: ["test/helpers/cleanup.ts"],
  },
});
