import type { ToolCall } from "../../schemas/exchange.js";
import { isObject, str } from "./records.js";

/** Longest summary kept for one tool call, in characters. */
export const TOOL_SUMMARY_MAX = 120;

/** Which input field says what a known tool did. */
const PRIMARY_FIELD: Record<string, readonly string[]> = {
  Bash: ["command"],
  Read: ["file_path"],
  Write: ["file_path"],
  Edit: ["file_path"],
  MultiEdit: ["file_path"],
  NotebookEdit: ["notebook_path"],
  Glob: ["pattern", "path"],
  Grep: ["pattern", "path"],
  LS: ["path"],
  WebFetch: ["url"],
  WebSearch: ["query"],
  Task: ["subagent_type", "description"],
  Agent: ["subagent_type", "description"],
  Skill: ["skill", "command"],
  SlashCommand: ["command"],
  BashOutput: ["bash_id"],
  KillShell: ["shell_id"],
};

const HOME_PATH = /(?:\/home\/|\/Users\/|[A-Za-z]:\\Users\\)[^/\\\s"']+/g;

/** Replaces home-directory prefixes (`/home/ann/`, `/Users/ann/`, `C:\Users\ann\`) by "~". */
export function tildeHome(text: string): string {
  return text.replace(HOME_PATH, "~");
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/**
 * A short, single-line summary of a tool call's input, home paths shortened to "~".
 *
 * Example: `summarizeToolCall("Bash", {command: "npm test -- --run", description: "x"})` →
 * `{name: "Bash", summary: "npm test -- --run"}`; `summarizeToolCall("Read",
 * {file_path: "/home/ann/app/src/a.ts"})` → `{name: "Read", summary: "~/app/src/a.ts"}`.
 */
export function summarizeToolCall(name: string, input: unknown): ToolCall {
  let summary = "";
  if (isObject(input)) {
    const fields = PRIMARY_FIELD[name];
    if (fields !== undefined) {
      summary = fields
        .map((f) => str(input[f]))
        .filter((v): v is string => v !== null && v.length > 0)
        .join(" ");
    }
    if (summary === "" && name === "TodoWrite" && Array.isArray(input["todos"])) {
      summary = `${input["todos"].length} todos`;
    }
    if (summary === "") {
      const firstString = Object.values(input).find((v): v is string => typeof v === "string" && v.length > 0);
      summary = firstString ?? (Object.keys(input).length === 0 ? "" : JSON.stringify(input));
    }
  } else if (typeof input === "string") {
    summary = input;
  }
  return { name, summary: clip(tildeHome(summary), TOOL_SUMMARY_MAX) };
}
