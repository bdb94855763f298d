import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempDir } from "../helpers/io.js";
import { repoRoot } from "./compile-for-child.js";
import { assertRecordHasNoText } from "./record-guard.js";
import { built } from "../helpers/built.js";

// `npm run demo` runs the compiled CLI; `npm test` builds dist/ before vitest runs.

let t: { dir: string; cleanup: () => void };
beforeEach(() => {
  t = tempDir("errata-demo-");
});
afterEach(() => t.cleanup());

if (!built) console.log(`skipped: test/store/demo.test.ts needs a build (npm run build; npm test builds first)`);
describe.skipIf(!built)("npm run demo", () => {
  it("builds the sample ledger from bundled data and prints its stats", () => {
    const out = execFileSync(process.execPath, [join(repoRoot, "scripts", "demo.js"), "--dir", t.dir, "--json"], { encoding: "utf8" });
    const r = JSON.parse(out);
    expect(r.added).toBe(30);
    expect(r.validation).toEqual({ ok: true, errors: 0 });
    expect(r.stats.total).toBe(30);
    expect(r.stats.by_system).toEqual({ assistant: 27, "docs-bot": 2, other: 1 });
    expect(r.stats.product_feedback).toBe(3);
    // The sample's password in a URL was redacted at write; the record stream holds no text.
    expect(execFileSync("grep", ["-c", "REDACTED:url-password", join(t.dir, "errata-2026-10.jsonl")], { encoding: "utf8" }).trim()).toBe("1");
    expect(assertRecordHasNoText(join(t.dir, ".state", "record.jsonl"), t.dir)).toBe(30);
  });
});
