/**
 * The test files that run each in a fresh process (vitest.config.ts, project "isolated"); the
 * rest share one process per worker (project "shared", `isolate: false`). Here: the files that
 * change what a process shares (the in-process CLI walk sets the folder and environment per
 * call; first-hour stubs the environment and resets the module registry; call-budget fakes the
 * clock) and those whose time goes to child processes, not to loading modules (the real client,
 * the fault suite, Chromium, PostgreSQL). test/vitest-config.test.ts checks that every file
 * that stubs, mocks, fakes the clock or changes the folder is listed here.
 */
export const ISOLATED = [
  "test/e2e/**/*.test.ts",
  "test/faults/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "test/server/**/*.test.ts",
  "test/cli/contract.test.ts",
  "test/cli/contract-process.test.ts",
  "test/cli/first-hour.test.ts",
  "test/engine/call-budget.test.ts",
  "test/privacy/betterleaks-import.test.ts",
];
