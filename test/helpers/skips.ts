/**
 * Vitest global setup: one visible line per group of tests that will skip on this machine,
 * naming what is missing and how to get it, printed once before the run (a skipped test must
 * say so; `it.skipIf` alone prints only a quiet "↓"). The paths are the ones the groups' own
 * `skipIf` conditions test (test/transcripts/fixtures.ts, test/corpora/helpers.ts,
 * test/eval/datasets.ts, ...): `../shared/datasets` beside the repository, or
 * ERRATA_SHARED_DATASETS.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { BUILD_OUTPUTS } from "./built.js";
import { clientBinary, CLAUDE_CODE_VERSION } from "../e2e/client.js";
import { POSTGRES_INITDB } from "./postgres.js";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const shared = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");
const GET_SHARED = "put the shared data sets beside the repository as ../shared/datasets (its README says what each is), or point ERRATA_SHARED_DATASETS at them";

interface Requirement {
  /** The tests that need it. */
  tests: string;
  paths: string[];
  how: string;
}

/** The upstream secret scanners' samples (test/privacy/upstream-fixtures.test.ts). */
export const UPSTREAM_FIXTURES = join(shared, "upstream-secret-fixtures", "fixtures.json");
/** betterleaks' rule file, beside them (test/privacy/betterleaks-import.test.ts). */
export const BETTERLEAKS_RULES = join(shared, "upstream-secret-fixtures", "betterleaks.toml");

export const REQUIREMENTS: readonly Requirement[] = [
  { tests: "AB-ReDial reference figures, agreement and eval loop, importer round trip, classifier quality (test/eval/*, test/corpora/ab-redial, test/classifier/quality)", paths: [join(shared, "ab-redial", "annotated_turns.csv")], how: GET_SHARED },
  { tests: "USS reference figures and importer (test/eval/reference-figures, test/corpora/uss-and-cli, test/classifier/quality)", paths: [join(shared, "uss", "SGD.txt"), join(shared, "uss", "MWOZ.txt")], how: "USS is local-only (its licence keeps it out of the repository): place SGD.txt and MWOZ.txt in ../shared/datasets/uss/" },
  { tests: "DBDC3 fresh import (test/corpora/corpora)", paths: [join(shared, "dbdc3", "DBDC3.zip")], how: GET_SHARED },
  { tests: "ConTurE fresh import (test/corpora/corpora)", paths: [join(shared, "conture", "data", "data.json")], how: GET_SHARED },
  { tests: "UKP fresh import and taxonomy evidence (test/corpora/corpora, test/questions/bank)", paths: [join(shared, "ukp-free-text-feedback", "data", "analysis")], how: GET_SHARED },
  { tests: "m-claude transcript sessions (test/transcripts/*), the capture's held-out real prompts (test/classifier/heldout)", paths: [join(shared, "claude-transcripts", "m-claude")], how: GET_SHARED },
  {
    tests: "the tests that run the build (every file importing test/helpers/built.ts: the CLI contract's real-process sample, the hook and tool-hook processes, the demos, the fault suite, the run lock, the research loop)",
    paths: [...BUILD_OUTPUTS],
    how: "run `npm run build` first (`npm test` does, once)",
  },
  {
    tests: "the upstream scanners' samples (test/privacy/upstream-fixtures)",
    paths: [UPSTREAM_FIXTURES],
    how: "run scripts/extract-upstream-fixtures.js on gitleaks', betterleaks' and secretlint's checkouts (docs/privacy.md says which commits) with --out into ../shared/datasets/upstream-secret-fixtures/ (or ERRATA_SHARED_DATASETS)",
  },
  {
    tests: "betterleaks' rule file converted, every rule compiled and checked on its samples (test/privacy/betterleaks-import)",
    paths: [BETTERLEAKS_RULES, UPSTREAM_FIXTURES],
    how: "put betterleaks' config/betterleaks.toml (v1.7.0, commit 6381fa45ae946c588e2e1334d8396a15e5171ad6, MIT) beside fixtures.json as ../shared/datasets/upstream-secret-fixtures/betterleaks.toml (or under ERRATA_SHARED_DATASETS)",
  },
  { tests: "the PostgreSQL store and the server over it (test/server/pg-store, pg-daily, hooks-ladder, the Postgres cases of test/server/intake and sync)", paths: [POSTGRES_INITDB], how: "install Debian's PostgreSQL (`apt-get install -y postgresql`; the tests start their own throwaway cluster)" },
  { tests: `the real-client suite (test/e2e/*, Claude Code ${CLAUDE_CODE_VERSION})`, paths: [clientBinary(), join(repoRoot, "dist", "cli", "main.js")], how: "run `node scripts/claude-code.mjs install` (the pinned client, into a cache folder outside the package; it needs the npm registry) and `npm run build`" },
];

/** The requirements missing here, each as its one line. */
export function missingLines(): string[] {
  return REQUIREMENTS.filter((r) => !r.paths.every((p) => existsSync(p))).map(
    (r) => `skipping ${r.tests}: missing ${r.paths.filter((p) => !existsSync(p)).join(", ")}; to run them, ${r.how}`,
  );
}

/** Set in the main process once the lines are out: each of vitest.config.ts's projects runs this global setup, and the lines are said once a run. */
const PRINTED = Symbol.for("errata.test.skips-printed");

export default function setup(): void {
  const g = globalThis as { [PRINTED]?: boolean };
  if (g[PRINTED] === true) return;
  g[PRINTED] = true;
  for (const line of missingLines()) process.stderr.write(`${line}\n`);
}
