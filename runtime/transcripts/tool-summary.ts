import type { ToolCall } from "../../schemas/exchange.js";
import { clipHead } from "./clip.js";
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

/** One line, clipped at whitespace (clip.ts: a token cut in two would leave part of a key without its context). */
function clip(text: string, max: number): string {
  return clipHead(text.replace(/\s+/g, " ").trim(), max, "…");
}

/** A summary's input of several lines or longer than a summary, unfolded and whole (not written: kept beside the summary for refold). */
const SOURCES = new WeakMap<ToolCall, string>();

/**
 * The summary again from its input of several lines, that input passed through `redact` first
 * (the tenth-set pass's door bug: the summary folds the lines into one, and the redactor reads a
 * line's structure, a command and its printed password, a key file's comment and its key, so a
 * summary redacted after the fold kept in clear what the whole input's redaction takes), and of
 * one line longer than a summary (a clip redacted alone loses what lies past its cut). A short
 * summary of one line comes back as it is.
 */
export function refold(call: ToolCall, redact: (text: string) => string): ToolCall {
  const source = SOURCES.get(call);
  return source === undefined ? call : { name: call.name, summary: clip(tildeHome(redact(source)), TOOL_SUMMARY_MAX) };
}

/**
 * A short, single-line summary of a tool call's input, home paths shortened to "~"; with
 * `redact`, an input of several lines is redacted before its lines are folded (refold).
 *
 * Example: `summarizeToolCall("Bash", {command: "npm test -- --run", description: "x"})` →
 * `{name: "Bash", summary: "npm test -- --run"}`; `summarizeToolCall("Read",
 * {file_path: "/home/ann/app/src/a.ts"})` → `{name: "Read", summary: "~/app/src/a.ts"}`.
 */
export function summarizeToolCall(name: string, input: unknown, redact?: (text: string) => string): ToolCall {
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
  // One short line is its own summary. A longer one is clipped, and a clip redacted alone loses
  // what the redactor reads past the cut (a byte list's length, a name's value, the eleventh
  // set's one door-only leak): it is redacted whole first, as an input of several lines is.
  if (!summary.includes("\n") && summary.length <= TOOL_SUMMARY_MAX) return { name, summary: clip(tildeHome(summary), TOOL_SUMMARY_MAX) };
  if (redact !== undefined) return { name, summary: clip(tildeHome(redact(summary)), TOOL_SUMMARY_MAX) };
  const call = { name, summary: clip(tildeHome(summary), TOOL_SUMMARY_MAX) };
  SOURCES.set(call, summary);
  return call;
}
