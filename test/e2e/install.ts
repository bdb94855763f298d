/**
 * Errata installed as the README says, for the real-client suite: the repository packed as npm
 * publishes it (`npm pack`, dist/ as built) and the tarball installed with `npm install` into a
 * prefix, whose bin folder holds `errata` and `errata-tool-hook`. Made once per build and shared
 * by the suite's files (a folder in the system's temp folder keyed by a fingerprint of the
 * packed files, under a lock).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, linkSync, mkdirSync, readdirSync, readFileSync, readlinkSync, renameSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository: the nearest folder above with a package.json (this file also runs compiled, from dist/test/e2e for the bench). */
export const repoRoot = ((): string => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
})();

/** What the packed tarball depends on: package.json and every file under bin/, dist/ and mod/ (path, size, mtime). */
function buildFingerprint(): string {
  const h = createHash("sha256");
  h.update(readFileSync(join(repoRoot, "package.json")));
  for (const top of ["bin", "dist", "mod"]) {
    const entries = readdirSync(join(repoRoot, top), { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    // What package.json "files" leaves out of the tarball (tsc --noEmit rewrites .tsbuildinfo).
    const packed = (p: string) => !/[\\/]dist[\\/](test|bench)[\\/]|\.tsbuildinfo$/.test(p);
    for (const e of entries.map((x) => join(x.parentPath, x.name)).filter(packed).sort()) {
      const st = statSync(e);
      h.update(`${e}\0${st.size}\0${st.mtimeMs}\n`);
    }
  }
  return h.digest("hex").slice(0, 16);
}

/**
 * Marks an install as in use (its folder's time set to now) and returns `bin`: the clean-up
 * below removes installs nobody has touched for an hour, and using one touched nothing, so a
 * test run of another build (another worktree on the same machine) removed an install that
 * the files of a run still going were using, and the next file packed and installed it again
 * (18 CPU-s of `npm pack` and `npm install`, seen 2026-12-07).
 */
function touched(dir: string, bin: string): string {
  try {
    const now = new Date();
    utimesSync(dir, now, now);
  } catch {
    /* removed meanwhile: the caller's next use fails loudly */
  }
  return bin;
}

/**
 * `from` copied to `to` as hard links (symbolic links kept as links), each file copied where a
 * link is refused (another file system). Node's `cpSync` has no hard-link mode and `cp -al` is
 * not on every platform's cp, hence this walk.
 */
function linkTree(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const e of readdirSync(from, { withFileTypes: true })) {
    const src = join(from, e.name);
    const dst = join(to, e.name);
    if (e.isDirectory()) linkTree(src, dst);
    else if (e.isSymbolicLink()) symlinkSync(readlinkSync(src), dst);
    else {
      try {
        linkSync(src, dst);
      } catch {
        copyFileSync(src, dst);
      }
    }
  }
}

/**
 * The prefix's node_modules seeded with the repository's installed production packages (every
 * package of package-lock.json not marked `dev`, with what it nests, and their bin links), before
 * `npm install` of the tarball: npm then resolves the package's dependencies against that tree,
 * removes what Errata does not depend on, adds what is missing (from its cache) and installs the
 * package itself. Without the seed npm unpacked all ~240 dependencies from its cache, 11,000
 * files: 15-17 CPU-s and about 45 s of wall on the shared 2-core machine (2026-12-07), against
 * about 4 CPU-s with it. The dependencies are then the lockfile's versions, the ones every other
 * test runs with, where an empty prefix took the newest version in npm's cache of each range
 * (two of 242 differed here, d3-geo-projection 4.0.1 for 4.0.0 and vega-functions 6.2.1 for
 * 6.2.0), and fell back to the network when the cache held a newer version's metadata but not
 * its tarball.
 */
function seedDependencies(prefix: string): void {
  const modules = join(repoRoot, "node_modules");
  const lockFile = join(repoRoot, "package-lock.json");
  if (!existsSync(modules) || !existsSync(lockFile)) return; // npm installs every dependency itself
  const lock = JSON.parse(readFileSync(lockFile, "utf8")) as { packages?: Record<string, { dev?: boolean }> };
  const tops = new Set<string>();
  for (const [path, meta] of Object.entries(lock.packages ?? {})) {
    const m = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(path);
    if (m && meta.dev !== true) tops.add(m[1]!);
  }
  for (const name of tops) {
    if (existsSync(join(modules, name))) linkTree(join(modules, name), join(prefix, "node_modules", name));
  }
  // The bin links of the seeded packages (npm links only what it installs); the dev tools' stay out.
  const bins = join(prefix, "node_modules", ".bin");
  mkdirSync(bins, { recursive: true });
  for (const name of existsSync(join(modules, ".bin")) ? readdirSync(join(modules, ".bin")) : []) {
    let target: string;
    try {
      target = readlinkSync(join(modules, ".bin", name));
    } catch {
      continue; // not a link (a shim): npm makes its own where it needs one
    }
    if (existsSync(join(bins, target))) symlinkSync(target, join(bins, name));
  }
}

/**
 * Errata installed as the README says: the repository packed as npm publishes it (dist/ as
 * built; scripts/pack-check.mjs checks the same) and the tarball installed into a prefix.
 * Returns the prefix's bin folder (`errata`, `errata-tool-hook`). The install is kept in the
 * system's temp folder under a fingerprint of the build and shared by the suite's files; a
 * file that finds it half-made waits for it.
 */
export async function installErrata(): Promise<string> {
  const dir = join(tmpdir(), `errata-e2e-install-${buildFingerprint()}`);
  const bin = join(dir, "prefix", "node_modules", ".bin");
  const lock = `${dir}.lock`;
  for (;;) {
    if (existsSync(join(dir, "done"))) return touched(dir, bin);
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Another file installs it, or a crashed one left its lock: wait, and take over a stale lock.
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* the lock went away meanwhile */
      }
      await new Promise((r) => setTimeout(r, 500));
    }
  }
  try {
    if (existsSync(join(dir, "done"))) return touched(dir, bin);
    const work = `${dir}.part`;
    rmSync(work, { recursive: true, force: true });
    mkdirSync(work, { recursive: true });
    const pack = spawnSync("npm", ["pack", "--ignore-scripts", "--loglevel=error", "--pack-destination", work], { cwd: repoRoot, encoding: "utf8" });
    if (pack.status !== 0) throw new Error(`npm pack: ${pack.stderr}`);
    const tarball = readdirSync(work).find((f) => f.endsWith(".tgz"));
    if (!tarball) throw new Error("npm pack wrote no tarball");
    seedDependencies(join(work, "prefix"));
    const install = (mode: string) => spawnSync("npm", ["install", mode, "--no-audit", "--no-fund", "--omit=dev", "--loglevel=error", "--prefix", join(work, "prefix"), join(work, tarball)], { encoding: "utf8" });
    let r = install("--offline");
    if (r.status !== 0) r = install("--prefer-offline");
    if (r.status !== 0) throw new Error(`npm install of the tarball: ${r.stderr.slice(-600)}`);
    writeFileSync(join(work, "done"), "");
    rmSync(dir, { recursive: true, force: true });
    renameSync(work, dir);
    // Installs of earlier builds (80 MB each) go once nobody has touched them for an hour.
    for (const old of readdirSync(tmpdir()).filter((n) => /^errata-e2e-install-[0-9a-f]{16}$/.test(n) && join(tmpdir(), n) !== dir)) {
      const p = join(tmpdir(), old);
      if (Date.now() - statSync(p).mtimeMs > 3_600_000) rmSync(p, { recursive: true, force: true });
    }
    return bin;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}
