import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const sharedDatasets = process.env["ERRATA_SHARED_DATASETS"] ?? resolve(repoRoot, "../shared/datasets");
/** Bundled in the repo: always present. */
export const spotterDir = join(repoRoot, "datasets/claude-code/spotter");
/** Shared only (personal data; not bundled): tests skip when absent. */
export const mClaudeDir = join(sharedDatasets, "claude-transcripts/m-claude");
export const hasMClaude = existsSync(mClaudeDir);

export type Obj = Record<string, unknown>;

/** The parsed lines of a small JSONL fixture (tests only; the runtime never reads whole files). */
export function readJsonl(path: string): Obj[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Obj);
}

export function writeJsonl(path: string, rows: readonly Obj[]): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
}

/** Index (0-based) of the line with this uuid prefix. */
export function indexOfUuid(rows: readonly Obj[], prefix: string): number {
  const i = rows.findIndex((r) => typeof r["uuid"] === "string" && (r["uuid"] as string).startsWith(prefix));
  if (i < 0) throw new Error(`no line with uuid ${prefix}`);
  return i;
}

/**
 * The real `tool_heavy.jsonl` session with a compaction spliced in before its second typed
 * prompt (line 26): a `compact_boundary` (parentUuid null, logicalParentUuid = the prompt's
 * old parent) and the `isCompactSummary` continuation line, in the shape Claude Code 2.1
 * writes them; the prompt's parent becomes the summary.
 */
export function toolHeavyWithCompaction(): Obj[] {
  const rows = readJsonl(join(spotterDir, "tool_heavy.jsonl"));
  const k = indexOfUuid(rows, "f643538d");
  const prompt = rows[k] as Obj;
  const base = { isSidechain: false, userType: "external", cwd: prompt["cwd"], sessionId: prompt["sessionId"], version: prompt["version"], gitBranch: prompt["gitBranch"] };
  const boundary: Obj = {
    parentUuid: null,
    logicalParentUuid: prompt["parentUuid"],
    ...base,
    type: "system",
    subtype: "compact_boundary",
    content: "Conversation compacted",
    isMeta: false,
    timestamp: "2026-02-10T22:59:00.000Z",
    uuid: "0c0c0c0c-0000-4000-8000-00000000b0b0",
    level: "info",
    compactMetadata: { trigger: "manual", preTokens: 41234 },
  };
  const summary: Obj = {
    parentUuid: boundary["uuid"],
    ...base,
    type: "user",
    message: {
      role: "user",
      content:
        "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nAnalysis: the user asked to start phoenix in the background.",
    },
    isVisibleInTranscriptOnly: true,
    isCompactSummary: true,
    uuid: "0c0c0c0c-0000-4000-8000-00000000c5c5",
    timestamp: "2026-02-10T22:59:01.000Z",
  };
  const moved: Obj = { ...prompt, parentUuid: summary["uuid"] };
  return [...rows.slice(0, k), boundary, summary, moved, ...rows.slice(k + 1)];
}

/**
 * The subagent's own messages of the real `subagent.jsonl` session: its `agent_progress`
 * lines carry them (`data.message`), so they can be written out the way older versions kept
 * them (sidechain lines in the main file) or newer ones do (`<session>/subagents/agent-<id>.jsonl`).
 */
export function subagentMessages(): { agentId: string; sessionId: string; rows: Obj[] } {
  const rows = readJsonl(join(spotterDir, "subagent.jsonl"));
  const out: Obj[] = [];
  let agentId = "";
  let sessionId = "";
  let prev: string | null = null;
  let n = 0;
  for (const r of rows) {
    const data = r["data"] as Obj | undefined;
    if (r["type"] !== "progress" || data?.["type"] !== "agent_progress") continue;
    agentId = String(data["agentId"]);
    sessionId = String(r["sessionId"]);
    const m = data["message"] as Obj;
    const uuid = typeof m["uuid"] === "string" ? (m["uuid"] as string) : `5a5a5a5a-0000-4000-8000-${String(++n).padStart(12, "0")}`;
    out.push({
      parentUuid: prev,
      isSidechain: true,
      userType: "external",
      cwd: r["cwd"],
      sessionId,
      version: r["version"],
      gitBranch: r["gitBranch"],
      agentId,
      type: m["type"],
      message: m["message"],
      uuid,
      timestamp: m["timestamp"] ?? r["timestamp"],
    });
    prev = uuid;
  }
  return { agentId, sessionId, rows: out };
}
