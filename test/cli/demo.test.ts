// The README's first quick-start command ends in `npm run demo` (scripts/demo.js over the built
// CLI): it must run offline to the end and print every figure it names (a key read under the
// wrong name printed "47 failures under undefined").
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { built } from "../helpers/built.js";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));

describe.skipIf(!built)("npm run demo (scripts/demo.js)", () => {
  it("runs the daily job end to end on the bundled data, offline, and prints no undefined or NaN", () => {
    const r = spawnSync(process.execPath, [join(repoRoot, "scripts", "demo.js")], { cwd: repoRoot, encoding: "utf8", env: { ...process.env, OPENAI_API_KEY: "", ANTHROPIC_API_KEY: "" } });
    const ledger = /Try: ERRATA_DIR=(\S+) /.exec(r.stdout)?.[1];
    try {
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/\$ errata daily --root /);
      expect(r.stdout).toMatch(/^v4 report: +\S+report-\d{4}-\d{2}-\d{2}\.md$/m);
      expect(r.stdout).toMatch(/^\s+\d+ failures under the cuts calibrated with the weights /m);
      expect(r.stdout).not.toMatch(/\bundefined\b|\bNaN\b|\[object Object\]/);
    } finally {
      if (ledger) rmSync(ledger, { recursive: true, force: true });
    }
  });
});
