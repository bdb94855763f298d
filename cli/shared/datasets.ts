import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { repoDatasetsDir } from "../../runtime/engine/index.js";
import { ErrataError } from "../../core/errors.js";

/**
 * The data sets bundled with Errata (its `datasets/` folder, beside package.json): each
 * folder of datasets/ that holds files is a set (`ab-redial`); a folder that holds only
 * folders names its subfolders (`claude-code/spotter`). The help texts' examples copy sets
 * into the working folder with `errata datasets copy`, so they run from anywhere.
 *
 * Example: `bundledSets()` -> `[{name: "ab-redial", dir: "/…/datasets/ab-redial", files: ["LICENSE", …], bytes: 887518}, …]`.
 */
export interface BundledSet {
  name: string;
  dir: string;
  /** Paths relative to the set's folder, sorted; subfolders included. */
  files: string[];
  bytes: number;
}

export function datasetsDir(): string {
  const dir = repoDatasetsDir();
  if (dir === null) throw new ErrataError("NOT_FOUND", "no bundled data sets", { expected: "a datasets/ folder beside Errata's package.json", found: "none (an install without its data)" });
  return dir;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d).sort()) {
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

export function bundledSets(root = datasetsDir()): BundledSet[] {
  const sets: BundledSet[] = [];
  const add = (name: string, dir: string): void => {
    const files = filesUnder(dir);
    sets.push({ name, dir, files, bytes: files.reduce((s, f) => s + statSync(join(dir, f)).size, 0) });
  };
  for (const f of readdirSync(root).sort()) {
    const dir = join(root, f);
    if (!statSync(dir).isDirectory()) continue;
    const entries = readdirSync(dir);
    if (entries.length > 0 && entries.every((e) => statSync(join(dir, e)).isDirectory())) {
      for (const sub of entries.sort()) add(`${f}/${sub}`, join(dir, sub));
    } else add(f, dir);
  }
  return sets;
}
