import { readdirSync } from "node:fs";
import { basename, dirname, join, relative, sep } from "node:path";

/** A transcript file found under a root. */
export interface TranscriptFile {
  path: string;
  /** Path relative to the root, with "/" separators (used in `source_ref`). */
  rel: string;
  /** "session": a main session file; "subagent": `<session>/subagents/agent-<id>.jsonl`. */
  kind: "session" | "subagent";
  /** The session the file belongs to (a subagent file's parent session). */
  sessionId: string;
}

/**
 * Lists the Claude Code transcripts under a root such as `~/.claude/projects`, sorted by
 * path: every `*.jsonl`, with subagent files (`<session>/subagents/agent-*.jsonl`, all lines
 * `isSidechain: true`) told apart. A missing root gives an empty list.
 *
 * Example: a root holding `p/abc.jsonl` and `p/abc/subagents/agent-a1.jsonl` gives
 * `[{rel:"p/abc.jsonl", kind:"session", sessionId:"abc"}, {rel:"p/abc/subagents/agent-a1.jsonl",
 * kind:"subagent", sessionId:"abc"}]`.
 */
export function discoverTranscripts(root: string): TranscriptFile[] {
  const out: TranscriptFile[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith(".jsonl")) out.push(describe(root, p));
    }
  };
  walk(root);
  return out.sort((a, b) => (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0));
}

function describe(root: string, path: string): TranscriptFile {
  const rel = relative(root, path).split(sep).join("/");
  const name = basename(path);
  const parent = dirname(path);
  if (basename(parent) === "subagents" && name.startsWith("agent-")) {
    return { path, rel, kind: "subagent", sessionId: basename(dirname(parent)) };
  }
  return { path, rel, kind: "session", sessionId: name.replace(/\.jsonl$/, "") };
}
