import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = resolve(fileURLToPath(new URL("../..", import.meta.url)));
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** The real sessions the corpus repeats: bundled spotter, plus the shared m-claude ones when present. */
export function realSessions(): { name: string; text: string }[] {
  const dirs = [join(repoRoot, "datasets/claude-code/spotter")];
  const shared = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");
  const mClaude = join(shared, "claude-transcripts/m-claude");
  if (existsSync(mClaude)) dirs.push(mClaude);
  return dirs.flatMap((d) =>
    readdirSync(d)
      .filter((f) => f.endsWith(".jsonl"))
      .sort()
      .map((f) => ({ name: f, text: readFileSync(join(d, f), "utf8") })),
  );
}

/**
 * Writes copies of the real sessions under `root` until `targetBytes` are written. Each copy
 * gets fresh ids: every uuid's first 8 hex digits become the copy number, so uuids, parents
 * and session ids stay consistent within a copy and never collide across copies.
 *
 * Example: `buildCorpus(dir, 100e6)` → about 26 copies of the 7 real sessions (3.9 MB a round), 100 MB.
 */
export function buildCorpus(root: string, targetBytes: number): { files: number; bytes: number; copies: number } {
  const sessions = realSessions();
  let bytes = 0;
  let files = 0;
  let copy = 0;
  while (bytes < targetBytes) {
    const prefix = copy.toString(16).padStart(8, "0");
    const dir = join(root, `-bench-project-${copy % 16}`);
    mkdirSync(dir, { recursive: true });
    for (const s of sessions) {
      if (bytes >= targetBytes) break;
      const text = s.text.replace(UUID, (u) => prefix + u.slice(8));
      const session = s.name.replace(/\.jsonl$/, "");
      const name = UUID.test(session) ? `${prefix}${session.slice(8)}.jsonl` : `${prefix}-${s.name}`;
      UUID.lastIndex = 0;
      writeFileSync(join(dir, name), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
    copy++;
  }
  return { files, bytes, copies: copy };
}
