/**
 * The rung-3 checks in force for the mod's tool path, read through `$`: `ladder/checks.json`
 * and the hookify files (the project's .claude/ hides the user's of the same name, as
 * runtime/ladder-formats/tool-sources.ts does). Each call lists the three folders (the hops go
 * out together) and reads the files again only when a name, size or modification time
 * changed since the last read: a tool call whose files did not change costs three listings
 * and no parse. A symbolic link, or an entry listed without a size and a time, is read at
 * every call (its listing says nothing of what it leads to). A file rewritten with the same
 * size within the file system's time resolution would be missed until its next change.
 *
 * Example: `await checksReader()($, {HOME: "/h"}, "/p")` -> the compiled checks of
 * `/h/.local/share/errata/ladder/checks.json`, `/p/.claude/hookify.*.local.md` and
 * `/h/.claude/hookify.*.local.md` that apply to /p.
 */
import { compileChecks, checkApplies, type Check } from "../ladder-formats/checks.js";
import { parseChecksFile } from "../ladder-formats/checks-file.js";
import { hookifyCheck } from "../ladder-formats/hookify.js";
import { CHECKS_FILE, LADDER_DIR } from "../ladder-formats/files.js";
import { resolvePaths } from "../paths.js";
import type { FsEntry, ModApi } from "./api.js";

export type Compiled = ReturnType<typeof compileChecks>[number];
export type ChecksReader = ($: ModApi, env: Record<string, string | undefined>, cwd: string) => Promise<Compiled[]>;

export function checksReader(): ChecksReader {
  /** The checks last read, with the listing stamp they were read at. */
  let last: { stamp: string; compiled: Compiled[] } | null = null;
  return async ($, env, cwd) => {
    const paths = resolvePaths(env, cwd);
    const ladder = `${paths.ledgerDir}/${LADDER_DIR}`;
    const own = `${ladder}/${CHECKS_FILE}`;
    const home = env["HOME"];
    const dirs = [`${cwd}/.claude`, ...(home ? [`${home}/.claude`] : [])];
    const listOf = (dir: string): Promise<FsEntry[]> => $.list(dir).then((es) => es, () => []);
    const [ladderList, ...listed] = await Promise.all([listOf(ladder), ...dirs.map(listOf)]);
    const files: FsEntry[] = [];
    const ownEntry = ladderList.find((x) => x.name === CHECKS_FILE);
    if (ownEntry !== undefined) files.push({ ...ownEntry, name: own });
    const seen = new Set<string>();
    dirs.forEach((dir, i) => {
      const names = (listed[i] as FsEntry[]).filter((x) => x.name.startsWith("hookify.") && x.name.endsWith(".local.md"));
      for (const x of names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (seen.has(x.name)) continue;
        seen.add(x.name);
        files.push({ ...x, name: `${dir}/${x.name}` });
      }
    });
    const stamped = files.every((x) => x.isLink !== true && typeof x.size === "number" && typeof x.mtimeMs === "number");
    const stamp = stamped ? JSON.stringify(files.map((x) => [x.name, x.size, x.mtimeMs])) : null;
    if (stamp !== null && last !== null && last.stamp === stamp) return last.compiled;
    const checks: Check[] = [];
    const take = (file: string, load: () => Check[]): void => {
      try {
        const got = load();
        compileChecks(got);
        checks.push(...got);
      } catch (err) {
        $.log(`errata mod: ${file}: ${err instanceof Error ? err.message : String(err)}; its checks are not run`);
      }
    };
    const texts = await Promise.all(files.map((f) => $.read(f.name).then((t) => t, () => null)));
    files.forEach((f, i) => {
      const text = texts[i];
      if (text === null || text === undefined) return;
      if (f.name === own) take(own, () => parseChecksFile(text, own));
      else
        take(f.name, () => {
          const c = hookifyCheck(text, f.name);
          return c === null ? [] : [c];
        });
    });
    const compiled = compileChecks(checks.filter((c) => checkApplies(c, cwd)));
    last = stamp === null ? null : { stamp, compiled };
    return compiled;
  };
}
