import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { ISOLATED } from "./test/helpers/isolated.js";
import LongestFirst from "./test/helpers/sequencer.js";

/** This checkout, as a pattern for the start of a file's path. */
const root = fileURLToPath(new URL(".", import.meta.url)).replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export default defineConfig({
  test: {
    // No time limit per test or hook: on a loaded machine a test is slow, not wrong, and a limit
    // it can reach there fails a change that broke nothing. A hang is bounded where it can
    // happen: each child process a test starts (test/helpers/child.ts kills it as hung after 15
    // minutes) and each call to a model server (the lanes' own time-outs). A hang in process
    // (an await that never settles) shows as a run that does not end; docs/testing.md says how
    // to find it.
    testTimeout: 0,
    hookTimeout: 0,
    pool: "forks",
    // The build's own JavaScript (dist/: the compiled CLI and runtime; mod/hooks/: the mod's
    // bundles), when a test imports it, loads as Node loads it for a user, not through Vite's
    // transform: a test that imports the compiled CLI cost 7.0 CPU-s that way and 3.7 without
    // (docs/testing.md). Nothing mocks or spies on those modules.
    server: { deps: { external: [new RegExp(`^${root}(dist|mod/hooks)/`)] } },
    // One worker per core. Vitest's default is one fewer than the cores (one worker on a 2-core
    // machine), which left a core idle whenever a test waited on a child process, a server or
    // the real client; measured in docs/testing.md ("Workers").
    maxWorkers: availableParallelism(),
    // The longest files start first (test/helpers/sequencer.ts), so the workers end together.
    sequence: { sequencer: LongestFirst },
    // One visible line per group of tests that will skip here, with what is missing and how to get it.
    globalSetup: ["test/helpers/skips.ts"],
    // Temporary folders a test file made and did not remove are removed when it ends.
    // Every property test draws from one seed (ERRATA_FC_SEED explores another).
    setupFiles: ["test/helpers/cleanup.ts", "test/helpers/fast-check-seed.ts"],
    projects: [
      // Most files share one process per worker (isolate: false): each still runs the setup
      // files and its own module, but the modules they import (zod, commander, the runtime)
      // load once per worker instead of once per file, about 1 s of CPU per file. The files
      // that change what a process shares, or spend their time in child processes, run each
      // in a fresh one (test/helpers/isolated.ts; docs/testing.md, "Shared processes").
      { extends: true, test: { name: "shared", include: ["test/**/*.test.ts"], exclude: ISOLATED, isolate: false } },
      { extends: true, test: { name: "isolated", include: ISOLATED } },
    ],
  },
});
