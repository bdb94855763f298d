/**
 * `errata-tool-hook post-tool-use`: a warning about a tool's output, where it belongs: after
 * the tool ran (Claude Code's PostToolUse), beside the result the model reads. A check whose
 * conditions read `output` (the tool's response as text: Bash's stdout and stderr, a file's
 * content, an MCP tool's text) can only be a warn (ladder-formats/checks.ts refuses any other
 * action for it), and never fires at PreToolUse, where there is no output yet.
 *
 * Answers Claude Code's PostToolUse shape, `hookSpecificOutput.additionalContext`, the warning
 * phrased as a fact about the call, the owner's words quoted (checks.ts `warning`: text that
 * reads as a system instruction there can trip the client's prompt-injection defences); prints
 * nothing when no such check fires. Logs one tool-event line per eligible check, as the
 * PreToolUse runner does. Always exits 0: a fault says one line on stderr.
 *
 * Example: stdin {"tool_name":"Bash","tool_input":{"command":"npm test"},"tool_response":{"stdout":"... 3 skipped ..."}}
 * with a warn check on output `\d+ skipped` -> stdout {"hookSpecificOutput":{"hookEventName":"PostToolUse",
 * "additionalContext":"The owner set a check on calls like this one (errata check tests-skipped): \"Skipped tests are failures here.\""}}.
 */
import { checkApplies, compileChecks, evaluateCompiled, readsOutput } from "../ladder-formats/checks.js";
import { appendLadderLine, loadChecks, type ToolHookIo } from "./pre-tool-use.js";
import { TOOL_EVENTS_FILE } from "../ladder-formats/files.js";
import { ladderDir } from "../ladder-formats/ladder-dir.js";
import type { ToolEvent } from "../../schemas/ladder-checks.js";
import { nonEmpty, projectDirOf, type CheckSources } from "./tool-sources.js";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A tool's response as the text an `output` condition reads, or null when it has none. */
export function outputText(response: unknown): string | null {
  if (typeof response === "string") return response;
  const parts: string[] = [];
  const take = (v: unknown): void => {
    if (typeof v === "string" && v !== "") parts.push(v);
  };
  if (Array.isArray(response)) for (const b of response) if (isObj(b)) take(b["text"]);
  if (isObj(response)) {
    for (const k of ["stdout", "stderr", "content", "output", "result"]) take(response[k]);
    if (isObj(response["file"])) take(response["file"]["content"]);
  }
  return parts.length === 0 ? null : parts.join("\n");
}

/** Runs the output checks for one PostToolUse payload; returns the warning written (or null). */
export function onPostToolUse(f: Record<string, unknown>, io: ToolHookIo, say: (line: string) => void, sources?: CheckSources): string | null {
  const toolName = nonEmpty(f["tool_name"]);
  const toolInput = f["tool_input"];
  if (toolName === null || !isObj(toolInput)) {
    say("no tool_name or tool_input object in the PostToolUse JSON; nothing checked");
    return null;
  }
  const output = outputText(f["tool_response"]);
  if (output === null) return null;
  const projectDir = projectDirOf(f, io.env, io.cwd);
  const loaded = loadChecks(io.env, io.cwd, projectDir, sources);
  for (const r of loaded.refused) say(`${r.message}; its checks are not run`);
  const checks = loaded.checks.filter((c) => readsOutput(c) && checkApplies(c, projectDir));
  if (checks.length === 0) return null;
  const d = evaluateCompiled(compileChecks(checks), { tool_name: toolName, tool_input: toolInput, tool_output: output });
  if (d.additionalContext !== null) io.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: "PostToolUse", additionalContext: d.additionalContext } })}\n`);
  const eligible = d.outcomes.filter((o) => o.eligible);
  if (eligible.length > 0) {
    const ts = new Date(io.now()).toISOString();
    const lines = eligible.map((o) =>
      JSON.stringify({
        v: 1,
        ts,
        session_id: nonEmpty(f["session_id"]),
        tool_use_id: nonEmpty(f["tool_use_id"]),
        tool_name: toolName,
        check: o.check.id,
        rule_id: o.check.rule_id ?? null,
        mode: o.check.mode,
        fired: o.fired,
        decision: o.fired && o.check.mode === "active" ? "warn" : null,
      } satisfies ToolEvent),
    );
    try {
      appendLadderLine(ladderDir(io.env, io.cwd), TOOL_EVENTS_FILE, `${lines.join("\n")}\n`);
    } catch (err) {
      say(`the warning stands, but its log line was not written (${err instanceof Error ? err.message : String(err)})`);
    }
  }
  return d.additionalContext;
}
