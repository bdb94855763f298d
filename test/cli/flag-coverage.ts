import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Command } from "commander";

/**
 * Which of the CLI's flags no test names: every long option of every command, from the
 * commander program, searched as a whole word (`--limit`, not `--limit-files`) in the test
 * files. The contract test and its helpers are left out of the search: they add --json and
 * --dry-run to every command and would cover them by construction.
 *
 * Run it after `npm run build`: `node dist/test/cli/flag-coverage.js` prints the count and the
 * flags no test names, with the commands that have them.
 *
 * Example: `untestedFlags(program, ["run(['list', '--limit', '2'])"])` -> every flag but
 * --limit, e.g. `[{flag: "--kind", commands: ["list"]}, …]`.
 */
export interface FlagUse {
  flag: string;
  /** The commands that have the flag, as typed after `errata`. */
  commands: string[];
}

const SKIP = new Set(["contract.test.ts", "contract-walk.ts", "examples.ts", "flag-coverage.ts", "flag-coverage.test.ts"]);

export function allFlags(program: Command): FlagUse[] {
  const byFlag = new Map<string, string[]>();
  const walk = (cmd: Command, path: string[]): void => {
    for (const o of cmd.options) if (o.long) byFlag.set(o.long, [...(byFlag.get(o.long) ?? []), path.join(" ") || "(errata)"]);
    for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
  };
  walk(program, []);
  return [...byFlag].map(([flag, commands]) => ({ flag, commands })).sort((a, b) => a.flag.localeCompare(b.flag));
}

/** The text of every test file under `dir` but the contract test's own. */
export function testTexts(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ts|js|mjs|cjs)$/.test(f) && !SKIP.has(f)) out.push(readFileSync(p, "utf8"));
    }
  };
  walk(dir);
  return out;
}

export function untestedFlags(program: Command, texts: readonly string[]): FlagUse[] {
  const all = texts.join("\n");
  return allFlags(program).filter(({ flag }) => !new RegExp(`(?<![\\w-])${flag.replace(/-/g, "\\-")}(?![\\w-])`).test(all));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { buildProgram, commandNames, loadRegisters } = await import("../../cli/main.js");
  const quiet = { write: () => true };
  const program = buildProgram({ io: { stdout: quiet, stderr: quiet, env: {}, cwd: process.cwd(), now: () => 0, readStdin: async () => "", isTTY: false }, exitCode: 0 }, await loadRegisters(commandNames()));
  const testDir = process.argv[2] ?? fileURLToPath(new URL("../../../test/", import.meta.url));
  const missing = untestedFlags(program, testTexts(testDir));
  process.stdout.write(`${missing.length} of ${allFlags(program).length} flags appear in no test under ${relative(process.cwd(), testDir) || "."}\n`);
  for (const m of missing) process.stdout.write(`  ${m.flag}  (${m.commands.join(", ")})\n`);
}
