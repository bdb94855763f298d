import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ErratumSchema } from "../../schemas/erratum.js";
import { tempDir } from "../helpers/io.js";
import { ledgerLines } from "./hook-helpers.js";
import { built } from "../helpers/built.js";

// These run the compiled hook (`npm test` builds dist/ first, as the host runs it).
const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const bin = join(repoRoot, "bin", "errata.cjs"); // the package bin
const hookMain = join(repoRoot, "dist", "runtime", "hooks", "hook-main.js");

/** Every module the compiled hook loads, following relative imports; bare specifiers returned apart. */
function importGraph(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string): void => {
    if (files.has(file)) return;
    files.add(file);
    // A JSON module is data: its strings may quote imports (gitleaks' allowlists do).
    if (file.endsWith(".json")) return;
    // Comments may quote imports (usage examples): only code counts.
    const src = readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
    // The word "import" inside a string (a list of words, `"import", "describe"`) is no import.
    for (const m of src.matchAll(/(?<![\w$."'])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?<![\w$."'])import\(\s*["']([^"']+)["']\s*\)|(?<![\w$."'])import\s*["']([^"']+)["']/g)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!spec) continue;
      if (spec.startsWith(".")) visit(resolve(dirname(file), spec));
      else bare.add(spec);
    }
  };
  visit(entry);
  return { files: [...files], bare: [...bare] };
}

let tmp: { dir: string; cleanup: () => void };
beforeEach(() => (tmp = tempDir("errata-hookproc-")));
afterEach(() => tmp.cleanup());

describe.skipIf(!built)("the compiled hook as a process", () => {
  it("is built (run `npx tsc -p tsconfig.json` first)", () => {
    expect(existsSync(hookMain)).toBe(true);
  });

  it("loads no zod and no commander: only node built-ins and its own files", () => {
    const g = importGraph(hookMain);
    expect(g.bare.filter((s) => !s.startsWith("node:"))).toEqual([]);
    expect(g.files.some((f) => f.includes(`${join("dist", "cli")}`))).toBe(false);
    // The language data reaches dist/ with the code that imports it.
    for (const code of ["en", "fi", "de", "es", "fr", "pt", "ru"]) {
      expect(existsSync(join(repoRoot, "dist", "runtime", "classifier", "lang", `${code}.json`))).toBe(true);
    }
  });

  it("stdin to ledger append, exit 0, one line for the host", () => {
    const ledger = join(tmp.dir, "ledger");
    const stdin = JSON.stringify({ session_id: "p1", hook_event_name: "UserPromptSubmit", prompt: "3/10, you ignored half the spec", cwd: tmp.dir });
    const r = spawnSync(process.execPath, [bin, "hook", "user-prompt-submit"], { input: stdin, env: { ...process.env, ERRATA_DIR: ledger }, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
    const rows = ledgerLines(ledger).map((l) => ErratumSchema.parse(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: "complaint", rating: 3, channel: "hook" });
    expect(r.stdout).toBe(`Errata captured this prompt as a complaint (${rows[0]?.id}); acceptance pending.\n`);
  });

  it("closed or empty stdin: exit 0, one stderr line, no ledger", () => {
    const ledger = join(tmp.dir, "ledger");
    const r = spawnSync(process.execPath, [bin, "hook", "user-prompt-submit"], { input: "", env: { ...process.env, ERRATA_DIR: ledger }, encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(existsSync(ledger)).toBe(false);
  });

  it("classify runs from the compiled module with its JSON data (node -e)", () => {
    const code = `import(${JSON.stringify(join(repoRoot, "dist", "runtime", "classifier", "classify.js"))}).then((m) => process.stdout.write(JSON.stringify(m.classify("ei toimi"))))`;
    const r = spawnSync(process.execPath, ["-e", code], { encoding: "utf8" });
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ kind: "correction", language: "fi" });
  });
});
