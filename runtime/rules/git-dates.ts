/**
 * When each line of a file last changed, from `git blame --line-porcelain` (committer time,
 * as a UTC date), for files inside a git work tree. Null when the file is not tracked, git is
 * missing, or blame fails: the index then dates units by its own history. One blame per file.
 *
 * Example: `gitLineDates("/repo/CLAUDE.md")` -> `[undefined, "2026-10-02", "2026-11-20", …]`
 * (index = 1-based line number).
 */
import { spawnSync } from "node:child_process";
import { basename, dirname } from "node:path";

export function gitLineDates(abs: string): Array<string | undefined> | null {
  const r = spawnSync("git", ["blame", "--line-porcelain", "--", basename(abs)], {
    cwd: dirname(abs),
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, GIT_OPTIONAL_LOCKS: "0" },
  });
  if (r.status !== 0 || typeof r.stdout !== "string") return null;
  const dates: Array<string | undefined> = [];
  let line = 0;
  let time: number | null = null;
  let uncommitted = false;
  for (const row of r.stdout.split("\n")) {
    // A header: "<sha> <line in the original> <line now> [<lines in group>]".
    const head = /^([0-9a-f]{40}) \d+ (\d+)/.exec(row);
    if (head !== null) {
      uncommitted = /^0{40}$/.test(head[1] ?? "");
      line = Number(head[2]);
      time = null;
    } else if (row.startsWith("committer-time ")) {
      time = Number(row.slice("committer-time ".length));
    } else if (row.startsWith("\t")) {
      dates[line] = !uncommitted && time !== null ? new Date(time * 1000).toISOString().slice(0, 10) : undefined;
    }
  }
  return dates;
}
