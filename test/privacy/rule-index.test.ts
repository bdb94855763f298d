// The rule index holds the text of every rule unit of the owner's instruction files. A secret
// pasted into CLAUDE.md is redacted in the index as written, while the unit's id and content
// hash are the ones of the text as written: ids do not move, and building again over the
// unchanged file changes nothing.
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runRulesBuild } from "../../runtime/jobs/index.js";
import { contentHash, ruleId } from "../../runtime/rules/ids.js";
import { tempDir } from "../helpers/io.js";

// Built from parts, so no scanner takes this file for a leak.
const TOKEN = ["ghp", "_", "R8fQ2mXz7LpA4vKs9TjWcY1nB6dHe3Gu0Zo5"].join("");
const PASSWORD = ["Tr0ub4dor", "&3-Horse", "Battery9"].join("");

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-rule-index-privacy-")));
afterEach(() => tmp.cleanup());

function build(v4Dir: string) {
  return runRulesBuild({ roots: [{ root: join(tmp.dir, "p") }], home: null, managed: [], extra: [], v4Dir, today: "2026-12-02", git: false, dryRun: false });
}

describe("the rule index keeps no secret of an instruction file in clear", () => {
  it("redacts unit texts, keeps the ids and hashes of the text as written, and a rebuild changes nothing", () => {
    mkdirSync(join(tmp.dir, "p"), { recursive: true });
    const secretLine = `- Push with the token ${TOKEN} and never print it.`;
    const dbLine = `- The staging database password is DB_PASSWORD="${PASSWORD}"; use it only in staging.`;
    writeFileSync(join(tmp.dir, "p", "CLAUDE.md"), `# Deploy\n\n${secretLine}\n${dbLine}\n- Use pnpm, never npm.\n`);
    const v4 = join(tmp.dir, "v4");
    const first = build(v4);
    expect(first.written).toBe(true);
    const raw = readFileSync(first.file, "utf8");
    expect(raw).not.toContain(TOKEN);
    expect(raw).not.toContain(PASSWORD);
    expect(raw).toContain("[REDACTED");
    expect(raw).toContain("Use pnpm, never npm.");
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    const units = first.result.index.units;
    expect(units).toHaveLength(3);
    expect(units[0]!.id).toBe(ruleId("claude", ["Deploy"], secretLine));
    expect(units[0]!.hash).toBe(contentHash(secretLine).slice(0, 6));
    const again = build(v4);
    expect(again.result.changed).toBe(false);
    expect(again.written).toBe(false);
    expect(again.result.index.units.map((u) => u.id)).toEqual(units.map((u) => u.id));
  });
});
