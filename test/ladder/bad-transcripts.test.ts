/**
 * Bad transcripts never stop the audit: a line without a timestamp, a line that is not JSON, a
 * path that is a folder are skipped with one warning naming the file, and a check in shadow
 * is still judged (before, one such line failed the ladder stage every night).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runAudit } from "../../runtime/ladder/index.js";
import { tempDir } from "../helpers/io.js";
import { writeSession } from "./helpers.js";

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-bad-transcripts-")));
afterEach(() => tmp.cleanup());

it("skips what it cannot read, warns once per file, and judges the shadow check all the same", async () => {
  const dir = join(tmp.dir, "ladder");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "checks.json"), JSON.stringify({ version: 1, checks: [{ id: "no-npm", rule_id: null, tools: ["Bash"], conditions: [{ field: "command", operator: "regex_match", pattern: "\\bnpm\\b" }], action: "deny", message: "pnpm", mode: "shadow" }] }));
  const good = writeSession(tmp.dir, "s1", "2026-12-01T10:00:00Z", [{ prompt: "install", tools: [{ name: "Bash", input: { command: "npm i" } }], reply: "Done." }]);
  const bad = writeSession(tmp.dir, "s2", "2026-12-01T11:00:00Z", [{ prompt: "install", tools: [{ name: "Bash", input: { command: "npm i" } }], reply: "Done." }]);
  // Strip one line's timestamp and add a line that is not JSON.
  const lines = readFileSync(bad, "utf8").trim().split("\n");
  const rec = JSON.parse(lines[1]!) as Record<string, unknown>;
  delete rec["timestamp"];
  writeFileSync(bad, `${[lines[0], JSON.stringify(rec), "{not json", ...lines.slice(2)].join("\n")}\n`);
  const folder = join(tmp.dir, "a-folder.jsonl");
  mkdirSync(folder);
  const warned: string[] = [];
  const r = await runAudit({ ladderDir: dir, projectDir: null, transcripts: [good, bad, folder], at: "2026-12-02T03:00:00Z", warn: (l) => warned.push(l) });
  expect(warned).toHaveLength(2);
  expect(warned[0]).toContain(bad);
  expect(warned[0]).toMatch(/without a timestamp/);
  expect(warned[0]).toMatch(/not JSON/);
  expect(warned[1]).toContain(folder);
  expect(r.skipped).toHaveLength(2);
  expect(r.shadow.map((v) => v.check)).toEqual(["no-npm"]);
});
